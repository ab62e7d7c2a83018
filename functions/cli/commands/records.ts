// A finished game's record: exporting its full log and auditing an exported one.
import { writeFileSync } from 'node:fs';
import type { EventEnvelope } from '../../../domain/kernel/index.js';
import { auditFile } from '../audit.js';
import { ApiError } from '../client.js';
import { arg, client, gamePath, int, out, type Commands, type Ctx } from './context.js';

/**
 * A log too long for one response, read through the event feed (everything is open once the
 * game has ended) into the same file the export route gives.
 */
async function exportInPages(
  ctx: Ctx,
  gameId: string,
): Promise<{ format: string; gameId: string; version: number; finalHash: string | null; events: EventEnvelope[] }> {
  const events: EventEnvelope[] = [];
  const limit = int(ctx.flags.limit, '--limit') ?? 1000;
  for (let after = 0; ;) {
    const page = await client(ctx).request<{ events: EventEnvelope[]; version: number; next?: number }>(
      'GET',
      gamePath(gameId, `/events?after=${after}&limit=${limit}`),
    );
    events.push(...page.events);
    if (page.next === undefined) break;
    after = page.next;
  }
  const last = events[events.length - 1];
  return { format: 'fieldpost-log/1', gameId, version: last?.seq ?? 0, finalHash: last?.hash ?? null, events };
}

export const recordCommands: Commands = {
  async export(ctx) {
    const gameId = arg(ctx, 0, 'gameId');
    let r: { events: unknown[] };
    try {
      r = await client(ctx).request<{ events: unknown[] }>('GET', gamePath(gameId, '/export'));
    } catch (e) {
      if (!(e instanceof ApiError && e.code === 'export/too-large')) throw e;
      r = await exportInPages(ctx, gameId);
    }
    const text = JSON.stringify(r, null, 2) + '\n';
    const file = ctx.args[1];
    if (!file) return void process.stdout.write(text);
    writeFileSync(file, text);
    out(`Wrote ${r.events.length} events to ${file}. Audit it with:  npm run verify -- ${file}`);
  },

  async verify(ctx) {
    const file = arg(ctx, 0, 'file');
    const r = await auditFile(file, ctx.flags.engines ?? []);
    out(r.text);
    if (!r.ok) process.exitCode = 1;
  },
};
