import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { envelopeHash, foldEvent, seededRng, verifyLog, type EventEnvelope, type GameState, type Rng } from '../../domain/kernel/index.js';
import { registry } from '../../domain/registry.js';
import { spearpoint, type State } from '../../domain/spearpoint/index.js';
import { startLocalRuntime, type LocalRuntime } from '../../functions/local/runtime.js';
import { cid, http, type Res } from './support.js';

/**
 * Spearpoint 1943 end to end: two players with local tokens play complete games over real HTTP
 * (the local runtime in-process with the real engine registry, on this run's DynamoDB Local),
 * choosing from the `legalCommands` the server offers. Afterwards the export must verify, a
 * changed die must not, and no response a player got while the game ran may name a card the
 * other seat held in hand (unit or command card) at that moment, or a card lying in any deck.
 */
type Side = 'us' | 'de';
type Command = { type: string; [k: string]: unknown };
const SIDES: Side[] = ['us', 'de'];
const opp = (s: Side): Side => (s === 'us' ? 'de' : 'us');
/** Event feeds are read every few moves, each read from where the last ended: every event up to the last read before the end is checked. */
const FEED_EVERY = 4;

let rt: LocalRuntime;
let api: ReturnType<typeof http>;
const tokens = {} as Record<Side | 'carol', string>;

beforeAll(async () => {
  rt = await startLocalRuntime({ memory: true, engines: registry, dynamoEndpoint: inject('dynamoEndpoint'), tableName: `sp-e2e-${Date.now().toString(36)}` });
  api = http(rt.url);
  const token = async (player: string) => {
    const r = await api.post('/local/token', undefined, { player });
    expect(r.status).toBe(200);
    return r.body.token as string;
  };
  [tokens.us, tokens.de, tokens.carol] = await Promise.all([token('alice'), token('bob'), token('carol')]);
});
afterAll(async () => {
  await rt?.stop();
});

/**
 * A deterministic chooser that favours progress (after the fuzz test's random pick, but biased):
 * the engine picks starting hands, every unit that can be committed is, every unit that can
 * attack does (two weapons when it has them), a command card now and then, then the order is
 * sealed; attacks are mostly resolved without a boost; draws favour the Reserves deck.
 */
function choose(legal: readonly Command[], phase: string, r: Rng): Command {
  const by = (...types: string[]) => legal.filter((c) => types.includes(c.type));
  const any = (xs: readonly Command[]) => xs[r.int(xs.length)]!;
  const seal = () => legal.find((c) => c.type === 'SealOrder' && c.initiativeBoost === undefined) ?? any(legal);
  switch (phase) {
    case 'muster':
      return by('AutoPickHand')[0] ?? any(legal);
    case 'commitment': {
      const commits = by('CommitUnit', 'ReplaceCrew');
      if (commits.length) return any(commits);
      const cards = by('PlayCommandCard');
      return cards.length && r.int(3) === 0 ? any(cards) : seal();
    }
    case 'declaration': {
      const attacks = by('DeclareAttack', 'JoinCloseAssault');
      if (attacks.length) {
        const both = attacks.filter((c) => Array.isArray(c.weapons) && c.weapons.length === 2);
        return any(both.length && r.int(2) ? both : attacks);
      }
      const cards = by('PlayCommandCard');
      return cards.length && r.int(3) === 0 ? any(cards) : seal();
    }
    case 'combat': {
      const plain = legal.filter((c) => c.boostWith === undefined);
      return plain.length && r.int(4) ? any(plain) : any(legal);
    }
    case 'draw': {
      const reserves = legal.find((c) => c.type === 'DrawCard' && c.from === 'reserves');
      return reserves && r.int(3) ? reserves : any(legal);
    }
    default:
      return any(legal);
  }
}

/** One response a seat got while the game ran, kept for the hidden-information check afterwards. */
interface Seen {
  seat: Side | 'spectator';
  /** The game version the response reflects. */
  version: number;
  what: string;
  body: unknown;
}
/** One event delivered to a seat while the game ran (feed or command reply). */
interface Delivered {
  seat: Side;
  event: EventEnvelope;
  via: string;
}

interface Played {
  gameId: string;
  commands: number;
  requests: number;
  seen: Seen[];
  delivered: Delivered[];
  typesSent: Set<string>;
  boosted: number;
}

/** alice (us) creates, bob (de) joins, then both play from what GET /v1/games/{id} offers until the game ends. */
async function playGame(options: unknown, chooserSeed: string, maxCommands = 1500): Promise<Played> {
  const created = await api.post('/v1/games', tokens.us, {
    engine: 'spearpoint-1943',
    ...(options !== undefined ? { options } : {}),
    seat: 'us',
    entropy: 'alice-noise',
    commandId: cid('create'),
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const gameId = created.body.gameId as string;
  const joined = await api.post(`/v1/games/${gameId}/join`, tokens.de, { entropy: 'bob-noise', commandId: cid('join') });
  expect(joined.status, JSON.stringify(joined.body)).toBe(200);

  const out: Played = { gameId, commands: 0, requests: 2, seen: [], delivered: [], typesSent: new Set(), boosted: 0 };
  const r = seededRng({ seed: chooserSeed, gameId: 'chooser', entropy: [], counter: 0 });
  const cursor: Record<Side, number> = { us: 0, de: 0 };
  const feed = async (seat: Side): Promise<Res> => {
    const f = await api.get(`/v1/games/${gameId}/events?after=${cursor[seat]}&limit=1000`, tokens[seat]);
    expect(f.status).toBe(200);
    return f;
  };
  for (;;) {
    // Both players look at the game at the same version (nothing is written meanwhile); every
    // few moves they also read their event feeds from where they left off (the replies to their
    // own commands are checked every time).
    const feeds = out.commands % FEED_EVERY === 0;
    // On those rounds the views also carry the log's new part (`eventsAfter`), which must equal the feed.
    const [vUs, vDe, fUs, fDe, spectator] = await Promise.all([
      api.get(`/v1/games/${gameId}${feeds ? `?eventsAfter=${cursor.us}` : ''}`, tokens.us),
      api.get(`/v1/games/${gameId}${feeds ? `?eventsAfter=${cursor.de}` : ''}`, tokens.de),
      feeds ? feed('us') : undefined,
      feeds ? feed('de') : undefined,
      out.commands % 10 === 0 ? api.get(`/v1/games/${gameId}`, tokens.carol) : undefined,
    ]);
    out.requests += 2 + (feeds ? 2 : 0) + (spectator ? 1 : 0);
    const views: Record<Side, Res> = { us: vUs, de: vDe };
    for (const seat of SIDES) expect(views[seat].status).toBe(200);
    if (vUs.body.summary.status === 'ended') break;
    const version = vUs.body.summary.version as number;
    expect(vDe.body.summary.version).toBe(version);
    for (const [seat, f] of [
      ['us', fUs],
      ['de', fDe],
    ] as const) {
      // The view against the state at its version; its log's events (equal to the feed's) each against the state at its own.
      const { log: _log, ...view } = views[seat].body as { log?: unknown };
      out.seen.push({ seat, version, what: 'view', body: view });
      if (!f) continue;
      expect(f.body.version).toBe(version);
      expect(f.body.next, 'the feed fits one page').toBeUndefined();
      for (const event of f.body.events as EventEnvelope[]) out.delivered.push({ seat, event, via: 'feed' });
      const log = views[seat].body.log as { events: EventEnvelope[]; version: number };
      expect(log.events).toEqual(f.body.events);
      for (const event of log.events) out.delivered.push({ seat, event, via: 'view log' });
      cursor[seat] = version;
    }
    if (spectator) out.seen.push({ seat: 'spectator', version, what: 'spectator view', body: spectator.body });

    const pending = vUs.body.pending as { seat: Side }[];
    expect(pending.length, `nobody to act at version ${version}`).toBeGreaterThan(0);
    const seat = pending[r.int(pending.length)]!.seat;
    const me = views[seat].body;
    expect(me.seat).toBe(seat);
    expect(me.pending).toEqual(vUs.body.pending);
    const legal = me.legalCommands as Command[];
    expect(legal.length, `${seat} is pending in ${me.view.phase} but is offered nothing`).toBeGreaterThan(0);
    const command = choose(legal, me.view.phase as string, r);
    const res = await api.post(`/v1/games/${gameId}/commands`, tokens[seat], { commandId: cid(seat), command, expectedVersion: version });
    out.requests++;
    expect(res.status, `${JSON.stringify(command)} → ${JSON.stringify(res.body)}`).toBe(200);
    expect(res.body.duplicate).toBe(false);
    expect(res.body.version).toBeGreaterThan(version);
    for (const event of res.body.events as EventEnvelope[]) out.delivered.push({ seat, event, via: `reply to ${command.type}` });
    out.typesSent.add(command.type);
    if (command.boostWith !== undefined) out.boosted++;
    if (++out.commands >= maxCommands) throw new Error(`game ${gameId} did not end in ${maxCommands} commands`);
  }
  return out;
}

/** Every string inside a value (ids, titles…). */
function strings(x: unknown, into: Set<string> = new Set()): Set<string> {
  if (typeof x === 'string') into.add(x);
  else if (Array.isArray(x)) for (const v of x) strings(v, into);
  else if (x && typeof x === 'object') for (const v of Object.values(x)) strings(v, into);
  return into;
}
/** Every key inside a value. */
function keys(x: unknown, into: Set<string> = new Set()): Set<string> {
  if (Array.isArray(x)) for (const v of x) keys(v, into);
  else if (x && typeof x === 'object')
    for (const [k, v] of Object.entries(x)) {
      into.add(k);
      keys(v, into);
    }
  return into;
}

/** What a seat holds secretly: its hand of units and its Command cards (card instance ids). */
const secretsOf = (s: State, side: Side) => [...s.seats[side].hand, ...s.seats[side].commands];
/** Cards lying face down in a deck: both Reserves decks, the Command deck, the Damage deck. */
const deckCards = (s: State) => [...s.seats.us.reserves, ...s.seats.de.reserves, ...s.commandDeck.draw, ...s.damageDeck.draw];

/**
 * Events that legitimately show cards that were in a hand just before: a sealed order's reveal
 * and what carries it out (a committed unit, a card played, voided or discarded face up). Every
 * secret they show must have left the hand by the end of the command that produced them.
 */
const REVEALS = new Set([
  'CommitmentRevealed',
  'DeclarationRevealed',
  'UnitCommitted',
  'CrewReplaced',
  'CommandCardPlayed',
  'CommandCardVoided',
  'CommandCardDiscardedForBonus',
  'CommandDiscarded',
  'UnitWithdrawn',
]);
/** Events that put a card whose identity is public under a deck (the order stays hidden). */
const UNDER_DECK = new Set(['AircraftReturned', 'UnitDestroyed', 'UnitDiscarded']);

/**
 * Replays the exported log to know, at every version, each seat's hand and every deck; then
 * checks each recorded response against the state at its version.
 */
function hiddenProblems(events: readonly EventEnvelope[], played: Played) {
  const problems: string[] = [];
  const states: State[] = [];
  let gs: GameState<State> | undefined;
  for (const e of events) {
    gs = foldEvent(spearpoint, gs, e) as GameState<State>;
    states[e.seq] = gs.game;
  }
  // The last seq of the command (or setup) that produced each event: what a reveal shows must be out of the hand by then.
  const batchEnd: number[] = [];
  for (let i = events.length - 1, end = events.length; i >= 0; i--) {
    const e = events[i]!;
    batchEnd[e.seq] = end;
    if (e.type.includes('.') && e.type !== 'Game.Ended') end = e.seq - 1;
  }
  const ended = events.length;
  let secretsChecked = 0;
  let ownSeen = 0;
  for (const s of played.seen) {
    const state = states[s.version]!;
    const tokens = strings(s.body);
    const ks = keys(s.body);
    const hiddenFrom = s.seat === 'spectator' ? SIDES : [opp(s.seat)];
    for (const side of hiddenFrom) {
      for (const t of secretsOf(state, side)) {
        secretsChecked++;
        if (tokens.has(t)) problems.push(`${s.seat}'s ${s.what} at v${s.version} names ${side}'s hidden card ${t}`);
      }
    }
    for (const t of deckCards(state)) if (tokens.has(t)) problems.push(`${s.seat}'s ${s.what} at v${s.version} names deck card ${t}`);
    for (const k of ['commandDeckOrder', 'damageDeckOrder', 'reservesOrder'])
      if (ks.has(k)) problems.push(`${s.seat}'s ${s.what} at v${s.version} carries ${k}`);
    const view = (s.body as { view: { seats: Record<Side, Record<string, unknown>> } }).view;
    for (const side of hiddenFrom)
      for (const k of ['hand', 'commands', 'order'])
        if (view.seats[side]![k] !== undefined) problems.push(`${s.seat}'s ${s.what} at v${s.version} shows ${side}'s ${k}`);
    // Positive control: the same check finds the seat's own cards in its own view, so a leak would be caught.
    if (s.seat !== 'spectator') {
      for (const t of secretsOf(state, s.seat)) if (!tokens.has(t)) problems.push(`${s.seat}'s own card ${t} is missing from its view at v${s.version}`);
      ownSeen += secretsOf(state, s.seat).length;
    }
  }
  let eventsChecked = 0;
  for (const { seat, event: e, via } of played.delivered) {
    if (e.seq >= ended) continue; // the final command's reply comes after the end, when everything opens
    eventsChecked++;
    const before = states[Math.max(1, e.seq - 1)]!;
    const after = states[e.seq]!;
    const other = opp(seat);
    const where = `${e.type} (seq ${e.seq}, ${via}) sent to ${seat}`;
    const data = e.data as { seat?: string; order?: unknown; command?: unknown };
    const tokens = strings(e.data);
    if (/Shuffled$/.test(e.type) || (data && typeof data === 'object' && 'order' in data)) problems.push(`${where} carries a deck order`);
    if (['OrderStepAdded', 'OrderCleared', 'StartingUnitPicked', 'CardDrawn', 'CommandCardsDealt'].includes(e.type) && data.seat !== seat) {
      problems.push(`${where} belongs to ${other}`);
    }
    if (e.type === 'Game.CommandAccepted' && e.actor !== seat) problems.push(`${where}: the other seat's command`);
    const secrets = secretsOf(before, other).filter((t) => tokens.has(t));
    if (secrets.length) {
      if (!REVEALS.has(e.type)) problems.push(`${where} names ${other}'s hidden ${secrets.join(', ')}`);
      else {
        const still = secretsOf(states[batchEnd[e.seq]!]!, other);
        for (const t of secrets) if (still.includes(t)) problems.push(`${where} shows ${t}, still in ${other}'s hand afterwards`);
      }
    }
    if (!UNDER_DECK.has(e.type) && !(e.type === 'CardDrawn' && data.seat === seat)) {
      for (const t of deckCards(after)) if (tokens.has(t)) problems.push(`${where} names deck card ${t}`);
    }
  }
  return { problems, states, secretsChecked, ownSeen, eventsChecked };
}

/** The export with one die changed in the first event that holds one; `rehash` re-chains the hashes after it. */
function withOneDieChanged(events: readonly EventEnvelope[], rehash: boolean): { events: EventEnvelope[]; seq: number } {
  const out = events.map((e) => ({ ...e, data: JSON.parse(JSON.stringify(e.data)) as unknown }));
  const i = out.findIndex((e) => e.type === 'AttackRolled');
  expect(i).toBeGreaterThan(0);
  const d = out[i]!.data as { dice: number[] };
  d.dice[0] = (d.dice[0]! % 10) + 1;
  if (rehash) {
    for (let k = i; k < out.length; k++) {
      const { hash: _old, ...rest } = { ...out[k]!, prevHash: out[k - 1]!.hash };
      out[k] = { ...rest, hash: envelopeHash(rest) };
    }
  }
  return { events: out, seq: out[i]!.seq };
}

async function finish(played: Played) {
  const { gameId } = played;
  const end = await api.get(`/v1/games/${gameId}`, tokens.us);
  expect(end.body.summary.status).toBe('ended');
  const outcome = end.body.summary.outcome as { winners: Side[]; reason: string; score: Record<Side, number> };
  expect(outcome.winners.length).toBeGreaterThan(0);
  // A real finish by the rules (points, Overrun, a Situation condition), not the turn limit.
  expect(outcome.reason).toMatch(/Victory Points|overran|destroyed or captured|held out/);
  expect(end.body.legalCommands).toEqual([]);
  expect(end.body.pending).toEqual([]);

  const ex = await api.get(`/v1/games/${gameId}/export`, tokens.carol);
  expect(ex.status).toBe(200);
  const events = ex.body.events as EventEnvelope[];
  expect(ex.body.version).toBe(events.length);
  expect(events.at(-1)!.type).toBe('Game.Ended');
  const report = verifyLog(events, registry.get);
  expect(report.problems).toEqual([]);
  expect(report.ok).toBe(true);
  expect(report.outcome).toEqual(outcome);
  expect(report.draws).toBeGreaterThan(0);
  return { end, events, outcome };
}

describe('Spearpoint 1943 over HTTP', () => {
  for (const [name, options, seed] of [
    ['a Standard game with default options', undefined, '01'],
    ['a game with explicit decks (us-armor against de-armor)', { us: { preset: 'us-armor' }, de: { preset: 'de-armor' } }, '02'],
  ] as const) {
    it(`plays ${name} to the end; the export verifies, a changed die does not, and no player saw the other's hand or a deck`, async () => {
      const t0 = Date.now();
      const played = await playGame(options, seed.repeat(32));
      const { end, events, outcome } = await finish(played);
      // The game went through every phase: commitment, targets, attacks (some boosted with a card), draws.
      for (const t of ['AutoPickHand', 'CommitUnit', 'SealOrder', 'DeclareAttack', 'ResolveAttack']) expect(played.typesSent).toContain(t);
      expect([...played.typesSent].some((t) => t === 'DrawCard' || t === 'DrawCards')).toBe(true);
      expect(events.some((e) => e.type === 'UnitDestroyed' || e.type === 'UnitCaptured')).toBe(true);

      // Tampering: a changed die breaks the hash chain; re-chained, the replay of the dice catches it.
      const naive = withOneDieChanged(events, false);
      const broken = verifyLog(naive.events, registry.get);
      expect(broken.ok).toBe(false);
      expect(broken.problems.join()).toMatch(new RegExp(`event ${naive.seq}: content does not match its hash`));
      const rechained = withOneDieChanged(events, true);
      const replayed = verifyLog(rechained.events, registry.get);
      expect(replayed.ok).toBe(false);
      expect(replayed.problems.join()).toMatch(new RegExp(`event ${rechained.seq} \\(AttackRolled\\) differs from what the rules and dice produce`));

      // Hidden information, against the state replayed from the export at each response's version.
      const hidden = hiddenProblems(events, played);
      expect(hidden.problems.slice(0, 10)).toEqual([]);
      expect(hidden.secretsChecked).toBeGreaterThan(2 * played.commands);
      expect(hidden.ownSeen).toBeGreaterThan(2 * played.commands);
      expect(hidden.eventsChecked).toBeGreaterThan(played.commands);
      // Negative control: a view or an event that did name bob's hand card is reported.
      const probe = played.seen.find((s) => s.seat === 'us' && hidden.states[s.version]!.seats.de.hand.length > 0)!;
      const bobsCard = hidden.states[probe.version]!.seats.de.hand[0]!;
      // Any public engine event bob's hand was non-empty for will do; which ones a game has varies.
      const publicEvent = (d: (typeof played.delivered)[number]) =>
        d.seat === 'us' &&
        !d.event.type.includes('.') &&
        (d.event.visibility as { to: string }).to === 'all' &&
        hidden.states[d.event.seq - 1]!.seats.de.hand.length > 0;
      const feedEvent = played.delivered.find((d) => d.event.type === 'InitiativeRolled' && publicEvent(d)) ?? played.delivered.find(publicEvent)!;
      expect(feedEvent).toBeDefined();
      const leaky: Played = {
        ...played,
        seen: [{ ...probe, body: { ...(probe.body as object), extra: [bobsCard] } }],
        delivered: [
          {
            ...feedEvent,
            event: { ...feedEvent.event, data: { ...(feedEvent.event.data as object), note: hidden.states[feedEvent.event.seq - 1]!.seats.de.hand[0] } },
          },
        ],
      };
      const caught = hiddenProblems(events, leaky).problems;
      expect(caught.some((p) => p.includes(`names de's hidden card ${bobsCard}`))).toBe(true);
      expect(caught.some((p) => p.includes(feedEvent.event.type) && p.includes("names de's hidden"))).toBe(true);
      // The replay agrees with the auditor view the server gives after the end.
      const final = hidden.states[events.length]!;
      const auditor = end.body.view as {
        seats: Record<Side, { hand: { id: string }[]; commands: { id: string }[]; reservesOrder: string[] }>;
        commandDeckOrder: string[];
        damageDeckOrder: string[];
      };
      for (const side of SIDES) {
        expect(auditor.seats[side].hand.map((c) => c.id)).toEqual(final.seats[side].hand);
        expect(auditor.seats[side].commands.map((c) => c.id)).toEqual(final.seats[side].commands);
        expect(auditor.seats[side].reservesOrder).toEqual(final.seats[side].reserves);
      }
      expect(auditor.commandDeckOrder).toEqual(final.commandDeck.draw);
      expect(auditor.damageDeckOrder).toEqual(final.damageDeck.draw);
      console.log(
        `${name}: ${played.commands} commands, ${played.requests} requests, ${events.length} events, turn ${final.turn}, ${outcome.reason} (${JSON.stringify(outcome.score)}), ${played.boosted} boosted, ${Date.now() - t0} ms`,
      );
    }, 120_000);
  }
});
