import { other, SEATS, type Seat, type State } from './model.js';
import { isLeader, troopsIn } from './rules.js';

/**
 * The victory check at the End of Game Turn (004 End of Game Turn; Scenario Cards, Victory
 * Conditions; Creating Your Own Scenarios, Set Victory Conditions). Before the last turn only an
 * exit already made or a side with no troop unit left on the map or to come ends the game
 * (ruling: a game cannot go on without one side's troops); at the end of the last turn the
 * scenario's condition always gives a result.
 */
export function victory(s: State): { winners: Seat[]; reason: string } | undefined {
  const v = s.scenario.victory;
  const name = (seat: Seat) => s.scenario.sides[seat].name;
  if (v.kind === 'exit' && s.exited[v.side] >= v.count) return { winners: [v.side], reason: `${name(v.side)} exited ${s.exited[v.side]} unit(s) off the map` };
  const left = SEATS.filter((seat) => s.units.some((u) => u.owner === seat && !isLeader(s, u) && (u.status === 'map' || u.status === 'waiting')));
  if (left.length === 0) return { winners: [], reason: 'neither side has a troop unit left: a draw' };
  if (left.length === 1) return { winners: [left[0]!], reason: `${name(other(left[0]!))} has no troop unit left` };
  if (s.turn < s.scenario.turns) return undefined;
  switch (v.kind) {
    case 'exit':
      return { winners: [other(v.side)], reason: `${name(v.side)} did not exit ${v.count} unit(s) by the end of turn ${s.scenario.turns}` };
    case 'hold': {
      const held = heldHexes(s, v.side, v.hexes);
      return held.length >= v.count
        ? { winners: [v.side], reason: `${name(v.side)} holds ${held.join(', ')} at the end of turn ${s.turn}` }
        : { winners: [other(v.side)], reason: `${name(v.side)} holds ${held.length} of the ${v.count} objective hex(es) needed` };
    }
    case 'steps': {
      const [a, b] = [s.stepsLost.axis, s.stepsLost.allies];
      const tally = `${name('allies')} eliminated ${a} steps, ${name('axis')} ${b}`;
      if (a === b) return { winners: [], reason: `${tally}: a draw` };
      return { winners: [a > b ? 'allies' : 'axis'], reason: tally };
    }
  }
}

/** Objective hexes a side holds: its troop unit there and no enemy one. */
export const heldHexes = (s: State, seat: Seat, hexes: readonly string[]): string[] =>
  hexes.filter((h) => troopsIn(s, h, seat).length > 0 && troopsIn(s, h, other(seat)).length === 0);
