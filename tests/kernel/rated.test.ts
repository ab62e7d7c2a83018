import { describe, expect, it } from 'vitest';
import { decideCreate, seedCommitment, summarize, verifyLog } from '../../domain/kernel/index.js';
import { diceRace } from '../fixtures/dice-race.js';
import { MemoryGame } from './play.js';

const SEED = 'cd'.repeat(32);

/** A rated game says so from its creation on, so whoever joins it knows its result counts. */
describe('rated games', () => {
  const create = (options: unknown, rated?: boolean) =>
    decideCreate(diceRace, { gameId: 'g1', options, createdBy: 'alice', commitment: seedCommitment(SEED), ...(rated !== undefined ? { rated } : {}) });

  it('a two-player game may be rated: the creation event and the summary say so, and the finished log verifies', () => {
    const g = new MemoryGame(diceRace, SEED);
    expect(g.append(create({ target: 5 }, true), 'alice').ok).toBe(true);
    expect(g.events[0]!.data).toMatchObject({ rated: true });
    expect(summarize(diceRace, g.state!).rated).toBe(true);
    g.join('alice', 'p1');
    g.join('bob');
    for (let i = 0; i < 100 && g.state!.meta.status === 'active'; i++) {
      const seat = g.state!.meta.waiting[0]?.seat;
      g.play(seat === 'p1' ? 'alice' : 'bob', { type: 'Roll' });
    }
    expect(g.state!.meta.status).toBe('ended');
    // The verifier decides the creation again, flag included.
    expect(verifyLog(g.events, () => diceRace).problems).toEqual([]);
  });

  it('a game with more than two seats is never rated', () => {
    const r = create({ seats: 3 }, true);
    expect(r.ok ? 'ok' : r.error.code).toBe('game/rated-needs-two');
  });

  it('an unrated game carries no flag at all', () => {
    for (const rated of [undefined, false]) {
      const r = create({}, rated);
      expect(r.ok && 'rated' in (r.value[0]!.data as object)).toBe(false);
    }
  });
});
