import { describe, expect, it } from 'vitest';
import {
  createRegistry,
  decideClaimTimeout,
  decideCreate,
  decideJoin,
  decideLapse,
  decidePlay,
  decideStandingOrders,
  pendingOf,
  seedCommitment,
  seededRng,
  verifyLog,
  type EventEnvelope,
} from '../../domain/kernel/index.js';
import { frontLine } from '../../domain/front-line/engine.js';
import type { Command, State } from '../../domain/front-line/model.js';
import { MemoryGame } from '../kernel/play.js';

/**
 * Front Line's reactions through the real kernel, in games with a time limit: every seat leaves
 * standing orders (drawn from the rules the engine offers, the "paratroops next to my
 * artillery" one included), and windows not answered by an order are either answered by their
 * seat or left to lapse at their deadline, so each default is played in real positions. Each
 * game goes to its end and its log verifies (seed revealed, every decision replayed).
 */
const engines = createRegistry([frontLine]);
const T0 = Date.parse('2026-07-01T08:00:00.000Z');

const ORDER_CHOICES = [
  { topic: 'opportunity-fire', rule: 'when', params: { action: 'Paratroop', nextTo: 'artillery' } },
  { topic: 'opportunity-fire', rule: 'when', params: { action: 'Move' } },
  { topic: 'opportunity-fire', rule: 'when', params: { nextTo: 'infantry' } },
  { topic: 'opportunity-fire', rule: 'always' },
  { topic: 'opportunity-fire', rule: 'never' },
  { topic: 'rally', rule: 'always' },
  { topic: 'rally', rule: 'never' },
  { topic: 'edge', rule: 'never' },
  { topic: 'rout', rule: 'hold' },
  { topic: 'rout', rule: 'retreat' },
  { topic: 'displace', rule: 'never' },
  { topic: 'send-support', rule: 'decline' },
];

const TASKS = new Set(['Maneuver', 'Relieve', 'Cache']);
/** A mover that gets on with the war, so windows open often: quick set-up, Commission when it can, attacks often, tasks seldom. */
function forward(legal: readonly Command[], pick: ReturnType<typeof seededRng>): Command {
  const of = (type: string) => legal.filter((c) => c.type === type);
  const quick = [...of('PlaceRecommended'), ...of('FinishSetup'), ...of('Commission')][0];
  if (quick) return quick;
  if (pick.int(7) === 0) return of('EndTurn')[0] ?? legal[0]!;
  const attacks = of('Attack');
  if (attacks.length > 0 && pick.int(2) === 0) return attacks[pick.int(attacks.length)]!;
  const rest = pick.int(10) === 0 ? legal : legal.filter((c) => !TASKS.has(c.type));
  return rest[pick.int(rest.length)] ?? legal[pick.int(legal.length)]!;
}

interface Run {
  events: EventEnvelope[];
  lapsed: number;
  applied: number;
  answered: number;
  outcome: unknown;
}

function timedGame(options: object, seed: string): Run {
  const gameId = 'g-fl-timed';
  const g = new MemoryGame(frontLine, seed, gameId);
  const pick = seededRng({ seed, gameId: 'pick', entropy: [], counter: 0 });
  let clock = T0;
  const now = () => new Date(clock).toISOString();
  const ok = <T>(r: { ok: true; value: T } | { ok: false; error: { message: string } }, what: string): T => {
    if (!r.ok) throw new Error(`${what}: ${r.error.message}`);
    return r.value;
  };
  ok(
    g.append(decideCreate(frontLine, { gameId, options, createdBy: 'p-red1', commitment: seedCommitment(seed), timeLimitHours: 24 }), 'p-red1', now()),
    'create',
  );
  const seats = frontLine.seats(frontLine.optionsSchema.parse(options)).map((x) => x.id);
  const player = (seat: string) => `p-${seat}`;
  for (const seat of seats) ok(g.append(decideJoin(frontLine, g.state!, { player: player(seat), seat }, seed), player(seat), now()), `join ${seat}`);
  // Each seat leaves two or three orders; the first order that answers a window wins.
  for (const seat of seats) {
    const orders = Array.from({ length: 2 + pick.int(2) }, () => ORDER_CHOICES[pick.int(ORDER_CHOICES.length)]!);
    ok(g.append(decideStandingOrders(frontLine, g.state!, { player: player(seat), orders, now: now() }, seed), player(seat), now()), `orders ${seat}`);
  }
  const run: Run = { events: [], lapsed: 0, applied: 0, answered: 0, outcome: undefined };
  for (let n = 0; g.state!.meta.status === 'active'; n++) {
    if (n > 8000) throw new Error('the game did not end');
    const pending = pendingOf(frontLine, g.state!);
    expect(pending.length, 'someone must be asked').toBeGreaterThan(0);
    const p = pending[pick.int(pending.length)]!;
    if (p.window) {
      expect(p.deadline, `window ${p.window.id} has a deadline`).toBeDefined();
      expect(frontLine.legalCommands(g.state!.game as State, p.seat)).toContainEqual(p.window.default);
      if (pick.int(2) === 0) {
        // Nobody answers: the scheduler lapses the window at its deadline.
        clock = Math.max(clock, Date.parse(p.deadline!));
        const env = ok(g.append(decideLapse(frontLine, g.state!, { player: null, window: p.window.id, now: now() }, seed), null, now()), 'lapse');
        run.lapsed++;
        run.applied += env.filter((e) => e.type === 'Game.StandingOrderApplied').length;
        continue;
      }
      run.answered++;
    }
    clock += 60_000;
    const legal = frontLine.legalCommands(g.state!.game as State, p.seat);
    expect(legal.length, `${p.seat} is pending but offered nothing`).toBeGreaterThan(0);
    const command = p.window ? legal[pick.int(legal.length)]! : forward(legal, pick);
    const env = ok(
      g.append(decidePlay(frontLine, g.state!, { player: player(p.seat), command, now: now() }, seed), player(p.seat), now()),
      `${p.seat} ${JSON.stringify(command)}`,
    );
    run.applied += env.filter((e) => e.type === 'Game.StandingOrderApplied').length;
  }
  run.events = g.events;
  run.outcome = g.state!.meta.outcome;
  return run;
}

describe('Front Line windows with deadlines and standing orders, through the kernel', () => {
  for (const [i, options] of [{ battlefield: 'main' }, { battlefield: 'great-desert' }, { allies: true, battlefield: 'mt-range' }].entries()) {
    it(`plays to the end with orders answering and windows lapsing; the log verifies: ${JSON.stringify(options)}`, () => {
      const totals = { lapsed: 0, applied: 0, answered: 0 };
      for (const g of [0, 1]) {
        const run = timedGame(options, `${'c3'.repeat(31)}${i}${g}`);
        expect(run.outcome).toBeDefined();
        const report = verifyLog(run.events, engines.get);
        expect(report.problems).toEqual([]);
        expect(report.ok).toBe(true);
        totals.lapsed += run.lapsed;
        totals.applied += run.applied;
        totals.answered += run.answered;
      }
      // The three ways a window closes all happened.
      expect(totals.lapsed).toBeGreaterThan(0);
      expect(totals.applied).toBeGreaterThan(0);
      expect(totals.answered).toBeGreaterThan(0);
    });
  }
});

describe('an ally who runs out of time (RULINGS: the whole side loses)', () => {
  it('a claim against an overdue Allies seat ends the game for its side; both seats of the other side win', () => {
    const seed = 'd4'.repeat(32);
    const g = new MemoryGame(frontLine, seed, 'g-fl-late');
    const at = (h: number) => new Date(T0 + h * 3_600_000).toISOString();
    const ok = (r: { ok: boolean; error?: { message: string } }) => expect(r.ok, r.error?.message).toBe(true);
    ok(
      g.append(
        decideCreate(frontLine, { gameId: 'g-fl-late', options: { allies: true }, createdBy: 'p-red1', commitment: seedCommitment(seed), timeLimitHours: 24 }),
        'p-red1',
        at(0),
      ),
    );
    for (const seat of ['red1', 'green1', 'red2', 'green2'])
      ok(g.append(decideJoin(frontLine, g.state!, { player: `p-${seat}`, seat }, seed), `p-${seat}`, at(0)));
    const act = (seat: string, command: Command) =>
      ok(g.append(decidePlay(frontLine, g.state!, { player: `p-${seat}`, command, now: at(1) }, seed), `p-${seat}`, at(1)));
    for (const seat of ['red1', 'green1', 'red2', 'green2']) {
      act(seat, { type: 'PlaceRecommended' });
      act(seat, { type: 'FinishSetup' });
    }
    const decider = pendingOf(frontLine, g.state!)[0]!.seat;
    act(decider, { type: 'ChooseFirst', seat: 'green2' });
    expect(pendingOf(frontLine, g.state!)).toMatchObject([{ seat: 'green2', kind: 'move' }]);
    // green2 lets a day pass; red1 claims the game.
    ok(g.append(decideClaimTimeout(frontLine, g.state!, { player: 'p-red1', now: at(25) }, seed), 'p-red1', at(25)));
    expect(g.state!.meta.status).toBe('ended');
    expect(g.state!.meta.outcome).toMatchObject({ winners: ['red1', 'red2'] });
    expect(verifyLog(g.events, engines.get)).toMatchObject({ ok: true, problems: [] });
  });
});
