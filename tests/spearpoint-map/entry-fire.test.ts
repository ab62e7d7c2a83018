import { describe, expect, it } from 'vitest';
import { given, run } from './given.js';
import { decideStandingOrders } from '../../domain/kernel/index.js';
import { engine, newGame, SEED, stateOf } from './play.js';

describe('003 Commitment 5: committing at an enemy-occupied Reserves Entry Point', () => {
  // Man vs. Beast: US entry points A1, B1, C1; a German rifle squad stands in B1.
  const s0 = given({ units: [{ id: 'g', card: 'de-rifle-squad', at: 'B1' }], phase: 'commitment' });
  const hand = (card: string) => {
    const s = { ...s0, cards: { ...s0.cards, nu: { card, owner: 'us' as const } } };
    return { ...s, seats: { ...s.seats, us: { ...s.seats.us, hand: ['nu'] } } };
  };

  it('the entry point is not blocked, and the occupants get an opportunity-fire window at the new unit', () => {
    const s = hand('us-rifle-squad');
    expect(engine.legalCommands(s, 'us')).toContainEqual({ type: 'Commit', unit: 'nu', at: 'B1' });
    const r = run(s, { type: 'Commit', unit: 'nu', at: 'B1' });
    expect(r.events.map((e) => e.type)).toEqual(['UnitCommitted', 'OpportunityFireOffered']);
    expect(r.state.opfire).toMatchObject({ seat: 'de', mover: 'nu', shooters: ['g'] });
    expect(engine.pending(r.state)).toEqual([expect.objectContaining({ seat: 'de', window: expect.objectContaining({ topic: 'opportunity-fire' }) })]);
    // Germany fires; the shot resolves at once and the window closes.
    const fired = run(r.state, { type: 'OpportunityFire', unit: 'g' }, 'de', [9, 9, 5, 5, 5, 5]);
    expect(fired.events.some((e) => e.type === 'OpportunityFireTaken')).toBe(true);
    expect(fired.state.opfire).toBeNull();
  });
  it('an empty entry point, or one held by friends, opens no window', () => {
    const s = hand('us-rifle-squad');
    expect(run(s, { type: 'Commit', unit: 'nu', at: 'A1' }).state.opfire).toBeNull();
  });
});

describe('003 Movement 8: opportunity fire as a kernel decision window with standing orders', () => {
  // Turn 2 movement, the US active: a US rifle squad at C3 moves to C5, next to a German MG-42 team at B5.
  const position = given({
    units: [
      { id: 'r', card: 'us-rifle-squad', at: 'C3' },
      { id: 'mg', card: 'de-mg42-team', at: 'B5' },
    ],
    phase: 'movement',
  });
  const kernel = () => {
    const g = newGame({ scenario: 'man-vs-beast' }, 'g-opfire');
    g.state = { ...g.state!, game: position };
    return g;
  };

  it('a move next to an enemy opens a blocking window for the enemy, default pass, answered by a command', () => {
    const r = run(position, { type: 'Move', unit: 'r', to: 'C5' });
    expect(r.state.opfire).toMatchObject({ seat: 'de', mover: 'r', shooters: ['mg'] });
    const [p] = engine.pending(r.state);
    expect(p).toMatchObject({ seat: 'de', kind: 'reaction', window: { topic: 'opportunity-fire', blocking: true, default: { type: 'PassOpportunityFire' } } });
    expect(engine.legalCommands(r.state, 'de')).toEqual([{ type: 'PassOpportunityFire' }, { type: 'OpportunityFire', unit: 'mg' }]);
    expect(engine.legalCommands(r.state, 'us')).toEqual([]);
    expect(run(r.state, { type: 'PassOpportunityFire' }, 'de').state.opfire).toBeNull();
  });

  it('the standing order always-fire answers the window in the same append as the move; never passes at once', () => {
    for (const [rule, answer] of [
      ['always-fire', 'OpportunityFireTaken'],
      ['never', 'OpportunityFirePassed'],
    ] as const) {
      const g = kernel();
      const set = g.append(
        decideStandingOrders(engine, g.state!, { player: 'bob', orders: [{ topic: 'opportunity-fire', rule }], now: '2026-01-01T00:00:01.000Z' }, SEED),
        'bob',
      );
      expect(set.ok).toBe(true);
      const moved = g.play('alice', { type: 'Move', unit: 'r', to: 'C5' });
      expect(moved.ok).toBe(true);
      const types = moved.ok ? moved.value.map((e) => e.type) : [];
      expect(types).toContain('Game.StandingOrderApplied');
      expect(types.indexOf(answer)).toBeGreaterThan(types.indexOf('OpportunityFireOffered'));
      expect(stateOf(g).opfire).toBeNull();
    }
  });
});
