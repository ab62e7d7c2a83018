import { expect } from 'vitest';
import {
  canSee,
  chain,
  decideCreate,
  decideDraft,
  decideJoin,
  decidePlay,
  foldEvent,
  seedCommitment,
  seededRng,
  type EventEnvelope,
  type GameState,
  type NewEvent,
  type Result,
  type Rng,
  type RuleViolation,
} from '../../domain/kernel/index.js';
import { spearpoint, indexCatalog, type Command, type State } from '../../domain/spearpoint/index.js';
import { view as spearpointView } from '../../domain/spearpoint/view.js';
import { HAND_LIMIT_COMMANDS, HAND_LIMIT_UNITS, victoryPoints } from '../../domain/spearpoint/rules.js';

const PLAYERS = { us: 'alice', de: 'bob' } as const;
type Side = 'us' | 'de';
const SIDES: Side[] = ['us', 'de'];

/** Every string inside a value (ids, titles…), for hidden-information checks. */
export function strings(x: unknown, into: Set<string> = new Set()): Set<string> {
  if (typeof x === 'string') into.add(x);
  else if (Array.isArray(x)) for (const v of x) strings(v, into);
  else if (x && typeof x === 'object') for (const v of Object.values(x)) strings(v, into);
  return into;
}

/** Invariants that hold after every event of a started game. */
export function checkInvariants(s: State, lastType: string): void {
  if (s.phase === 'muster' && !s.started) return;
  const idx = indexCatalog(s.catalog);
  // No card in two places, none lost.
  const seen = new Map<string, string>();
  const place = (card: string, where: string) => {
    const before = seen.get(card);
    if (before !== undefined) throw new Error(`${card} is both in ${before} and ${where} (after ${lastType})`);
    seen.set(card, where);
  };
  for (const side of SIDES) {
    const x = s.seats[side];
    x.reserves.forEach((c) => place(c, `${side} reserves`));
    x.hand.forEach((c) => place(c, `${side} hand`));
    x.commands.forEach((c) => place(c, `${side} commands`));
  }
  for (const u of Object.values(s.inPlay)) {
    place(u.id, 'battle area');
    if (u.crew) place(u.crew, `crew of ${u.id}`);
    if (u.damageCard) place(u.damageCard, `under ${u.id}`);
  }
  // A captured unit its captor keeps is scored but stays in the battle area.
  s.removed.forEach((r) => r.kind !== 'kept' && place(r.card, 'removed'));
  s.commandDeck.draw.forEach((c) => place(c, 'command deck'));
  s.commandDeck.discard.forEach((c) => place(c, 'command discard'));
  s.effects.forEach((e) => place(e.card, 'in effect'));
  s.damageDeck.draw.forEach((c) => place(c, 'damage deck'));
  s.damageDeck.discard.forEach((c) => place(c, 'damage discard'));
  for (const id of Object.keys(s.cards)) if (!seen.has(id)) throw new Error(`unit card ${id} is nowhere (after ${lastType})`);
  for (const c of s.catalog.commandCards) if (!seen.has(c.id)) throw new Error(`command card ${c.id} is nowhere (after ${lastType})`);
  for (const c of s.catalog.damageCards) if (!seen.has(c.id)) throw new Error(`damage card ${c.id} is nowhere (after ${lastType})`);
  // Points are exactly the destroyed (cost) and captured (double) cards credited to each side.
  for (const side of SIDES) {
    const credited = s.removed.filter((r) => r.by === side);
    const sum = credited.reduce((a, r) => a + r.points, 0);
    if (sum !== s.seats[side].score) throw new Error(`${side} score ${s.seats[side].score} but removed cards give ${sum}`);
    for (const r of credited) {
      const cost = idx.unit(s.cards[r.card]!.card).cost;
      if (r.points !== victoryPoints(cost, r.kind === 'captured' || r.kind === 'kept')) throw new Error(`${r.card} scored ${r.points} as ${r.kind}`);
    }
  }
  for (const r of s.removed) if (r.by === null && r.points !== 0) throw new Error('friendly fire scored points');
  // Endurance stays within bounds; outside combat it has recovered.
  for (const u of Object.values(s.inPlay)) {
    const card = idx.unit(s.cards[u.id]!.card);
    // A lethal hit is folded one event before the destruction it causes.
    if (u.endurance > card.endurance.full || (u.endurance <= 0 && lastType !== 'HitResolved'))
      throw new Error(`${u.id} endurance ${u.endurance} outside 1..${card.endurance.full}`);
    if (u.damageCard && u.endurance > card.endurance.half) throw new Error(`${u.id} carries a Damage card above half endurance`);
    if (s.phase !== 'combat' && s.phase !== 'over' && u.endurance !== (u.damageCard ? card.endurance.half : card.endurance.full)) {
      throw new Error(`${u.id} did not recover (endurance ${u.endurance}) in ${s.phase}`);
    }
    if ((card.type === 'aircraft') !== (u.line === 'air')) throw new Error(`${u.id} on the wrong line`);
    if (u.crew) {
      const crew = idx.unit(s.cards[u.crew]!.card);
      if (crew.crewKind !== card.crew) throw new Error(`${u.id} crewed by ${crew.title}`);
    }
  }
  // Hand limits hold once a side has finished drawing.
  for (const side of SIDES) {
    const x = s.seats[side];
    if ((s.phase === 'draw' && x.drawDone) || lastType === 'TurnBegan') {
      if (x.hand.length > HAND_LIMIT_UNITS || x.commands.length > HAND_LIMIT_COMMANDS)
        throw new Error(`${side} holds ${x.hand.length} units and ${x.commands.length} commands after drawing`);
    }
  }
}

/** Events that may show a seat's hand cards to the other seat: the reveal of a sealed order and what follows from it. */
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
/** Events that put a known card under a deck (its identity is public, the deck order is not). */
const UNDER_DECK = new Set(['AircraftReturned', 'UnitDestroyed', 'UnitDiscarded']);

/**
 * A seat's cards the other seat must not see: its hand and command cards (a sealed order only
 * names those and public units; order events and the order itself are checked separately).
 */
function secretsOf(s: State, side: Side): Set<string> {
  const x = s.seats[side];
  return new Set<string>([...x.hand, ...x.commands]);
}
const deckCards = (s: State) => new Set<string>([...s.seats.us.reserves, ...s.seats.de.reserves, ...s.commandDeck.draw, ...s.damageDeck.draw]);

export interface HiddenStats {
  checkedEvents: number;
  checkedViews: number;
  /** Broken invariants and hidden-information leaks found (kept apart so each test reports its own). */
  invariantProblems?: string[];
  hiddenProblems?: string[];
}

const record = (into: string[] | undefined, f: () => void) => {
  if (!into) return f();
  try {
    f();
  } catch (e) {
    if (into.length < 10) into.push((e as Error).message);
  }
};

/** Checks what `viewer` may see in one engine event (with the state before and after it). */
export function checkEventHidden(before: State, after: State, e: EventEnvelope, stats: HiddenStats): void {
  if (e.type.includes('.')) {
    if (e.type === 'Game.CommandAccepted') expect(e.visibility).toEqual({ to: 'seats', seats: [e.actor] });
    return;
  }
  if (/Shuffled$/.test(e.type)) expect(e.visibility).toEqual({ to: 'none' });
  for (const viewer of SIDES) {
    if (!canSee(e.visibility, { kind: 'seat', seat: viewer }, false)) continue;
    stats.checkedEvents++;
    const opp: Side = viewer === 'us' ? 'de' : 'us';
    const data = e.data as { seat?: string; order?: unknown };
    if (e.type === 'OrderStepAdded' || e.type === 'OrderCleared' || e.type === 'StartingUnitPicked' || e.type === 'CardDrawn') {
      if (data.seat !== viewer) throw new Error(`${viewer} sees ${opp}'s ${e.type}`);
    }
    if ('order' in (e.data as object)) throw new Error(`${viewer} sees a deck order in ${e.type}`);
    const tokens = strings(e.data);
    if (!REVEALS.has(e.type)) {
      for (const t of secretsOf(before, opp)) if (tokens.has(t)) throw new Error(`${viewer} sees ${opp}'s secret ${t} in ${e.type}`);
    }
    if (!UNDER_DECK.has(e.type) && !(e.type === 'CardDrawn' && data.seat === viewer)) {
      for (const t of deckCards(after)) if (tokens.has(t)) throw new Error(`${viewer} sees deck card ${t} in ${e.type}`);
    }
  }
}

export function checkViewsHidden(s: State, stats: HiddenStats): void {
  for (const viewer of SIDES) {
    const opp: Side = viewer === 'us' ? 'de' : 'us';
    const v = spearpointView(s, { kind: 'seat', seat: viewer });
    const tokens = strings(v);
    for (const t of secretsOf(s, opp)) if (tokens.has(t)) throw new Error(`${viewer}'s view shows ${opp}'s secret ${t} at ${pathsOf(v, t).join()}`);
    for (const t of deckCards(s)) if (tokens.has(t)) throw new Error(`${viewer}'s view shows deck card ${t} at ${pathsOf(v, t).join()}`);
    if ('commandDeckOrder' in v || 'damageDeckOrder' in v) throw new Error('a seat view carries a deck order');
    for (const side of SIDES) if ('reservesOrder' in (v.seats as Record<string, object>)[side]!) throw new Error('a seat view carries a Reserves order');
    if ((v.seats as Record<string, { order?: unknown; hand?: unknown }>)[opp]!.order !== undefined) throw new Error(`${viewer} sees ${opp}'s order`);
    stats.checkedViews++;
  }
  const sv = spearpointView(s, { kind: 'spectator' });
  const spectator = strings(sv);
  for (const side of SIDES) for (const t of secretsOf(s, side)) if (spectator.has(t)) throw new Error(`a spectator sees ${side}'s secret ${t}`);
  for (const t of deckCards(s)) if (spectator.has(t)) throw new Error(`a spectator sees deck card ${t}`);
  for (const side of SIDES) {
    const seatView = (sv.seats as Record<string, object>)[side]!;
    if ('order' in seatView || 'reservesOrder' in seatView) throw new Error(`a spectator sees ${side}'s order or Reserves order`);
  }
}

/**
 * After a whole command: a card a reveal named must have left its owner's hand by then (played,
 * committed, discarded), unless it came back publicly (a withdrawn unit). Catches a reveal naming
 * a card that then stays secret in the hand.
 */
export function checkRevealsSpent(after: State, batch: EventEnvelope[], publicInHand: ReadonlySet<string>): void {
  // A card may leave the hand and come back by a draw in the same batch (Resupply drawing from a reshuffled discard pile).
  const redrawn = new Set(batch.filter((e) => e.type === 'CardDrawn').map((e) => (e.data as { card: string }).card));
  for (const e of batch) {
    if (!REVEALS.has(e.type)) continue;
    const tokens = strings(e.data);
    for (const viewer of SIDES) {
      if (!canSee(e.visibility, { kind: 'seat', seat: viewer }, false)) continue;
      const opp: Side = viewer === 'us' ? 'de' : 'us';
      for (const t of secretsOf(after, opp))
        if (tokens.has(t) && !publicInHand.has(t) && !redrawn.has(t))
          throw new Error(`${e.type} shows ${viewer} ${opp}'s card ${t}, which stays in ${opp}'s hand`);
    }
  }
}

/** One game through the kernel's own decide/chain/fold, with every check after every event. */
export class CheckedGame {
  events: EventEnvelope[] = [];
  state: GameState<State> | undefined;
  private n = 0;
  readonly titlesPlayed = new Set<string>();
  /** Cards back in a hand after being shown to everyone (withdrawn units and their crews). */
  private readonly publicInHand = new Set<string>();
  constructor(
    readonly seed: string,
    readonly gameId: string,
    readonly stats: HiddenStats,
    readonly checks = true,
  ) {}

  private append(r: Result<NewEvent[], RuleViolation>, player: string | null): void {
    if (!r.ok) throw new Error(`refused: ${JSON.stringify(r.error)}`);
    const head = this.state ? { version: this.state.meta.version, hash: this.state.meta.hash } : { version: 0, hash: '0'.repeat(64) };
    const env = chain(head, r.value, { gameId: this.gameId, commandId: `c${++this.n}`, at: '2026-01-01T00:00:00.000Z', player });
    for (const e of env) {
      if (e.type === 'UnitWithdrawn')
        for (const c of [(e.data as { unit: string }).unit, (e.data as { crew: string | null }).crew]) if (c) this.publicInHand.add(c);
      const before = this.state;
      this.state = foldEvent(spearpoint, this.state, e) as GameState<State>;
      this.events.push(e);
      if (e.type === 'CommandCardPlayed') this.titlesPlayed.add(indexCatalog(this.state.game.catalog).command((e.data as { card: string }).card).title);
      if (this.checks && before && !e.type.includes('.')) {
        const after = this.state.game;
        record(this.stats.invariantProblems, () => checkInvariants(after, e.type));
        record(this.stats.hiddenProblems, () => checkEventHidden(before.game, after, e, this.stats));
      }
    }
    const now = this.state;
    if (this.checks && now && now.meta.status === 'active') {
      record(this.stats.hiddenProblems, () => checkViewsHidden(now.game, this.stats));
      record(this.stats.hiddenProblems, () => checkRevealsSpent(now.game, env, this.publicInHand));
    }
  }
  start(options: unknown): void {
    this.append(decideCreate(spearpoint, { gameId: this.gameId, options, createdBy: 'alice', commitment: seedCommitment(this.seed) }), 'alice');
    this.append(decideJoin(spearpoint, this.state!, { player: 'alice', seat: 'us', entropy: 'a' }, this.seed), 'alice');
    this.append(decideJoin(spearpoint, this.state!, { player: 'bob', seat: 'de', entropy: 'b' }, this.seed), 'bob');
  }
  play(seat: Side, command: unknown, draft?: unknown[]): void {
    this.append(
      decidePlay(spearpoint, this.state!, { player: PLAYERS[seat], command, now: '2026-01-01T00:00:00.000Z', ...(draft ? { draft } : {}) }, this.seed),
      PLAYERS[seat],
    );
  }
}

/**
 * Plays random legal commands for the pending seats until the game ends; throws on a stall.
 * With `drafts`, order steps are drafted in private (kernel/draft.ts) and sent whole with the
 * seal, as the terminal client does; legal commands then come from the draft's scratch state.
 */
export function playRandom(
  game: CheckedGame,
  chooserSeed: string,
  maxCommands = 5000,
  opts: { drafts?: boolean; probe?: (s: State, seat: Side, legal: readonly Command[], pick: Rng) => void } = {},
): number {
  const pick = seededRng({ seed: chooserSeed, gameId: game.gameId, entropy: [], counter: 0 });
  const drafts: Record<Side, Command[]> = { us: [], de: [] };
  let commands = 0;
  while (game.state!.meta.status === 'active') {
    const pending = spearpoint.pending(game.state!.game);
    if (pending.length === 0) throw new Error(`stalled: nobody to act in ${game.state!.game.phase} with no outcome (game ${game.gameId})`);
    const seat = pending[pick.int(pending.length)]!.seat as Side;
    let s = game.state!.game;
    if (drafts[seat].length) {
      const d = decideDraft(spearpoint, game.state!, { player: PLAYERS[seat], steps: drafts[seat], now: '' });
      if (!d.ok) throw new Error(`draft ${JSON.stringify(drafts[seat])} refused: ${d.error.message} (game ${game.gameId})`);
      s = d.value.game as State;
    }
    const legal = spearpoint.legalCommands(s, seat);
    if (legal.length === 0) throw new Error(`stalled: ${seat} is pending in ${s.phase} but has no legal command (game ${game.gameId})`);
    if (commands % 25 === 0) {
      // legalCommands is the source of truth: every command it offers must be accepted.
      const dry = seededRng({ seed: chooserSeed, gameId: `dry-${commands}`, entropy: [], counter: 0 });
      for (const c of legal) {
        const r = spearpoint.decide(s, c, seat, { rng: dry, now: '' });
        if (!r.ok) throw new Error(`legal command ${JSON.stringify(c)} refused: ${r.error.message} (game ${game.gameId})`);
      }
      opts.probe?.(s, seat, legal, pick);
    }
    const chosen = legal[pick.int(legal.length)]!;
    if (opts.drafts && spearpoint.drafts!.isStep(chosen)) drafts[seat].push(chosen);
    else if (opts.drafts && drafts[seat].length && spearpoint.drafts!.seal(chosen, []) !== undefined) {
      game.play(seat, chosen, drafts[seat]);
      drafts[seat] = [];
    } else game.play(seat, chosen);
    if (++commands > maxCommands) throw new Error(`game ${game.gameId} did not end in ${maxCommands} commands`);
  }
  return commands;
}

export function pathsOf(x: unknown, token: string, path = ''): string[] {
  if (x === token) return [path];
  if (Array.isArray(x)) return x.flatMap((v, i) => pathsOf(v, token, `${path}[${i}]`));
  if (x && typeof x === 'object') return Object.entries(x).flatMap(([k, v]) => pathsOf(v, token, `${path}.${k}`));
  return [];
}
