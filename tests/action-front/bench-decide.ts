import { performance } from 'node:perf_hooks';
import { seededRng } from '../../domain/kernel/index.js';
import { actionFront, type State } from '../../domain/action-front/index.js';
import { evolve } from '../../domain/action-front/evolve.js';

/**
 * For `npm run bench`: the time Action Front!'s `decide` takes per command, and `legalCommands`
 * per call, over seeded random games of every scenario and both builder types, one on two maps (pure CPU, no
 * store): median, p95 and worst, in milliseconds.
 */
const GAMES: unknown[] = [
  { scenario: 'edsons-ridge' },
  { scenario: 'bocage' },
  { scenario: 'river-crossing' },
  { builder: { type: 'point-defense' } },
  { builder: { type: 'meeting-engagement' } },
  { builder: { type: 'point-defense', maps: ['guadalcanal-ridge', 'guadalcanal-ridge'] } },
];

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!;
const round = (x: number) => Math.round(x * 1000) / 1000;

export function benchActionFrontDecide(): { commands: number; decideMedianMs: number; decideP95Ms: number; decideMaxMs: number; legalMedianMs: number } {
  const decideMs: number[] = [];
  const legalMs: number[] = [];
  for (const [i, options] of GAMES.entries()) {
    const dice = seededRng({ seed: 'be'.repeat(32), gameId: `bench-${i}`, entropy: [], counter: 0 });
    const chooser = seededRng({ seed: 'cc'.repeat(32), gameId: `bench-${i}`, entropy: [], counter: 0 });
    let s: State = actionFront.initialState(actionFront.optionsSchema.parse(options), actionFront.version);
    const setup = actionFront.setup(s, { rng: dice, now: '' });
    if (!setup.ok) throw new Error(setup.error.message);
    s = setup.value.map((e) => e.event).reduce(evolve, s);
    while (!s.result) {
      const pending = actionFront.pending(s);
      const seat = pending[chooser.int(pending.length)]!.seat;
      const t0 = performance.now();
      const legal = actionFront.legalCommands(s, seat);
      legalMs.push(performance.now() - t0);
      const ends = legal.filter((c) => c.type.startsWith('End'));
      const c = ends.length && chooser.int(4) === 0 ? ends[0]! : legal[chooser.int(legal.length)]!;
      const t1 = performance.now();
      const r = actionFront.decide(s, c, seat, { rng: dice, now: '' });
      decideMs.push(performance.now() - t1);
      if (!r.ok) throw new Error(`${JSON.stringify(c)}: ${r.error.message}`);
      s = r.value.map((e) => e.event).reduce(evolve, s);
    }
  }
  return {
    commands: decideMs.length,
    decideMedianMs: round(pct(decideMs, 50)),
    decideP95Ms: round(pct(decideMs, 95)),
    decideMaxMs: round(Math.max(...decideMs)),
    legalMedianMs: round(pct(legalMs, 50)),
  };
}
