import { FULL_DECK } from './data/cards.js';
import type { Ctx } from '../kernel/engine.js';
import { HIDDEN } from '../kernel/visibility.js';
import { distance, onMap, withinOfEdge } from './hexmap.js';
import { other, type Placement, type Seat, type State, type UnitState } from './model.js';
import type { Out } from './out.js';
import { assaultCards, assaultHexes, assaultUnit, assaultWinner, edgeOf, entry, isLeader, lonelyLeaders, redCount, troopsIn } from './rules.js';
import { indirectOptions } from './strike.js';
import { victory } from './victory.js';

/**
 * The sequence of play (004 The Sequence Of Play): set-up, then each game turn the first
 * player's turn (Indirect Fire, Action, Assault, Marker), the second player's, and the End of
 * Game Turn (victory, reinforcements, reshuffle). Steps with nothing to decide run by themselves.
 */

/** The units a seat places now: on a scenario card those due by `turn`, in the builder its pool. */
export const toPlace = (s: State, seat: Seat, turn: number): UnitState[] =>
  s.units.filter((u) => u.owner === seat && u.status === 'waiting' && (s.builder ? u.entry === 0 : u.entry <= turn));

/** How many units a seat must and may place (004 Setting Up; Creating Your Own Scenarios, Set Up). */
export function quota(s: State, seat: Seat, kind: Placement['kind'], turn: number): { min: number; max: number } {
  const n = toPlace(s, seat, turn).length;
  const b = s.builder;
  if (!b) return { min: n, max: n };
  if (kind === 'reinforce') return { min: Math.min(1, n), max: Math.min(5, n) };
  if (b.type === 'point-defense') return seat === b.defender ? { min: n, max: n } : { min: Math.min(1, n), max: Math.min(5, n) };
  return { min: Math.min(5, n), max: Math.min(5, n) };
}

/** Where a seat may place a unit now: its set-up zone, or for reinforcements the card's entry hexes (else its own map edge). */
export function inZone(s: State, seat: Seat, kind: Placement['kind'], hex: string): boolean {
  if (!onMap(s.map, hex)) return false;
  if (kind === 'setup') return withinOfEdge(s.map, hex, edgeOf(s, seat), setupColumns(s, seat));
  const at = s.scenario.sides[seat].entryHexes;
  return at ? at.includes(hex) : withinOfEdge(s.map, hex, edgeOf(s, seat), 1);
}

function setupColumns(s: State, seat: Seat): number {
  const b = s.builder;
  // Point Defense: the defender anywhere farther than four hexes from the attacker's edge; otherwise within three of one's own (ruling for the attacker).
  if (b?.type === 'point-defense' && seat === b.defender) return s.map.cols - 4;
  if (b) return 3;
  return s.scenario.sides[seat].setupColumns;
}

/** Whether `unit` may be placed in `hex` now: in the zone, and stacking allows it (no enemy there). */
export function placeable(s: State, u: UnitState, hex: string): boolean {
  const p = s.placement;
  return p !== null && inZone(s, u.owner, p.kind, hex) && entry(s, u, hex) === 'pass';
}

export const anyPlaceable = (s: State): boolean => {
  const p = s.placement;
  if (!p || p.placed >= p.max) return false;
  const hexes = s.units.length ? allZone(s, p) : [];
  return toPlace(s, p.seat, placementTurn(s)).some((u) => hexes.some((h) => placeable(s, u, h)));
};

export const allZone = (s: State, p: Placement): string[] => {
  const out: string[] = [];
  for (let col = 1; col <= s.map.cols; col++)
    for (let row = 1; row <= s.map.rows; row++) {
      const h = `${String(col).padStart(2, '0')}${String(row).padStart(2, '0')}`;
      if (inZone(s, p.seat, p.kind, h)) out.push(h);
    }
  return out;
};

/** The turn whose units are being placed: turn 1 at set-up, the coming turn for reinforcements. */
export const placementTurn = (s: State): number => (s.placement?.kind === 'reinforce' ? s.turn + 1 : 1);

/** Set-up: each seat in the scenario's order, then the first player turn. */
export function beginSetup(out: Out, ctx: Pick<Ctx, 'rng'>): void {
  nextPlacement(out, ctx, 'setup', [out.s.scenario.setsUpFirst, other(out.s.scenario.setsUpFirst)]);
}

function nextPlacement(out: Out, ctx: Pick<Ctx, 'rng'>, kind: Placement['kind'], order: readonly Seat[]): void {
  const turn = kind === 'setup' ? 1 : out.s.turn + 1;
  for (const seat of order) {
    const q = quota(out.s, seat, kind, turn);
    if (q.max === 0) continue;
    out.emit({ type: 'PlacementBegan', placement: { seat, kind, min: q.min, max: q.max, placed: 0 } });
    if (anyPlaceable(out.s)) return;
  }
  beginPlayerTurn(out, ctx, out.s.scenario.movesFirst, turn);
}

/** After a unit is placed or EndPlacement: the next seat, or play, once this seat is done. */
export function afterPlacement(out: Out, ctx: Pick<Ctx, 'rng'>, ended: boolean): void {
  const p = out.s.placement!;
  if (!ended && p.placed < p.max && anyPlaceable(out.s)) return;
  const order =
    p.kind === 'setup' ? [out.s.scenario.setsUpFirst, other(out.s.scenario.setsUpFirst)] : [out.s.scenario.movesFirst, other(out.s.scenario.movesFirst)];
  nextPlacement(out, ctx, p.kind, order.slice(order.indexOf(p.seat) + 1));
}

export function beginPlayerTurn(out: Out, ctx: Pick<Ctx, 'rng'>, seat: Seat, turn: number): void {
  out.emit({ type: 'PlayerTurnBegan', seat, turn });
  if (!indirectOptions(out.s, seat)) beginActionPhase(out);
}

/** A unit that starts the Action Phase with or next to a friendly Leader may take two actions (004 Leaders). */
export function beginActionPhase(out: Out): void {
  const s = out.s;
  const seat = s.active;
  const leaders = s.units.filter((u) => u.owner === seat && u.status === 'map' && isLeader(s, u));
  const two = s.units
    .filter((u) => u.owner === seat && u.status === 'map' && !isLeader(s, u))
    .filter((u) => leaders.some((l) => distance(l.hex!, u.hex!) <= 1))
    .map((u) => u.id);
  out.emit({ type: 'ActionPhaseBegan', seat, twoActions: two });
}

/** Leaders alone with an enemy troop unit are removed at once. */
export function removeLonelyLeaders(out: Out): void {
  for (const l of lonelyLeaders(out.s)) out.emit({ type: 'UnitEliminated', unit: l.id, cause: 'leader alone with the enemy' });
}

/** Assault Phase, Marker Phase, then the other player's turn or the End of Game Turn. */
export function endActionPhase(out: Out, ctx: Pick<Ctx, 'rng'>): void {
  const seat = out.s.active;
  for (const hex of assaultHexes(out.s, seat)) assault(out, seat, hex);
  out.emit({ type: 'MarkerPhaseDone', seat });
  if (seat === out.s.scenario.movesFirst) beginPlayerTurn(out, ctx, other(seat), out.s.turn);
  else endGameTurn(out, ctx);
}

/** One Assault (004 Resolving Assaults): both draw, more red cards wins, the loser (with what it carries) is eliminated. */
function assault(out: Out, phasing: Seat, hex: string): void {
  const mine = assaultUnit(out.s, hex, phasing);
  const theirs = assaultUnit(out.s, hex, other(phasing));
  const reds = { allies: 0, axis: 0 } as Record<Seat, number>;
  for (const u of [mine, theirs]) reds[u.owner] = redCount(out.draw(assaultCards(out.s, u), `assault: ${u.id}`));
  const winner = assaultWinner(phasing, reds);
  out.emit({ type: 'AssaultResolved', hex, attacker: mine.id, defender: theirs.id, reds, winner });
  for (const u of troopsIn(out.s, hex, other(winner))) out.emit({ type: 'UnitEliminated', unit: u.id, cause: 'lost an assault' });
  removeLonelyLeaders(out);
}

/** End of Game Turn (004): victory check, then the turn marker advances, reinforcements arrive, and the deck is reshuffled whole. */
function endGameTurn(out: Out, ctx: Pick<Ctx, 'rng'>): void {
  out.emit({ type: 'GameTurnEnded', turn: out.s.turn });
  const won = victory(out.s);
  if (won) {
    out.emit({ type: 'GameDecided', winners: won.winners, reason: won.reason });
    return;
  }
  out.emit({ type: 'DeckShuffled', order: ctx.rng.shuffle(FULL_DECK) }, HIDDEN);
  nextPlacement(out, ctx, 'reinforce', [out.s.scenario.movesFirst, other(out.s.scenario.movesFirst)]);
}
