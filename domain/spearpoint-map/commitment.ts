import { ok } from '../kernel/result.js';
import type { Side } from '../frontline-general/data/schema.js';
import { colOf, isFlightPath, isSpace, neighbours, onEdge, SPACES } from './map.js';
import { cardEntry, other, unitIn, type Command, type State } from './model.js';
import { firstWeapons } from './movement.js';
import { no, Out, type Decision } from './out.js';
import { cardOf, occupyProblem, onMap, RULE, sideUnitsAt, STACK_LIMIT } from './rules.js';

/**
 * 003 §III Commitment: units from hand enter front-line entry spaces (a front-line gun up to one
 * space beyond), the rear line, or a flight path; a crewed unit comes with its crew; a crew alone
 * only to re-crew a crewless unit in play, walking in from an entry space. Scenario limits:
 * first turn of commitment, no rear line, aircraft turns, weather, no vehicles.
 */

/** Entry spaces for this side's new front-line units now (What Now, Sarge?: the US from turn 3). */
export function entrySpaces(s: State, seat: Side): readonly string[] {
  if (seat === 'us' && s.scenario.id === 'what-now-sarge') return s.turn >= 3 ? s.usEntry : [];
  return s.scenario.entry[seat];
}

/** Where a unit from hand may be committed now (spaces, 'rear', flight paths), for one crew choice. */
export function commitPlaces(s: State, seat: Side, unit: string): string[] {
  const card = cardOf(s, unit);
  if (s.turn < s.scenario.firstCommitTurn[seat]) return [];
  if (card.type === 'aircraft') {
    if (s.scenario.weather && !s.weatherClear) return [];
    if ((s.scenario.noAircraftBefore?.[seat] ?? 0) > s.turn) return [];
    return [...(s.scenario.rearLine ? ['rear-line'] : []), 'row-A', 'row-B', 'row-C', ...Array.from({ length: 9 }, (_, i) => `col-${i + 1}`)];
  }
  if ((card.type === 'tank' || card.type === 'vehicle') && s.scenario.noVehicleCommit) return [];
  const places: string[] = [];
  if ((card.line === 'rear' || card.line === 'either') && s.scenario.rearLine) places.push('rear');
  if (card.line === 'front' || card.line === 'either') {
    const entry = entrySpaces(s, seat);
    const spaces = new Set(entry);
    if (card.type === 'gun') for (const e of entry) for (const n of neighbours(e)) spaces.add(n);
    for (const sp of spaces) if (sideUnitsAt(s, sp, seat).length < STACK_LIMIT && !occupyProblemCard(s, unit, sp)) places.push(sp);
  }
  return places;
}
const occupyProblemCard = (s: State, unit: string, sp: string): string | null => {
  // occupyProblem reads the unit as if it stood there; a card in hand has no position yet.
  const probe: State = { ...s, units: { ...s.units, [unit]: { ...fakeUnit(s, unit), at: sp } } };
  return occupyProblem(probe, unit, sp);
};
const fakeUnit = (s: State, unit: string) => ({
  id: unit,
  card: cardEntry(s, unit)!.card,
  owner: cardEntry(s, unit)!.owner,
  side: cardEntry(s, unit)!.owner,
  at: 'hand',
  crew: null,
  endurance: 1,
  damageCard: null,
  shakenUntil: 0,
  accuracyLoss: 0,
  defenseLoss: 0,
  weaponsLost: [],
  immobilized: false,
  bombsUsed: [],
  turnsLeft: null,
  path: null,
  enteredTurn: 0,
  movedTurn: 0,
  attached: [],
  convoy: false,
});

/** Crew cards in hand that can crew this unit. */
export const crewsFor = (s: State, seat: Side, unit: string): string[] => {
  const need = cardOf(s, unit).crew;
  if (need === 'none') return [];
  return s.seats[seat].hand.filter((c) => c !== unit && cardOf(s, c).type === 'crew' && cardOf(s, c).crewKind === need);
};

/** A replacement crew alone: only while a crewless unit of its kind is in play (003 Commitment 2). */
const crewAloneAllowed = (s: State, seat: Side, crew: string): boolean =>
  Object.values(s.units).some((u) => u.side === seat && u.crew === null && !u.convoy && cardOf(s, u.id).crew === cardOf(s, crew).crewKind);

export function decideCommit(s: State, seat: Side, c: Extract<Command, { type: 'Commit' }>): Decision {
  const me = s.seats[seat];
  if (!me.hand.includes(c.unit)) return no('commit/not-in-hand', `${c.unit} is not in your hand`, RULE.commit);
  const card = cardOf(s, c.unit);
  if (card.type === 'crew') {
    if (c.crew !== undefined) return no('commit/crew-with-crew', 'A crew is committed alone', RULE.commit);
    if (!crewAloneAllowed(s, seat, c.unit)) return no('commit/crew-alone', 'A crew alone only replaces the crew of a crewless unit in play', RULE.commit);
    const places = entrySpaces(s, seat).filter((sp) => sideUnitsAt(s, sp, seat).length < STACK_LIMIT);
    if (s.turn < s.scenario.firstCommitTurn[seat] || !places.includes(c.at))
      return no('commit/bad-place', `A replacement crew enters at an entry space with room`, RULE.commit);
    const out = new Out(s);
    out.emit({ type: 'UnitCommitted', seat, unit: c.unit, card: cardEntry(s, c.unit)!.card, crew: null, crewCard: null, at: c.at });
    entryFire(out, seat, c.unit, c.at);
    return ok(out.list);
  }
  if (card.crew !== 'none') {
    if (c.crew === undefined || !crewsFor(s, seat, c.unit).includes(c.crew))
      return no('commit/needs-crew', `${card.title} needs a ${card.crew} crew from your hand`, RULE.commit);
  } else if (c.crew !== undefined) return no('commit/no-crew-needed', `${card.title} needs no crew`, RULE.commit);
  if (!commitPlaces(s, seat, c.unit).includes(c.at)) return no('commit/bad-place', `${card.title} may not be committed to ${c.at} now`, RULE.commit);
  const out = new Out(s);
  out.emit({ type: 'UnitCommitted', seat, unit: c.unit, card: cardEntry(s, c.unit)!.card, crew: c.crew ?? null, crewCard: c.crew ?? null, at: c.at });
  entryFire(out, seat, c.unit, c.at);
  return ok(out.list);
}

/** 003 Commitment 5: a unit committed at an enemy-occupied entry point draws opportunity fire from the occupants. */
export function entryFire(out: Out, seat: Side, unit: string, at: string): void {
  if (!isSpace(at)) return;
  const enemy = other(seat);
  const shooters = sideUnitsAt(out.s, at, enemy)
    .filter((u) => !out.s.opfired.includes(`${u.id}>${unit}`) && firstWeapons(out.s, enemy, u.id, unit).length > 0)
    .map((u) => u.id);
  if (shooters.length) out.emit({ type: 'OpportunityFireOffered', window: `opfire-${out.s.opfireSeq + 1}`, seat: enemy, mover: unit, shooters });
}

export function decideFly(s: State, seat: Side, c: Extract<Command, { type: 'Fly' }>): Decision {
  const u = unitIn(s, c.unit);
  if (!u || u.side !== seat || u.at !== 'air') return no('commit/not-your-aircraft', `${c.unit} is not one of your aircraft in play`, RULE.commit);
  if (u.path !== null) return no('commit/path-declared', 'The flight path cannot be changed once declared this turn', '003 §III Commitment 3');
  if (!isFlightPath(c.path) || (c.path === 'rear-line' && !s.scenario.rearLine))
    return no('commit/bad-path', `${c.path} is not a flight path (row-A..C, col-1..9, rear-line)`, '003 §III Commitment 3');
  const forced = stukaPath(s, c.unit);
  if (forced && !forced.includes(c.path))
    return no('commit/stuka-path', 'The Stuka flies over the Command Post (row A or column 5)', "003 §IV Gunter's Return");
  const out = new Out(s);
  out.emit({ type: 'FlightPathDeclared', unit: c.unit, path: c.path });
  return ok(out.list);
}

/** Gunter's Return: the turn-6 Stuka must bomb the Command Post, so its path crosses it. */
export function stukaPath(s: State, unit: string): string[] | null {
  const u = unitIn(s, unit)!;
  const v = s.scenario.victory;
  if (v.kind !== 'command-post' || u.card !== 'de-ju87-stuka' || u.enteredTurn !== s.turn) return null;
  return [`row-${v.space[0]}`, `col-${v.space.slice(1)}`];
}

export function decideWithdrawAircraft(s: State, seat: Side, c: Extract<Command, { type: 'WithdrawAircraft' }>): Decision {
  const u = unitIn(s, c.unit);
  if (!u || u.side !== seat || u.at !== 'air') return no('commit/not-your-aircraft', `${c.unit} is not one of your aircraft in play`, '003 §III Commitment 6');
  const out = new Out(s);
  out.emit({ type: 'AircraftReturned', unit: c.unit, reason: 'withdrawn' });
  return ok(out.list);
}

export function decideRecrew(s: State, seat: Side, c: Extract<Command, { type: 'Recrew' }>): Decision {
  const crew = unitIn(s, c.crew);
  const unit = unitIn(s, c.unit);
  if (!crew || !unit || crew.side !== seat || unit.side !== seat || !onMap(crew) || crew.at !== unit.at || cardOf(s, c.crew).type !== 'crew')
    return no('commit/recrew', 'A crew on the map may take over a crewless unit in its own space', RULE.commit);
  if (unit.crew !== null || unit.convoy || cardOf(s, c.unit).crew !== cardOf(s, c.crew).crewKind)
    return no('commit/recrew', 'That unit has a crew, or needs another kind', RULE.commit);
  const out = new Out(s);
  out.emit({ type: 'CrewBoarded', crew: c.crew, unit: c.unit });
  return ok(out.list);
}

/** What Now, Sarge?: at least two front-line US units enter the village on turn 3, while the hand allows (003 §IV). */
export function mustEnterMore(s: State, seat: Side): boolean {
  if (s.scenario.id !== 'what-now-sarge' || seat !== 'us' || s.turn !== 3) return false;
  const entered = Object.values(s.units).filter((u) => u.side === 'us' && u.enteredTurn === 3 && isSpace(u.at) && cardOf(s, u.id).type !== 'crew').length;
  if (entered >= 2) return false;
  return s.seats.us.hand.some((c) => {
    const card = cardOf(s, c);
    return card.type !== 'crew' && (card.crew === 'none' || crewsFor(s, 'us', c).length > 0) && commitPlaces(s, 'us', c).some(isSpace);
  });
}

/**
 * What Now, Sarge?: the US may move one of its two Reserves Entry Points once a game "at the
 * beginning of any Turn" (003 §IV). Ruling: in its part of the Movement phase (the turn's first
 * phase), from turn 4, after the points are established on turn 3; the new point lies on a map
 * edge, at least 2 columns from the German zone, and is not the other point.
 */
function entryChangeProblem(s: State, seat: Side, from: string, to: string): string | null {
  if (s.scenario.id !== 'what-now-sarge' || seat !== 'us') return 'Only the US in What Now, Sarge? moves an entry point';
  if (s.entryChanged) return 'The entry point has been changed once already';
  if (s.turn < 4) return 'Entry points are established on turn 3 and changed from turn 4';
  if (!s.usEntry.includes(from)) return `${from} is not one of your entry points`;
  const zone = s.options.germanColumn - 1;
  if (!isSpace(to) || !onEdge(to) || Math.abs(colOf(to) - zone) < 2 || s.usEntry.includes(to))
    return 'The new entry point lies on a map edge, at least 2 columns from the German zone';
  return null;
}

export function decideChangeEntry(s: State, seat: Side, c: Extract<Command, { type: 'ChangeEntryPoint' }>): Decision {
  const p = entryChangeProblem(s, seat, c.from, c.to);
  if (p) return no('commit/entry-change', p, '003 §IV What Now, Sarge?');
  const out = new Out(s);
  out.emit({ type: 'EntryPointChanged', from: c.from, to: c.to });
  return ok(out.list);
}

export const entryChanges = (s: State, seat: Side): Command[] =>
  s.usEntry.flatMap((from) =>
    SPACES.filter((to) => entryChangeProblem(s, seat, from, to) === null).map((to): Command => ({ type: 'ChangeEntryPoint', from, to })),
  );
