import { tieBreakSide } from './data/cards.js';
import { accuracyOf } from './data/tables.js';
import { airDrift, airEntryHexes, allHexes, distance, driftCandidates, leftOrRight, onMap } from './hexmap.js';
import type { Mission, Seat, State, StrikeSource, UnitState } from './model.js';
import type { Out } from './out.js';
import { edgeOf, fireCards, hitsOn, isCarried, seenBy, sightOf, strikeValues, typeOf, unitById, unitsIn } from './rules.js';

/**
 * The Indirect Fire Phase (004): on-map units with red attack values, one off-map Artillery or
 * Naval mission and one Air Support mission; accuracy and drift by the Indirect Fire Table;
 * then every unit in the hex the marker ends in is attacked with its own cards.
 */

/** On-map units of `seat` that may fire indirectly now: red values, not Suppressed, not yet fired, not carried. */
export const indirectUnits = (s: State, seat: Seat): UnitState[] =>
  s.units.filter((u) => u.owner === seat && u.status === 'map' && typeOf(s, u).indirect && !u.suppressed && !u.firedIndirect && !isCarried(s, u));

/** Missions a seat may still call this phase: unused, of the kind, none of that kind called yet, and not held back by the card until a later turn. */
export const openMissions = (s: State, seat: Seat, air: boolean): Mission[] =>
  s.missions[seat].filter((m) => !m.used && (m.kind === 'air') === air && !(air ? s.airUsed : s.offMapUsed) && s.turn >= (m.fromTurn ?? 1));

/** Whether `seat` has anything left to do in its Indirect Fire Phase (when not, the phase passes by itself). */
export function indirectOptions(s: State, seat: Seat): boolean {
  const spotters = s.units.some((u) => u.owner === seat && u.status === 'map');
  if (!spotters) return false;
  if (openMissions(s, seat, false).length || openMissions(s, seat, true).length) return true;
  return indirectUnits(s, seat).length > 0;
}

/** Hexes some unit of `seat` sees: where its markers may be placed. */
export function seenHexes(s: State, seat: Seat): string[] {
  const sight = sightOf(s);
  return allHexes(s.map).filter((h) => seenBy(s, seat, h, sight));
}

export function indirectFireProblem(s: State, seat: Seat, unitId: string, hex: string): string | undefined {
  const u = unitById(s, unitId);
  if (!u || u.owner !== seat || !indirectUnits(s, seat).some((x) => x.id === u.id)) return `${unitId} is not one of your units able to fire indirectly now`;
  if (!onMap(s.map, hex)) return `${hex} is not a hex on this map`;
  if (distance(u.hex!, hex) > typeOf(s, u).range) return `${hex} is beyond ${typeOf(s, u).name}'s range of ${typeOf(s, u).range}`;
  if (!seenBy(s, seat, hex)) return `none of your units has a line of sight to ${hex}`;
  return undefined;
}

export function missionProblem(s: State, seat: Seat, missionId: string, hex: string, air: boolean, entry?: string): string | undefined {
  const m = s.missions[seat].find((x) => x.id === missionId);
  if (!m || (m.kind === 'air') !== air) return `${missionId} is not one of your ${air ? 'Air Support' : 'Artillery or Naval'} missions`;
  if (m.used) return `${m.name} has been used`;
  if (s.turn < (m.fromTurn ?? 1)) return `${m.name} is not available before game turn ${m.fromTurn} (the scenario's special rule)`;
  if (air ? s.airUsed : s.offMapUsed) return `only one ${air ? 'Air Support' : 'off-map Artillery or Naval'} mission per Indirect Fire Phase`;
  if (!onMap(s.map, hex)) return `${hex} is not a hex on this map`;
  if (!seenBy(s, seat, hex)) return `none of your units has a line of sight to ${hex}`;
  if (air && (entry === undefined || !airEntryHexes(s.map, hex).includes(entry)))
    return `the entry hex must be a map-edge hex in a straight row of hexes from ${hex}`;
  return undefined;
}

/** Places the marker, draws for accuracy (none on a registered hex), drifts it, and attacks every unit where it lands. */
export function strike(out: Out, seat: Seat, source: StrikeSource, hex: string, entry?: string): void {
  const registered = source.kind === 'artillery' && out.s.registration && out.s.registered[seat].includes(hex);
  out.emit({ type: 'StrikeDeclared', seat, source, hex, ...(entry !== undefined ? { entry } : {}), registered });
  let at: string | undefined = hex;
  if (!registered) {
    const [card] = out.draw(1, 'accuracy');
    const acc = accuracyOf(out.s.tables, source.kind === 'air' ? 'air' : 'artillery', card!);
    if (acc.kind !== 'hit') {
      at = source.kind === 'air' ? airDrift(out.s.map, hex, entry!, acc.kind, acc.hexes) : artilleryDrift(out, seat, hex, acc.kind, acc.hexes);
      out.emit({ type: 'MarkerDrifted', from: hex, to: at ?? null });
    }
  }
  if (at === undefined) return;
  const values = strikeValues(out.s, at, source.hard, source.soft);
  const shooter = source.unit !== undefined ? unitById(out.s, source.unit) : undefined;
  const perUnit = shooter ? fireCards(out.s, shooter) : source.kind === 'air' ? 2 : 3;
  for (const target of unitsIn(out.s, at).sort((a, b) => (a.id < b.id ? -1 : 1))) {
    const now = unitById(out.s, target.id)!;
    if (now.status !== 'map') continue;
    const cards = out.draw(perUnit, `attack on ${target.id}`);
    for (const e of hitsOn(out.s, now, cards, values.hard, values.soft, source.kind)) out.emit(e);
  }
}

/** Short toward the firer's own edge, Over toward the opponent's; two hexes equally near: a card, black left, red right. */
function artilleryDrift(out: Out, seat: Seat, hex: string, kind: 'short' | 'over', n: number): string | undefined {
  const own = edgeOf(out.s, seat);
  const far = own === 'west' ? 'east' : 'west';
  const options = driftCandidates(out.s.map, hex, n, kind === 'short' ? own : far);
  if (options.length <= 1) return options[0];
  const [card] = out.draw(1, 'drift tie-break');
  return leftOrRight(options, far, tieBreakSide(card!));
}
