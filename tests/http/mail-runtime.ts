import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import type { EngineRegistry } from '../../domain/kernel/index.js';
import { startLocalRuntime, type LocalRuntime } from '../../functions/local/runtime.js';
import { startLocalNotifications, type LocalNotifications } from '../../functions/local/stream-poller.js';
import { runScript } from '../support/run-script.js';
import { http } from './support.js';

export interface Mail {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
}

/**
 * The local runtime on DynamoDB Local with notifications mailing into a folder (the mail sink,
 * read back through GET /local/mail), a token per player, and the terminal client as any of them.
 */
export async function startMailRuntime(name: string, engines: EngineRegistry, players: readonly string[]) {
  const mailDir = mkdtempSync(join(tmpdir(), `fieldpost-${name}-mail-`));
  let notif: LocalNotifications | undefined;
  const rt: LocalRuntime = await startLocalRuntime({
    memory: true,
    engines,
    dynamoEndpoint: inject('dynamoEndpoint'),
    tableName: `${name}-${Date.now().toString(36)}`,
    extensions: [
      async (ctx) =>
        (notif = await startLocalNotifications(ctx, {
          mailDir,
          pollIntervalMs: 100,
          retry: { mode: 'inline', attempts: 2, baseDelayMs: 20, maxDelayMs: 100 },
          env: { APP_URL: 'http://play.fieldpost.test', MAIL_FROM: 'Fieldpost <turns@fieldpost.test>' },
        })),
    ],
  });
  if (!notif) throw new Error('the notifications extension did not start');
  const token: Record<string, string> = {};
  for (const p of players) token[p] = rt.issueToken(p);
  return {
    rt,
    notif,
    token,
    api: http(rt.url),
    /** The terminal client as one player (its login folder inside the mail folder, removed with it). */
    cli: (player: string, ...args: string[]) =>
      runScript('functions/cli/main.ts', args, { FIELDPOST_HOME: join(mailDir, `home-${player}`), FIELDPOST_URL: rt.url, FIELDPOST_TOKEN: token[player]! }),
    mails: async (): Promise<Mail[]> => ((await (await fetch(`${rt.url}/local/mail`)).json()) as { mails: Mail[] }).mails,
    async stop() {
      await rt.stop();
      rmSync(mailDir, { recursive: true, force: true });
    },
  };
}

export type MailRuntime = Awaited<ReturnType<typeof startMailRuntime>>;
