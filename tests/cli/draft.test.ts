import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { runScript } from '../support/run-script.js';
import type { EventEnvelope } from '../../domain/kernel/index.js';
import { startLocalRuntime, type LocalRuntime } from '../../functions/local/runtime.js';

/**
 * The terminal client's private drafts of sealed orders, as two players at two terminals
 * (each with their own FIELDPOST_HOME) use them against the local runtime with the real
 * Spearpoint engine: `play` of an order step only drafts it, the other side's event feed shows
 * nothing until the seal, `draft` lists and `draft --clear` drops a draft, and playing the seal
 * sends the whole draft in one command.
 */
type Command = { type: string; [k: string]: unknown };

let rt: LocalRuntime;
let dir: string;

beforeAll(async () => {
  rt = await startLocalRuntime({ memory: true, dynamoEndpoint: inject('dynamoEndpoint'), tableName: `cli-draft-${Date.now().toString(36)}` });
  dir = mkdtempSync(join(tmpdir(), 'fieldpost-cli-draft-'));
});
afterAll(async () => {
  await rt?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

type Player = 'alice' | 'bob';
/** Each player's terminal has its own FIELDPOST_HOME (config, last listing, drafts.json). */
const homeOf = (player: Player) => join(dir, player);

/** One run of the CLI at `player`'s terminal (a token in $FIELDPOST_TOKEN, as against a deployed server: no login round). */
const cli = (player: Player, ...args: string[]) =>
  runScript('functions/cli/main.ts', args, { FIELDPOST_HOME: homeOf(player), FIELDPOST_URL: rt.url, FIELDPOST_TOKEN: rt.issueToken(player) });

/** Asserts a CLI run succeeded and returns its output. */
function ok(r: { code: number; out: string; err: string }): string {
  expect(r.code, r.err + r.out).toBe(0);
  return r.out;
}

/** In-process requests: setting the game up and reading what the CLI's numbers will refer to. */
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

/** The number `play` takes for the first legal command matching `pick` (1-based, as `legal` prints). */
function numberOf(legal: readonly Command[], pick: (c: Command) => boolean): number {
  const i = legal.findIndex(pick);
  expect(i, JSON.stringify(legal)).toBeGreaterThanOrEqual(0);
  return i + 1;
}

/** The drafts a player's terminal keeps, by server, game and seat. */
function draftsIn(player: Player): Record<string, { steps: Command[] }> {
  const file = join(homeOf(player), 'drafts.json');
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
}

describe('terminal client: private drafts of sealed orders', () => {
  it('play drafts order steps on this computer only; draft lists and clears them; the seal sends them whole', async () => {
    const [alice, bob] = ['alice', 'bob'] as const;
    // Setup in-process: a Spearpoint game in its first Commitment Phase (both hands picked by the engine).
    const { gameId } = await request('POST', '/v1/games', 'alice', { engine: 'spearpoint-1943', seat: 'us', commandId: 'alice-game' });
    await request('POST', `/v1/games/${gameId}/join`, 'bob', { commandId: 'bob-join' });
    await request('POST', `/v1/games/${gameId}/commands`, 'alice', { commandId: 'alice-hand', command: { type: 'AutoPickHand' } });
    await request('POST', `/v1/games/${gameId}/commands`, 'bob', { commandId: 'bob-hand', command: { type: 'AutoPickHand' } });
    const start = await request('GET', `/v1/games/${gameId}`, 'alice');
    expect(start.view.phase).toBe('commitment');
    const version = start.summary.version as number;
    const bobsList = (await request('GET', `/v1/games/${gameId}`, 'bob')).legalCommands as Command[];

    // alice lists her commands; bob reads his event feed before anything is drafted, and drafts a step of his own
    // (he never listed: play takes the current list). Nothing here writes, so the order does not matter.
    const aliceList = start.legalCommands as Command[];
    const n1 = numberOf(aliceList, (c) => c.type === 'CommitUnit');
    const s1 = aliceList[n1 - 1]!;
    const m1 = numberOf(bobsList, (c) => c.type === 'CommitUnit');
    const [listed, bobBefore, bobStep] = (
      await Promise.all([cli(alice, 'legal', gameId), cli(bob, 'events', gameId), cli(bob, 'play', gameId, String(m1))])
    ).map(ok) as [string, string, string];
    expect(listed).toMatch(/Order steps go into your private draft; sealing sends it whole/);
    expect(listed).toMatch(new RegExp(`(^|\\s)${n1}\\. .*\\(${s1.unit as string}[ )]`, 'm'));
    expect(bobStep).toContain(`Drafted ${JSON.stringify(bobsList[m1 - 1])}`);
    expect(bobStep).not.toMatch(/Sent:/);

    const [first, bobListed] = (await Promise.all([cli(alice, 'play', gameId, String(n1)), cli(bob, 'draft', gameId)])).map(ok) as [string, string];
    expect(first).toContain(`Drafted ${JSON.stringify(s1)}`);
    expect(first).toMatch(/Your draft has 1 step, kept on this computer/);
    expect(first).not.toMatch(/Sent:/);
    expect(bobListed).toMatch(/Your draft \(on this computer only/);
    expect(bobListed).toContain(`1. ${JSON.stringify(bobsList[m1 - 1])}`);
    expect(draftsIn(bob)).toEqual({ [`${rt.url} ${gameId} `]: { steps: [bobsList[m1 - 1]] } });

    // alice's second step: numbers now refer to the list with her draft applied (as the server previews it).
    const afterOne = (await request('POST', `/v1/games/${gameId}/preview`, 'alice', { steps: [s1] })).legalCommands as Command[];
    const n2 = numberOf(afterOne, (c) => c.type === 'CommitUnit');
    const s2 = afterOne[n2 - 1]!;
    expect(s2.unit).not.toBe(s1.unit);
    const [second, cleared] = (await Promise.all([cli(alice, 'play', gameId, String(n2)), cli(bob, 'draft', gameId, '--clear')])).map(ok) as [string, string];
    expect(second).toContain(`Drafted ${JSON.stringify(s2)}`);
    expect(second).toMatch(/Your draft has 2 steps/);
    expect(draftsIn(alice)[`${rt.url} ${gameId} `]?.steps).toEqual([s1, s2]);

    // alice's draft is listed; bob's is gone; bob's feed has not changed at all; nothing was written.
    const [aliceDraft, bobMiddle] = (await Promise.all([cli(alice, 'draft', gameId), cli(bob, 'events', gameId)])).map(ok) as [string, string];
    expect(aliceDraft).toMatch(/Your draft \(on this computer only/);
    expect(aliceDraft).toContain(`1. ${JSON.stringify(s1)}`);
    expect(aliceDraft).toContain(`2. ${JSON.stringify(s2)}`);
    expect(aliceDraft).not.toMatch(/\n\s+3\. /);
    expect(cleared).toMatch(/Draft dropped/);
    expect(draftsIn(bob)).toEqual({});
    expect(bobMiddle).toBe(bobBefore);
    expect((await request('GET', `/v1/games/${gameId}`, 'bob')).summary.version).toBe(version);

    // alice seals: the seal's number in the list with her draft applied; the draft goes with it.
    const afterTwo = (await request('POST', `/v1/games/${gameId}/preview`, 'alice', { steps: [s1, s2] })).legalCommands as Command[];
    const seal = numberOf(afterTwo, (c) => c.type === 'SealOrder');
    const [sealed, bobNoDraft] = (await Promise.all([cli(alice, 'play', gameId, String(seal)), cli(bob, 'draft', gameId)])).map(ok) as [string, string];
    expect(sealed).toMatch(/Playing \{"type":"SealOrder"\} with your draft of 2 steps/);
    expect(sealed).toMatch(/Sent: game \S+ is at version/);
    expect(sealed).toMatch(/OrderFinalized/);
    expect(sealed).toMatch(/OrderSealed/);
    expect(bobNoDraft).toMatch(/^No draft\./);
    expect(draftsIn(alice)).toEqual({});

    const [aliceEvents, bobAfter] = (await Promise.all([cli(alice, 'events', gameId, '--json', '--after', String(version)), cli(bob, 'events', gameId)])).map(
      ok,
    ) as [string, string];
    const mine = JSON.parse(aliceEvents) as { events: EventEnvelope[]; version: number };
    expect(mine.events.map((e) => e.type)).toEqual(['Game.CommandAccepted', 'OrderFinalized', 'OrderSealed']);
    expect((mine.events[0]!.data as { command: unknown }).command).toEqual({ type: 'SealOrder', steps: [s1, s2] });
    expect((mine.events[1]!.data as { steps: { kind: string; unit: string }[] }).steps.map((x) => [x.kind, x.unit])).toEqual([
      ['commit', s1.unit],
      ['commit', s2.unit],
    ]);
    // bob's feed: what it showed before, and now exactly one more event, the seal (no step, no count).
    const lines = (s: string) => s.trimEnd().split('\n');
    const before = lines(bobBefore);
    const after = lines(bobAfter);
    expect(after.slice(0, before.length - 1)).toEqual(before.slice(0, -1));
    expect(after.slice(before.length - 1)).toEqual([
      `#${String(mine.version).padStart(4)} OrderSealed [United States (alice)] {"seat":"us"}`,
      `(game version ${mine.version})`,
    ]);
    expect(mine.version).toBe(version + 3);
  }, 90_000);

  it('a ClearOrder in the draft seals an empty order, replacing steps sent one by one; `do` says the draft is not in its command', async () => {
    const { gameId } = await request('POST', '/v1/games', 'alice', { engine: 'spearpoint-1943', seat: 'us', commandId: 'alice-game-2' });
    await request('POST', `/v1/games/${gameId}/join`, 'bob', { commandId: 'bob-join-2' });
    await request('POST', `/v1/games/${gameId}/commands`, 'alice', { commandId: 'alice-hand-2', command: { type: 'AutoPickHand' } });
    await request('POST', `/v1/games/${gameId}/commands`, 'bob', { commandId: 'bob-hand-2', command: { type: 'AutoPickHand' } });
    const list = (await request('GET', `/v1/games/${gameId}`, 'bob')).legalCommands as Command[];
    const step = list[numberOf(list, (c) => c.type === 'CommitUnit') - 1]!;
    // bob sends one step the old way: the server's order now holds it.
    ok(await cli('bob', 'do', gameId, JSON.stringify(step)));
    const withStep = (await request('GET', `/v1/games/${gameId}`, 'bob')).legalCommands as Command[];
    const clear = numberOf(withStep, (c) => c.type === 'ClearOrder');
    const cleared = ok(await cli('bob', 'play', gameId, String(clear)));
    expect(cleared).toMatch(/Your draft is empty: sealing now sends an empty order/);
    expect(draftsIn('bob')[`${rt.url} ${gameId} `]).toEqual({ steps: [] });
    // A command outside the order (the old engine-level standing order, refused since rules version 4) leaves the draft alone.
    const note = await cli('bob', 'do', gameId, '{"type":"SetStandingOrders","friendlyFire":"ask"}');
    expect(note.err).toMatch(/your empty draft stays on this computer and is not part of this command/);
    expect(note.code).not.toBe(0);
    expect(note.err + note.out).toMatch(/standing-orders/);
    const now = (await request('POST', `/v1/games/${gameId}/preview`, 'bob', { steps: [] })).legalCommands as Command[];
    const sealed = ok(await cli('bob', 'play', gameId, String(numberOf(now, (c) => c.type === 'SealOrder'))));
    expect(sealed).toMatch(/Playing \{"type":"SealOrder"\} with your empty draft/);
    const mine = JSON.parse(ok(await cli('bob', 'events', gameId, '--json'))) as { events: EventEnvelope[] };
    const accepted = mine.events.filter((e) => e.type === 'Game.CommandAccepted').pop()!;
    expect((accepted.data as { command: unknown }).command).toEqual({ type: 'SealOrder', steps: [] });
    expect((mine.events.filter((e) => e.type === 'OrderFinalized').pop()!.data as { steps: unknown[] }).steps).toEqual([]);
    expect(ok(await cli('bob', 'draft', gameId))).toMatch(/^No draft\./);
  }, 90_000);
});
