import type { Rng } from '../../domain/kernel/index.js';
import { MemoryGame } from '../kernel/play.js';
import { spearpointMap } from '../../domain/spearpoint-map/index.js';
import type { Command, State } from '../../domain/spearpoint-map/model.js';

export const engine = spearpointMap;
export const SEED = 'a7'.repeat(32);

/** A game through the kernel (create, join, play), as the service runs it. */
export function newGame(options: Record<string, unknown>, id = 'g1'): MemoryGame {
  const g = new MemoryGame(engine, SEED, id);
  const r = g.create(options);
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  g.join('alice', 'us');
  g.join('bob', 'de');
  return g;
}
export const stateOf = (g: MemoryGame): State => g.state!.game as State;
export const playerOf = (seat: string) => (seat === 'us' ? 'alice' : 'bob');

/** Plays random legal commands to the end (or `limit` commands); returns the number played. */
export function playRandom(
  g: MemoryGame,
  pick: Rng,
  limit = 4000,
  each?: (g: MemoryGame, seat: string, legal: readonly Command[]) => void,
  /** Narrows the listed commands to choose from (so rare plays are reached); an empty answer leaves them all. */
  narrow?: (legal: readonly Command[], s: State, seat: string) => readonly Command[],
): number {
  for (let n = 0; n < limit; n++) {
    const s = stateOf(g);
    if (s.result) return n;
    const seats = ['us', 'de'].filter((x) => engine.legalCommands(s, x).length > 0);
    if (seats.length === 0) throw new Error(`no legal command in turn ${s.turn} ${s.phase}, active ${s.active}`);
    const seat = seats[0]!;
    const legal = engine.legalCommands(s, seat);
    each?.(g, seat, legal);
    // Prefer progress: Done a little less often than other moves, so games see combat.
    const narrowed = narrow?.(legal, s, seat) ?? [];
    const choice = narrowed.length ? narrowed : legal;
    const nonDone = choice.filter((c) => c.type !== 'Done');
    const c = nonDone.length && pick.int(4) > 0 ? nonDone[pick.int(nonDone.length)]! : choice[pick.int(choice.length)]!;
    const r = g.play(playerOf(seat), c);
    if (!r.ok) throw new Error(`listed ${JSON.stringify(c)} refused: ${JSON.stringify(r.error)}`);
  }
  return limit;
}
