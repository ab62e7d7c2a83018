import { describe, expect, it } from 'vitest';
import {
  decideCreate,
  decideJoin,
  decidePlay,
  decideResign,
  decideStandingOrders,
  pendingOf,
  seedCommitment,
  type GameState,
} from '../../domain/kernel/index.js';
import { controllerOf, unitById } from '../../domain/front-line/board.js';
import { frontLine } from '../../domain/front-line/engine.js';
import type { State } from '../../domain/front-line/model.js';
import { MemoryGame } from '../kernel/play.js';
import { given } from './given.js';
import { play } from './harness.js';

const SEED = '7d'.repeat(32);
const NOW = '2026-06-01T08:00:00.000Z';

/** A kernel game (create, join every seat) whose engine state is then replaced by `game`. */
function kernelGame(game: State, options: unknown = {}): MemoryGame {
  const g = new MemoryGame(frontLine, SEED, 'g-fl');
  expect(g.append(decideCreate(frontLine, { gameId: 'g-fl', options, createdBy: 'p0', commitment: seedCommitment(SEED) }), 'p0', NOW).ok).toBe(true);
  for (const [i, seat] of game.order.entries()) expect(g.append(decideJoin(frontLine, g.state!, { player: `p${i}`, seat }, SEED), `p${i}`, NOW).ok).toBe(true);
  g.state = { meta: g.state!.meta, game } as GameState;
  return g;
}
const playerOf = (g: MemoryGame, seat: string) => g.state!.meta.seats.find((x) => x.id === seat)!.player!;

/** EX7's position: Red's Infantry E on its Air Base, about to paratroop next to Green's Artillery. */
const ex7 = () =>
  given(
    [
      { seat: 'red', kind: 'infantry', sq: 'I5', as: 'E' },
      { seat: 'red', kind: 'tank', sq: 'F5' },
      { seat: 'green', kind: 'infantry', sq: 'D6', as: 'C' },
      { seat: 'green', kind: 'artillery', sq: 'D5', as: 'G' },
    ],
    { mover: 'red', stack: 'air' },
  );

describe('decision windows and standing orders (kernel)', () => {
  it('"Opportunity Fire on any unit that paratroops next to my artillery" fires in the same append as the drop', () => {
    const { s, ids } = ex7();
    const g = kernelGame(s);
    const orders = [{ topic: 'opportunity-fire', rule: 'when', params: { action: 'Paratroop', nextTo: 'artillery' } }];
    expect(g.append(decideStandingOrders(frontLine, g.state!, { player: playerOf(g, 'green'), orders, now: NOW }, SEED), playerOf(g, 'green'), NOW).ok).toBe(
      true,
    );
    const r = g.append(
      decidePlay(frontLine, g.state!, { player: playerOf(g, 'red'), command: { type: 'Paratroop', unit: ids.E, to: 'E6' }, now: NOW }, SEED),
      playerOf(g, 'red'),
      NOW,
    );
    if (!r.ok) throw new Error(r.error.message);
    const types = r.value.map((e) => e.type);
    expect(types).toContain('Game.StandingOrderApplied');
    const applied = r.value.find((e) => e.type === 'Game.StandingOrderApplied')!;
    // The artillery fires: longest range among the shooters at equal height.
    expect(applied.data).toMatchObject({ seat: 'green', command: { type: 'OpportunityFire', unit: ids.G } });
    expect(r.value.find((e) => e.type === 'AttackDeclared')!.data).toMatchObject({ attack: { attacker: ids.G, target: 'E6', supplied: false } });
  });

  it('the same order does not answer a Move next to the artillery: the window waits for the player, and lapses to Pass', () => {
    const { s } = ex7();
    const g = kernelGame({ ...s, chosen: { stack: 'capital', n: 3, max: 3, fallen: false } });
    const orders = [{ topic: 'opportunity-fire', rule: 'when', params: { action: 'Paratroop', nextTo: 'artillery' } }];
    g.append(decideStandingOrders(frontLine, g.state!, { player: playerOf(g, 'green'), orders, now: NOW }, SEED), playerOf(g, 'green'), NOW);
    const tank = (g.state!.game as State).units.find((u) => u.sq === 'F5')!.id;
    const r = g.append(
      decidePlay(frontLine, g.state!, { player: playerOf(g, 'red'), command: { type: 'Move', unit: tank, to: 'E5' }, now: NOW }, SEED),
      playerOf(g, 'red'),
      NOW,
    );
    expect(r.ok && r.value.map((e) => e.type)).not.toContain('Game.StandingOrderApplied');
    const p = pendingOf(frontLine, g.state!);
    expect(p).toEqual([
      expect.objectContaining({ seat: 'green', kind: 'reaction', window: expect.objectContaining({ topic: 'opportunity-fire', default: { type: 'Pass' } }) }),
    ]);
    expect(frontLine.legalCommands(g.state!.game as State, 'green')).toContainEqual(p[0]!.window!.default);
  });

  it('rally/always and rout/hold answer for the defender', () => {
    const { s, ids } = given(
      [
        { seat: 'green', kind: 'infantry', sq: 'D2', as: 'A' },
        { seat: 'red', kind: 'tank', sq: 'E2', as: 'T' },
      ],
      { mover: 'green', stack: 'capital' },
    );
    const g = kernelGame(s);
    const orders = [
      { topic: 'rally', rule: 'always' },
      { topic: 'rout', rule: 'hold' },
    ];
    g.append(decideStandingOrders(frontLine, g.state!, { player: playerOf(g, 'red'), orders, now: NOW }, SEED), playerOf(g, 'red'), NOW);
    const r = g.append(
      decidePlay(frontLine, g.state!, { player: playerOf(g, 'green'), command: { type: 'Attack', unit: ids.A, target: 'E2' }, now: NOW }, SEED),
      playerOf(g, 'green'),
      NOW,
    );
    expect(r.ok && r.value.map((e) => e.type)).toContain('Rallied');
    expect((g.state!.game as State).seats.find((x) => x.id === 'red')!.leadership).toBe('exhausted');
  });
});

describe('the Allies game (002 p.E)', () => {
  it('four seats on two sides, turns red, green, red, green; twelve turns a round', () => {
    const seats = frontLine.seats({ ...frontLine.optionsSchema.parse({ allies: true }) });
    expect(seats.map((x) => `${x.id}:${x.side}`)).toEqual(['red1:red', 'green1:green', 'red2:red', 'green2:green']);
    let { s } = given([], { options: { allies: true }, mover: 'red1' });
    const movers: string[] = [];
    for (let i = 0; i < 12; i++) {
      const seat = frontLine.pending(s)[0]!.seat;
      movers.push(seat);
      s = play(s, seat, { type: 'EndTurn' }).s;
    }
    expect(movers.slice(0, 4)).toEqual(['red1', 'green1', 'red2', 'green2']);
    expect(s.round).toBe(2);
  });

  it('Send Support: one chit a turn lets the ally take one Regular action at once, on its battlefield', () => {
    const { s, ids } = given([{ seat: 'green2', kind: 'infantry', sq: 'M3', as: 'X' }], { options: { allies: true }, mover: 'green1', stack: 'air' });
    const sent = play(s, 'green1', { type: 'SendSupport' }).s;
    expect(sent.chosen!.n).toBe(2);
    expect(frontLine.legalCommands(sent, 'green1')).toEqual([]);
    expect(frontLine.pending(sent)[0]).toMatchObject({ seat: 'green2', kind: 'reaction', window: { topic: 'send-support', default: { type: 'Pass' } } });
    expect(frontLine.legalCommands(sent, 'green2')).toContainEqual({ type: 'Move', unit: ids.X, to: 'N3' });
    const moved = play(sent, 'green2', { type: 'Move', unit: ids.X!, to: 'N3' }).s;
    expect(unitById(moved, ids.X!)!.sq).toBe('N3');
    expect(moved.chosen!.n).toBe(2);
    expect(frontLine.legalCommands(moved, 'green1').some((c) => c.type === 'SendSupport')).toBe(false);
  });

  it('an Amphibious Move may cross to the ally’s battlefield, and the unit is then the ally’s to command', () => {
    const { s, ids } = given([{ seat: 'green1', kind: 'tank', sq: 'A2', as: 'T' }], { options: { allies: true }, mover: 'green1', stack: 'air' });
    const to = frontLine.legalCommands(s, 'green1').flatMap((c) => (c.type === 'AmphibiousMove' ? [c.to] : []));
    expect(to).toContain('T5'); // Red's Port on the second battlefield
    expect(to).toContain('J5');
    const crossed = play(s, 'green1', { type: 'AmphibiousMove', unit: ids.T!, to: 'K1' }).s;
    expect(controllerOf(crossed, unitById(crossed, ids.T!)!).id).toBe('green2');
    expect(frontLine.legalCommands(crossed, 'green1').some((c) => 'unit' in c && c.unit === ids.T)).toBe(false);
  });

  it('one ally resigning loses the game for the whole side (RULINGS)', () => {
    const { s } = given([], { options: { allies: true }, mover: 'red1' });
    const g = kernelGame(s, { allies: true });
    const r = g.append(decideResign(frontLine, g.state!, { player: playerOf(g, 'green2') }, SEED), playerOf(g, 'green2'), NOW);
    expect(r.ok).toBe(true);
    expect(g.state!.meta.status).toBe('ended');
    expect(frontLine.concede!(s, ['green2'], 'timed-out')).toMatchObject({ winners: ['red1', 'red2'] });
  });
});
