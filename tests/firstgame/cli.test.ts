import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { EventEnvelope } from '../../domain/kernel/index.js';
import { startLocalRuntime, type LocalRuntime } from '../../functions/local/runtime.js';
import { notificationsExtension } from '../../functions/local/stream-poller.js';
import { runScript } from '../support/run-script.js';

/**
 * Issue 9, "The first game (tried as a new user would)", at two terminals against the local
 * runtime with the real Spearpoint engine: settings from the terminal, `do` with a draft on this
 * computer, a command whose reply says its sender must act again, and `legal` with nothing to do.
 */
type Command = { type: string; [k: string]: unknown };
let rt: LocalRuntime;
let dir: string;

beforeAll(async () => {
  rt = await startLocalRuntime({
    memory: true,
    dynamoEndpoint: inject('dynamoEndpoint'),
    tableName: `firstgame-${Date.now().toString(36)}`,
    extensions: [notificationsExtension],
  });
  dir = mkdtempSync(join(tmpdir(), 'fieldpost-firstgame-'));
}, 60_000);
afterAll(async () => {
  await rt?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const cli = (player: string, ...args: string[]) =>
  runScript('functions/cli/main.ts', args, { FIELDPOST_HOME: join(dir, player), FIELDPOST_URL: rt.url, FIELDPOST_TOKEN: rt.issueToken(player) });
function ok(r: { code: number; out: string; err: string }): string {
  expect(r.code, r.err + r.out).toBe(0);
  return r.out;
}
async function request(method: string, path: string, player: string, body?: unknown): Promise<any> {
  const res = await fetch(`${rt.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${rt.issueToken(player)}`, 'content-type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const json = await res.json();
  expect(res.status, JSON.stringify(json)).toBeLessThan(300);
  return json;
}
const numberOf = (legal: readonly Command[], pick: (c: Command) => boolean) => legal.findIndex(pick) + 1;

describe('the first game, as a new user plays it', () => {
  it('settings: show, set and confirm an email, add and remove webhooks, turn a kind of mail off', async () => {
    expect(ok(await cli('carol', 'settings'))).toMatch(/email: +none \(set one with {2}npm run cli -- settings email <address>\)/);
    const set = ok(await cli('carol', 'settings', 'email', 'carol@example.org'));
    expect(set).toMatch(/carol@example\.org \(waiting for confirmation: run {2}npm run cli -- verify-email <code>/);
    const mails = (await (await fetch(`${rt.url}/local/mail`)).json()) as { mails: { to: string; text: string }[] };
    const code = /verify-email\?token=([A-Za-z0-9_-]+)/.exec(mails.mails.filter((m) => m.to.includes('carol@')).at(-1)!.text)![1]!;
    ok(await cli('carol', 'verify-email', code));
    expect(ok(await cli('carol', 'settings'))).toMatch(/carol@example\.org \(confirmed\)/);

    const added = ok(await cli('carol', 'settings', 'add-webhook', 'http://127.0.0.1:9/hook', '--format', 'json'));
    const secret = /shown only now[^\n]*\n {2}(whsec_[A-Za-z0-9+/]{32})/.exec(added)?.[1];
    expect(secret).toBeTruthy();
    const discord = ok(await cli('carol', 'settings', 'add-webhook', 'http://127.0.0.1:9/discord', '--format', 'discord'));
    expect(discord).not.toMatch(/shown only now/);
    const ids = [...discord.matchAll(/(wh_[0-9a-f]{16}) +(json|discord)/g)].map((m) => [m[1], m[2]]);
    expect(ids.map((x) => x[1])).toEqual(['json', 'discord']);
    const removed = ok(await cli('carol', 'settings', 'remove-webhook', ids[0]![0]!));
    expect(removed).not.toContain(ids[0]![0]!);
    expect(removed).toContain(ids[1]![0]!);
    expect(ok(await cli('carol', 'settings', 'mail', 'started', 'off'))).toMatch(/mailed: +every notice but started/);
    const stored = await request('GET', '/v1/me/settings', 'carol');
    expect(stored).toMatchObject({ email: 'carol@example.org', emailOff: ['started'], webhooks: [{ id: ids[1]![0], format: 'discord' }] });
    const bad = await cli('carol', 'settings', 'add-webhook', 'http://127.0.0.1:9/x', '--format', 'xml');
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--format is json, discord or slack/);
    // settings reminder switches its names as settings mail does (one helper, functions/cli/commands/account.ts).
    expect(ok(await cli('carol', 'settings', 'reminder', '80%', 'off'))).toMatch(/reminders: all but 80%/);
    expect(await request('GET', '/v1/me/settings', 'carol')).toMatchObject({ emailOff: ['started'], remindersOff: ['80%'] });
    const level = await cli('carol', 'settings', 'reminder', '90%', 'off');
    expect(level.code).toBe(2);
    expect(level.err).toContain('settings reminder <50%|80%|24h> on|off');
  }, 60_000);

  it('do with a draft on this computer: the seal carries it, other order commands are refused with the reason', async () => {
    const { gameId } = await request('POST', '/v1/games', 'alice', { engine: 'spearpoint-1943', seat: 'us', commandId: 'fg-game' });
    await request('POST', `/v1/games/${gameId}/join`, 'bob', { commandId: 'fg-join' });
    await request('POST', `/v1/games/${gameId}/commands`, 'alice', { commandId: 'fg-hand-a', command: { type: 'AutoPickHand' } });
    await request('POST', `/v1/games/${gameId}/commands`, 'bob', { commandId: 'fg-hand-b', command: { type: 'AutoPickHand' } });
    const start = await request('GET', `/v1/games/${gameId}`, 'alice');
    const list = start.legalCommands as Command[];
    const version = start.summary.version as number;
    const n = numberOf(list, (c) => c.type === 'CommitUnit');
    const step = list[n - 1]!;
    ok(await cli('alice', 'legal', gameId));
    expect(ok(await cli('alice', 'play', gameId, String(n)))).toMatch(/Drafted/);

    // A seal with steps of its own would leave the draft out; a step sent alone would be replaced by it.
    const withSteps = await cli('alice', 'do', gameId, '{"type":"SealOrder","steps":[]}');
    expect(withSteps.code).toBe(2);
    expect(withSteps.err).toMatch(/Not sent: you have your draft of 1 step on this computer, and this command would leave it out/);
    expect(withSteps.err).toContain(`npm run cli -- do ${gameId} '{"type":"SealOrder"}'`);
    const other = list.find((c) => c.type === 'CommitUnit' && c.unit !== step.unit)!;
    const alone = await cli('alice', 'do', gameId, JSON.stringify(other));
    expect(alone.code).toBe(2);
    expect(alone.err).toMatch(/a step sent on its own would be replaced by it when you seal/);
    // Refused before anything was sent: the game has not moved.
    expect((await request('GET', `/v1/games/${gameId}`, 'alice')).summary.version).toBe(version);

    // `legal` before sealing keeps a numbered list; the plain seal carries the draft.
    ok(await cli('alice', 'legal', gameId));
    const sealed = ok(await cli('alice', 'do', gameId, '{"type":"SealOrder"}'));
    expect(sealed).toMatch(/Sealing with your draft of 1 step/);
    expect(sealed).toMatch(/Next: Nothing: waiting for Germany \(bob\)\./);
    const events = (await request('GET', `/v1/games/${gameId}/events`, 'alice')) as { events: EventEnvelope[] };
    const accepted = events.events.filter((e) => e.type === 'Game.CommandAccepted').pop()!;
    expect((accepted.data as { command: unknown }).command).toEqual({ type: 'SealOrder', steps: [step] });

    // Nothing to do now: the old numbered list goes, so a number typed from it means nothing.
    expect(ok(await cli('alice', 'legal', gameId))).toMatch(/Nothing to do now/);
    expect(existsSync(join(dir, 'alice', 'last-listing.json'))).toBe(false);

    // bob's seal reveals both orders and opens Target Declaration, where he must act again: the reply says so.
    const bobSeal = ok(await cli('bob', 'do', gameId, '{"type":"SealOrder"}'));
    expect(bobSeal).toMatch(/CommitmentRevealed/);
    expect(bobSeal).toMatch(/Next: Your move as Germany: Turn 1: declare one target per attacking unit, then seal/);
    expect(bobSeal).toContain(`See your choices with  npm run cli -- legal ${gameId}`);

    // alice's 1 now means the first command of this phase, never the first of the list she saw before.
    const declaration = (await request('GET', `/v1/games/${gameId}`, 'alice')).legalCommands as Command[];
    const first = ok(await cli('alice', 'play', gameId, '1'));
    expect(first).toMatch(new RegExp(`^(Drafted|Playing) ${JSON.stringify(declaration[0]).replace(/[{}()[\]"+.*?^$|\\]/g, '\\$&')}`));
    expect(first).not.toMatch(/CommitUnit/);
  }, 90_000);
});
