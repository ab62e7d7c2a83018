import { QueryCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createRegistry, MAX_DRAFT_STEPS, verifyLog, type EventEnvelope } from '../../domain/kernel/index.js';
import { spearpoint } from '../../domain/spearpoint/index.js';
import { startLocalRuntime, type LocalRuntime } from '../../functions/local/runtime.js';
import { diceRace } from '../fixtures/dice-race.js';
import { cid, http, type Res } from './support.js';

/**
 * Private drafts of sealed orders over real HTTP (the local runtime on this run's DynamoDB
 * Local): POST /v1/games/{id}/preview tries order steps and writes nothing; the steps travel
 * with the sealing command, so the other side cannot count them; bad drafts are refused
 * without a trace; a game whose orders were all drafted exports a log that verifies.
 */
type Side = 'us' | 'de';
type Command = { type: string; [k: string]: unknown };
interface Drafting {
  steps: Command[];
  stepChoices: number[];
  sealChoices: number[];
}

const engines = createRegistry([spearpoint, diceRace]);
let rt: LocalRuntime;
let api: ReturnType<typeof http>;
const tokens = {} as Record<Side | 'carol', string>;

beforeAll(async () => {
  rt = await startLocalRuntime({ memory: true, engines, dynamoEndpoint: inject('dynamoEndpoint'), tableName: `draft-${Date.now().toString(36)}` });
  api = http(rt.url);
  tokens.us = rt.issueToken('alice');
  tokens.de = rt.issueToken('bob');
  tokens.carol = rt.issueToken('carol');
});
afterAll(async () => {
  await rt?.stop();
});

const ORDER_STEPS = new Set(['CommitUnit', 'ReplaceCrew', 'MoveCrew', 'MoveLine', 'PlayCommandCard', 'DeclareAttack', 'JoinCloseAssault']);

/** The response text exactly as the server sent it: "byte-identical" means this string. */
async function rawGet(path: string, token: string): Promise<string> {
  const res = await fetch(`${rt.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status, path).toBe(200);
  return res.text();
}

/**
 * Every item of the game's partition (head, secret, snapshot, batches; events and idempotency
 * records in older games), each by key and content: any write to it changes this string.
 */
async function partitionCount(gameId: string): Promise<string> {
  const items: string[] = [];
  let start: Record<string, any> | undefined;
  do {
    const r = await rt.client.send(
      new QueryCommand({
        TableName: rt.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': { S: `GAME#${gameId}` } },
        ConsistentRead: true,
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    for (const item of r.Items ?? []) items.push(`${item['sk']!.S}:${JSON.stringify(item).length}:${item['version']?.N ?? ''}`);
    start = r.LastEvaluatedKey;
  } while (start);
  return items.join(',');
}

/** Everything "nothing was written" is judged by: version, stored items, both seats' feeds and views. */
async function footprint(gameId: string) {
  const [items, usView, deView, usFeed, deFeed] = await Promise.all([
    partitionCount(gameId),
    rawGet(`/v1/games/${gameId}`, tokens.us),
    rawGet(`/v1/games/${gameId}`, tokens.de),
    rawGet(`/v1/games/${gameId}/events?limit=1000`, tokens.us),
    rawGet(`/v1/games/${gameId}/events?limit=1000`, tokens.de),
  ]);
  return { version: JSON.parse(usView).summary.version as number, items, usView, deView, usFeed, deFeed };
}

const preview = (gameId: string, token: string, body: unknown) => api.post(`/v1/games/${gameId}/preview`, token, body);
const command = (gameId: string, seat: Side, body: Record<string, unknown>) =>
  api.post(`/v1/games/${gameId}/commands`, tokens[seat], { commandId: cid(seat), ...body });

async function view(gameId: string, seat: Side): Promise<Res> {
  const v = await api.get(`/v1/games/${gameId}`, tokens[seat]);
  expect(v.status).toBe(200);
  return v;
}

async function feed(gameId: string, seat: Side, after = 0): Promise<{ events: EventEnvelope[]; version: number }> {
  const f = await api.get(`/v1/games/${gameId}/events?after=${after}&limit=1000`, tokens[seat]);
  expect(f.status).toBe(200);
  expect(f.body.next).toBeUndefined();
  return f.body;
}

/** alice (us) creates with the given options, bob (de) joins, both let the engine pick their hands: the first Commitment Phase. */
async function commitmentGame(options?: unknown): Promise<string> {
  const created = await api.post('/v1/games', tokens.us, { engine: 'spearpoint-1943', seat: 'us', commandId: cid('create'), ...(options ? { options } : {}) });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const gameId = created.body.gameId as string;
  const joined = await api.post(`/v1/games/${gameId}/join`, tokens.de, { commandId: cid('join') });
  expect(joined.status, JSON.stringify(joined.body)).toBe(200);
  for (const seat of ['us', 'de'] as const) {
    const r = await command(gameId, seat, { command: { type: 'AutoPickHand' } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  }
  const v = await view(gameId, 'us');
  expect(v.body.view.phase).toBe('commitment');
  expect((v.body.pending as { seat: string }[]).map((p) => p.seat).sort()).toEqual(['de', 'us']);
  return gameId;
}

/**
 * Builds a draft of `n` steps the way a client does: each step is one of the step choices the
 * preview of the draft so far offers (committing units first). Returns the steps and every preview.
 */
async function draftOf(gameId: string, seat: Side, n: number): Promise<{ steps: Command[]; previews: Res[] }> {
  const steps: Command[] = [];
  const previews: Res[] = [];
  for (let i = 0; i < n; i++) {
    const p = await preview(gameId, tokens[seat], { steps });
    expect(p.status, JSON.stringify(p.body)).toBe(200);
    previews.push(p);
    const legal = p.body.legalCommands as Command[];
    const choices = (p.body.drafting as Drafting).stepChoices.map((k) => legal[k]!).filter((c) => c.type !== 'ClearOrder' && c.type !== 'JoinCloseAssault');
    const next = choices.find((c) => c.type === 'CommitUnit') ?? choices[0];
    expect(next, `no step to add after ${i} (${JSON.stringify(legal)})`).toBeDefined();
    steps.push(next!);
  }
  const last = await preview(gameId, tokens[seat], { steps });
  expect(last.status, JSON.stringify(last.body)).toBe(200);
  previews.push(last);
  return { steps, previews };
}

/** Paths at which two JSON values differ. */
function diffPaths(a: unknown, b: unknown, path = '$', into: string[] = []): string[] {
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
    const ks = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of ks) diffPaths((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`, into);
  } else if (JSON.stringify(a) !== JSON.stringify(b)) into.push(path);
  return into;
}

/** An event as the other seat could compare it between games: its place after the seal's start, and everything but ids, hashes and times. */
const shape = (e: EventEnvelope, from: number) => ({ offset: e.seq - from, type: e.type, actor: e.actor, visibility: e.visibility, data: e.data });

describe('sealed order drafts over HTTP', () => {
  it('previews 1 to 3 steps: the order and legal commands change in the reply, nothing is written and the other seat sees no difference', async () => {
    const gameId = await commitmentGame();
    const before = await footprint(gameId);

    // The plain view carries an empty draft and marks which legal commands are steps and which seal.
    const plain = JSON.parse(before.usView) as { legalCommands: Command[]; drafting: Drafting; view: { seats: Record<Side, { order?: unknown[] }> } };
    expect(plain.drafting.steps).toEqual([]);
    expect(plain.drafting.stepChoices.length).toBeGreaterThan(0);
    for (const k of plain.drafting.stepChoices)
      expect(ORDER_STEPS.has(plain.legalCommands[k]!.type) || plain.legalCommands[k]!.type === 'ClearOrder').toBe(true);
    expect(plain.drafting.sealChoices.map((k) => plain.legalCommands[k])).toEqual([{ type: 'SealOrder' }]);
    // Every order step the seat is offered is a step choice; nothing else is.
    expect(plain.drafting.stepChoices).toEqual(plain.legalCommands.flatMap((c, k) => (ORDER_STEPS.has(c.type) ? [k] : [])));
    expect(plain.view.seats.us.order).toEqual([]);
    // The other seat's view has drafting too, for its own (empty) draft, and never the order of us.
    expect(JSON.parse(before.deView).drafting.steps).toEqual([]);
    expect(JSON.parse(before.deView).view.seats.us.order).toBeUndefined();

    const { steps, previews } = await draftOf(gameId, 'us', 3);
    expect(steps.map((s) => s.type)).toEqual(['CommitUnit', 'CommitUnit', 'CommitUnit']);
    let legalBefore = JSON.stringify(plain.legalCommands);
    for (let k = 1; k <= 3; k++) {
      const p = previews[k]!.body as {
        seat: string;
        summary: { version: number };
        legalCommands: Command[];
        drafting: Drafting;
        pending: unknown;
        view: { seats: Record<Side, { order: { kind: string; unit: string }[]; sealed: boolean; handCount: number }> };
      };
      expect(p.seat).toBe('us');
      expect(p.summary.version).toBe(before.version);
      expect(p.drafting.steps).toEqual(steps.slice(0, k));
      // The view shows the order with the steps, as the seat's own view would after sending them.
      const order = p.view.seats.us.order;
      expect(order.map((x) => [x.kind, x.unit])).toEqual(steps.slice(0, k).map((s) => ['commit', s.unit]));
      expect(p.view.seats.us.sealed).toBe(false);
      // The legal commands follow the draft: a committed unit is no longer offered, ClearOrder is.
      expect(JSON.stringify(p.legalCommands)).not.toBe(legalBefore);
      legalBefore = JSON.stringify(p.legalCommands);
      for (const s of steps.slice(0, k)) expect(p.legalCommands.some((c) => c.type === 'CommitUnit' && c.unit === s.unit)).toBe(false);
      const clear = p.legalCommands.findIndex((c) => c.type === 'ClearOrder');
      expect(clear).toBeGreaterThanOrEqual(0);
      expect(p.drafting.stepChoices).toContain(clear);
      expect(p.drafting.sealChoices.map((i) => p.legalCommands[i])).toEqual([{ type: 'SealOrder' }]);
      // Who must act is the game's, not the draft's.
      expect(p.pending).toEqual(JSON.parse(before.usView).pending);
    }
    // Naming the seat works the same; a draft that clears starts over.
    const named = await preview(gameId, tokens.us, { steps: [...steps, { type: 'ClearOrder' }, steps[2]], seat: 'us' });
    expect(named.status, JSON.stringify(named.body)).toBe(200);
    expect(named.body.view.seats.us.order.map((x: { unit: string }) => x.unit)).toEqual([steps[2]!.unit]);

    // The other seat previews its own draft at the same time; it sees nothing of alice's.
    const bobs = await draftOf(gameId, 'de', 1);
    expect(bobs.previews[1]!.body.view.seats.us.order).toBeUndefined();
    expect(bobs.previews[1]!.body.view.seats.de.order).toHaveLength(1);

    const after = await footprint(gameId);
    expect(after).toEqual(before);
  });

  it('sealing a draft of 1 or 3 steps (or a plain seal) shows the other seat exactly the same events and view changes; the sealer sees its steps', async () => {
    const seen: { steps: number; opponentEvents: unknown[]; opponentViewChanges: string[]; versionDelta: number }[] = [];
    for (const n of [1, 3, 0]) {
      const gameId = await commitmentGame();
      const { steps } = n ? await draftOf(gameId, 'us', n) : { steps: [] };
      const before = await footprint(gameId);
      const sealed = await command(gameId, 'us', { command: { type: 'SealOrder' }, ...(n ? { draft: steps } : {}), expectedVersion: before.version });
      expect(sealed.status, JSON.stringify(sealed.body)).toBe(200);
      const version = sealed.body.version as number;
      const deEvents = (await feed(gameId, 'de', before.version)).events;
      const deView = (await view(gameId, 'de')).body;
      // The other seat: the seal, and nothing that depends on the order.
      expect(deEvents.map((e) => e.type)).toEqual(['OrderSealed']);
      seen.push({
        steps: n,
        versionDelta: version - before.version,
        opponentEvents: deEvents.map((e) => shape(e, before.version)),
        opponentViewChanges: diffPaths(JSON.parse(before.deView), deView),
      });

      // The sealing seat: the one command the draft became, and the finished order.
      const mine = (await feed(gameId, 'us', before.version)).events;
      expect(mine.map((e) => e.type)).toEqual(['Game.CommandAccepted', 'OrderFinalized', 'OrderSealed']);
      const accepted = mine[0]!.data as { command: Command };
      expect(accepted.command).toEqual(n ? { type: 'SealOrder', steps } : { type: 'SealOrder' });
      const finalized = mine[1]!.data as { seat: string; steps: { kind: string; unit: string }[] };
      expect(finalized.seat).toBe('us');
      expect(finalized.steps.map((x) => [x.kind, x.unit])).toEqual(steps.map((s) => ['commit', s.unit]));
      expect(mine[1]!.visibility).toEqual({ to: 'seats', seats: ['us'] });
      // The reply to the command says the same.
      expect((sealed.body.events as EventEnvelope[]).map((e) => e.type)).toEqual(['Game.CommandAccepted', 'OrderFinalized', 'OrderSealed']);
      // Sealed: nothing more to draft; the view holds the order.
      const usView = (await view(gameId, 'us')).body;
      expect(usView.view.seats.us.sealed).toBe(true);
      expect(usView.view.seats.us.order).toHaveLength(n);
      expect(usView.legalCommands).toEqual([]);
    }
    expect(seen[0]!.opponentViewChanges.length).toBeGreaterThan(0);
    expect(seen[0]!.opponentViewChanges).toContain('$.view.seats.us.sealed');
    for (const s of seen.slice(1)) {
      expect({ ...s, steps: seen[0]!.steps }).toEqual(seen[0]);
    }
    expect(seen[0]!.versionDelta).toBe(3);
  });

  it('refuses bad drafts and bad bodies with the right status and code, writing nothing', async () => {
    const gameId = await commitmentGame();
    const { steps } = await draftOf(gameId, 'us', 2);
    const [s1, s2] = steps as [Command, Command];
    const before = await footprint(gameId);
    const reusedId = cid('reused');
    const cases: { what: string; send: () => Promise<Res>; status: number; code?: string; message?: RegExp }[] = [
      // Previews
      {
        what: 'a step that is not legal (the same unit twice)',
        send: () => preview(gameId, tokens.us, { steps: [s1, s2, s1] }),
        status: 422,
        message: /^Step 3 \(CommitUnit\): /,
      },
      {
        what: 'a unit not in hand',
        send: () => preview(gameId, tokens.us, { steps: [{ type: 'CommitUnit', unit: 'no-such-unit' }] }),
        status: 422,
        message: /^Step 1 \(CommitUnit\): /,
      },
      {
        what: 'a draw in a draft',
        send: () => preview(gameId, tokens.us, { steps: [s1, { type: 'DrawCard', from: 'command' }] }),
        status: 422,
        code: 'draft/not-a-step',
        message: /^Step 2 \(DrawCard\)/,
      },
      {
        what: 'a seal in a draft',
        send: () => preview(gameId, tokens.us, { steps: [s1, { type: 'SealOrder' }] }),
        status: 422,
        code: 'draft/not-a-step',
        message: /^Step 2 \(SealOrder\)/,
      },
      {
        what: 'a step the engine cannot read',
        send: () => preview(gameId, tokens.us, { steps: [s1, { type: 'CommitUnit' }] }),
        status: 400,
        code: 'command/malformed',
        message: /^Step 2 \(CommitUnit\)/,
      },
      { what: 'steps not a list', send: () => preview(gameId, tokens.us, { steps: 'CommitUnit' }), status: 400 },
      { what: 'a step not an object', send: () => preview(gameId, tokens.us, { steps: [42] }), status: 400 },
      { what: 'no steps', send: () => preview(gameId, tokens.us, {}), status: 400 },
      {
        what: `more than ${MAX_DRAFT_STEPS} steps`,
        send: () => preview(gameId, tokens.us, { steps: Array.from({ length: MAX_DRAFT_STEPS + 1 }, () => s1) }),
        status: 400,
      },
      { what: 'an unknown field', send: () => preview(gameId, tokens.us, { steps: [s1], expectedVersion: before.version }), status: 400 },
      { what: 'a player without a seat', send: () => preview(gameId, tokens.carol, { steps: [s1] }), status: 403, code: 'action/not-seated' },
      { what: "the other player's seat", send: () => preview(gameId, tokens.de, { steps: [], seat: 'us' }), status: 403, code: 'action/not-your-seat' },
      { what: 'no token', send: () => api.call('POST', `/v1/games/${gameId}/preview`, { body: { steps: [s1] } }), status: 401 },
      // Commands with a draft
      {
        what: 'a seal with an illegal step',
        send: () => api.post(`/v1/games/${gameId}/commands`, tokens.us, { commandId: reusedId, command: { type: 'SealOrder' }, draft: [s1, s1] }),
        status: 422,
        message: /Step 2 \(CommitUnit\): /,
      },
      {
        what: 'a seal with a draw in the draft',
        send: () => command(gameId, 'us', { command: { type: 'SealOrder' }, draft: [s1, { type: 'DrawCard', from: 'reserves' }] }),
        status: 422,
        code: 'draft/not-a-step',
        message: /^Step 2 \(DrawCard\)/,
      },
      {
        what: 'ClearOrder with a draft',
        send: () => api.post(`/v1/games/${gameId}/commands`, tokens.us, { commandId: reusedId, command: { type: 'ClearOrder' }, draft: [s1] }),
        status: 422,
        code: 'draft/not-a-seal',
      },
      { what: 'a step with a draft', send: () => command(gameId, 'us', { command: s2, draft: [s1] }), status: 422, code: 'draft/not-a-seal' },
      {
        what: 'a seal with steps of its own and a draft',
        send: () => command(gameId, 'us', { command: { type: 'SealOrder', steps: [s2] }, draft: [s1] }),
        status: 422,
        code: 'draft/not-a-seal',
      },
      { what: 'a draft not a list', send: () => command(gameId, 'us', { command: { type: 'SealOrder' }, draft: { steps: [s1] } }), status: 400 },
      {
        what: `a draft of more than ${MAX_DRAFT_STEPS} steps`,
        send: () => command(gameId, 'us', { command: { type: 'SealOrder' }, draft: Array.from({ length: MAX_DRAFT_STEPS + 1 }, () => s1) }),
        status: 400,
      },
      {
        what: 'a draft sealed by a player without a seat',
        send: () => api.post(`/v1/games/${gameId}/commands`, tokens.carol, { commandId: cid('carol'), command: { type: 'SealOrder' }, draft: [s1] }),
        status: 403,
        code: 'action/not-seated',
      },
    ];
    for (const c of cases) {
      const r = await c.send();
      expect(r.status, `${c.what}: ${JSON.stringify(r.body)}`).toBe(c.status);
      if (c.code) expect(r.body.code, c.what).toBe(c.code);
      if (c.message) expect(r.body.message, c.what).toMatch(c.message);
      if (r.status !== 401) expect(typeof r.body.message, c.what).toBe('string');
      expect(await footprint(gameId), `${c.what} wrote something`).toEqual(before);
    }
    // A refused command leaves its id unused: the same id seals the draft now.
    const ok = await api.post(`/v1/games/${gameId}/commands`, tokens.us, {
      commandId: reusedId,
      command: { type: 'SealOrder' },
      draft: steps,
      expectedVersion: before.version,
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.duplicate).toBe(false);
    expect(ok.body.version).toBe(before.version + 3);
    // Positive control: the footprint that stayed the same through every refusal does see a write.
    const written = await footprint(gameId);
    expect(written.items).not.toBe(before.items);
    expect(written.deFeed).not.toBe(before.deFeed);
    // Sealed: a step no longer drafts (the message still names it), an empty draft previews an order with nothing left to do.
    const late = await preview(gameId, tokens.us, { steps: [s1] });
    expect(late.status).toBe(422);
    expect(late.body.code).toBe('order/sealed');
    expect(late.body.message).toMatch(/^Step 1 \(CommitUnit\): /);
    const empty = await preview(gameId, tokens.us, { steps: [] });
    expect(empty.status).toBe(200);
    expect(empty.body.legalCommands).toEqual([]);
    expect(empty.body.view.seats.us.order).toHaveLength(2);
  });

  it('a draft replaces steps sent one by one before: the preview shows the order without them, and the seal drops them', async () => {
    const gameId = await commitmentGame();
    const { steps } = await draftOf(gameId, 'us', 2);
    const [s1, s2] = steps as [Command, Command];
    const sent = await command(gameId, 'us', { command: s1 });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect((sent.body.events as EventEnvelope[]).map((e) => e.type)).toEqual(['Game.CommandAccepted', 'OrderStepAdded']);
    const plain = (await view(gameId, 'us')).body;
    expect(plain.view.seats.us.order.map((x: { unit: string }) => x.unit)).toEqual([s1.unit]);
    expect(plain.drafting.steps).toEqual([]);
    const empty = await preview(gameId, tokens.us, { steps: [] });
    expect(empty.status).toBe(200);
    expect(empty.body.view.seats.us.order).toEqual([]);
    const other = await preview(gameId, tokens.us, { steps: [s2] });
    expect(other.status).toBe(200);
    expect(other.body.view.seats.us.order.map((x: { unit: string }) => x.unit)).toEqual([s2.unit]);
    const before = plain.summary.version as number;
    const sealed = await command(gameId, 'us', { command: { type: 'SealOrder' }, draft: [s2], expectedVersion: before });
    expect(sealed.status, JSON.stringify(sealed.body)).toBe(200);
    const finalized = (sealed.body.events as EventEnvelope[]).find((e) => e.type === 'OrderFinalized')!;
    expect((finalized.data as { steps: { unit: string }[] }).steps.map((x) => x.unit)).toEqual([s2.unit]);
  });

  it('refuses drafts where there is nothing to draft: a game not yet started, an engine without sealed orders', async () => {
    // A Spearpoint game waiting for its second player.
    const open = await api.post('/v1/games', tokens.us, { engine: 'spearpoint-1943', seat: 'us', commandId: cid('open') });
    expect(open.status).toBe(201);
    const openId = open.body.gameId as string;
    const openItems = await partitionCount(openId);
    const notActive = await preview(openId, tokens.us, { steps: [] });
    expect(notActive.status).toBe(422);
    expect(notActive.body.code).toBe('game/not-started');
    expect(await partitionCount(openId)).toBe(openItems);

    // The dice-race fixture has no sealed orders: both a preview and a draft on a command are 422 draft/unsupported.
    const created = await api.post('/v1/games', tokens.us, { engine: 'dice-race', options: { target: 5 }, seat: 'p1', commandId: cid('race') });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const raceId = created.body.gameId as string;
    expect((await api.post(`/v1/games/${raceId}/join`, tokens.de, { commandId: cid('join') })).status).toBe(200);
    const race = async () => ({
      items: await partitionCount(raceId),
      p1: await rawGet(`/v1/games/${raceId}`, tokens.us),
      p2Feed: await rawGet(`/v1/games/${raceId}/events`, tokens.de),
    });
    const before = await race();
    const plain = JSON.parse(before.p1);
    expect(plain.drafting).toBeUndefined();
    expect(plain.legalCommands).toContainEqual({ type: 'Roll' });
    for (const r of [
      await preview(raceId, tokens.us, { steps: [] }),
      await preview(raceId, tokens.us, { steps: [{ type: 'Roll' }] }),
      await api.post(`/v1/games/${raceId}/commands`, tokens.us, { commandId: cid('race'), command: { type: 'Roll' }, draft: [] }),
    ]) {
      expect(r.status, JSON.stringify(r.body)).toBe(422);
      expect(r.body.code).toBe('draft/unsupported');
      expect(r.body.message).toMatch(/Dice Race/);
    }
    expect(await race()).toEqual(before);
    // Without a draft the same command is fine.
    const rolled = await api.post(`/v1/games/${raceId}/commands`, tokens.us, { commandId: cid('race'), command: { type: 'Roll' } });
    expect(rolled.status).toBe(200);
  });

  it('plays a short game with every order drafted and sealed whole; the export verifies and holds no step sent on its own', async () => {
    const gameId = await commitmentGame({ maxTurns: 2 });
    let seals = 0;
    let draftedSteps = 0;
    /** Every SealOrder sent, as the log must hold it: drafted ones with their steps, a tied Initiative's re-roll seal bare. */
    const sealsSent: Command[] = [];
    for (let moves = 0; ; moves++) {
      expect(moves, 'the game did not end').toBeLessThan(400);
      const v = (await view(gameId, 'us')).body;
      if (v.summary.status === 'ended') break;
      const pending = v.pending as { seat: Side }[];
      expect(pending.length).toBeGreaterThan(0);
      const seat = pending[moves % pending.length]!.seat;
      const me = seat === 'us' ? v : (await view(gameId, seat)).body;
      const legal = me.legalCommands as Command[];
      expect(legal.length, `${seat} must act in ${me.view.phase} but is offered nothing`).toBeGreaterThan(0);
      const phase = me.view.phase as string;
      if (phase === 'commitment' || phase === 'declaration') {
        // Up to three steps (fewer when fewer are offered), all in private, then one seal.
        const steps: Command[] = [];
        let p = me as { legalCommands: Command[]; drafting: Drafting };
        while (steps.length < 3) {
          const next = p.drafting.stepChoices.map((k) => p.legalCommands[k]!).find((c) => c.type !== 'ClearOrder' && c.type !== 'JoinCloseAssault');
          if (!next) break;
          steps.push(next);
          const r = await preview(gameId, tokens[seat], { steps });
          expect(r.status, JSON.stringify(r.body)).toBe(200);
          p = r.body;
        }
        const seal = p.drafting.sealChoices.map((k) => p.legalCommands[k]!).find((c) => c.initiativeBoost === undefined);
        expect(seal, JSON.stringify(p.legalCommands)).toEqual({ type: 'SealOrder' });
        const r = await command(gameId, seat, { command: seal, draft: steps, expectedVersion: v.summary.version });
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        seals++;
        draftedSteps += steps.length;
        sealsSent.push({ type: 'SealOrder', steps });
        continue;
      }
      const c =
        legal.find((x) => x.type === 'AutoPickHand') ??
        legal.find((x) => x.type === 'ResolveAttack' && x.boostWith === undefined) ??
        legal.find((x) => x.type === 'DrawCard' && x.from === 'reserves') ??
        legal[0]!;
      const r = await command(gameId, seat, { command: c, expectedVersion: v.summary.version });
      expect(r.status, `${JSON.stringify(c)} → ${JSON.stringify(r.body)}`).toBe(200);
      if (c.type === 'SealOrder') sealsSent.push(c);
    }
    // Two turns, each with a commitment and a declaration seal per seat (fewer if the game ended early).
    expect(seals).toBeGreaterThanOrEqual(4);
    expect(draftedSteps).toBeGreaterThan(seals);

    const ex = await api.get(`/v1/games/${gameId}/export`, tokens.carol);
    expect(ex.status).toBe(200);
    const events = ex.body.events as EventEnvelope[];
    expect(events.at(-1)!.type).toBe('Game.Ended');
    const report = verifyLog(events, engines.get);
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
    // Every step reached the log inside its seal: no OrderStepAdded, and each seal is the command its draft became.
    expect(events.filter((e) => e.type === 'OrderStepAdded')).toEqual([]);
    const sealCommands = events
      .filter((e) => e.type === 'Game.CommandAccepted' && (e.data as { command: Command }).command.type === 'SealOrder')
      .map((e) => (e.data as { command: Command }).command);
    expect(sealCommands).toEqual(sealsSent);
    expect(events.filter((e) => e.type === 'CommitmentRevealed').length).toBeGreaterThanOrEqual(1);
    // A seal whose draft were changed after the fact no longer verifies.
    const i = events.findIndex((e) => e.type === 'Game.CommandAccepted' && ((e.data as { command: Command }).command.steps as unknown[] | undefined)?.length);
    expect(i).toBeGreaterThan(0);
    const tampered = events.map((e, k) => (k === i ? { ...e, data: { ...(e.data as object), command: { type: 'SealOrder', steps: [] } } } : e));
    expect(verifyLog(tampered, engines.get).ok).toBe(false);
  }, 60_000);
});
