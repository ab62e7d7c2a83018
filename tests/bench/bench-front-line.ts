import { seededRng } from '../../domain/kernel/index.js';
import { frontLine } from '../../domain/front-line/engine.js';
import { optionsSchema, type State } from '../../domain/front-line/model.js';

/**
 * Front Line: decide time per command (002 engine), over seeded random legal games to the end
 * on the Main battlefield (two players) and in the Allies game. Pure and synchronous.
 */
export function benchFrontLine(): { frontLineDecideMedianMs: number; frontLineDecideP95Ms: number; commands: number } {
  const times: number[] = [];
  for (const options of [{}, { allies: true }]) {
    let s: State = frontLine.initialState(optionsSchema().parse(options), frontLine.version);
    const rng = seededRng({ seed: 'fb'.repeat(32), gameId: JSON.stringify(options), entropy: [], counter: 0 });
    for (let n = 0; n < 20_000 && !frontLine.outcome(s); n++) {
      const p = frontLine.pending(s);
      const seat = p[rng.int(p.length)]!.seat;
      const legal = frontLine.legalCommands(s, seat);
      const end = legal.find((c) => c.type === 'EndTurn');
      const c = end && rng.int(6) === 0 ? end : legal[rng.int(legal.length)]!;
      const t0 = performance.now();
      const r = frontLine.decide(s, c, seat, { rng, now: '' });
      times.push(performance.now() - t0);
      if (!r.ok) throw new Error(r.error.message);
      for (const e of r.value) s = frontLine.evolve(s, e.event);
    }
  }
  const sorted = [...times].sort((a, b) => a - b);
  const at = (p: number) => Number(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!.toFixed(3));
  return { frontLineDecideMedianMs: at(50), frontLineDecideP95Ms: at(95), commands: times.length };
}
