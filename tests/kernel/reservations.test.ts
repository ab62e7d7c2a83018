import { describe, expect, it } from 'vitest';
import { decideCreate, type RuleViolation } from '../../domain/kernel/index.js';
import { diceRace } from '../fixtures/dice-race.js';
import { MemoryGame } from './play.js';

/**
 * A player holds one seat (joining a second is refused), so a reservation that player can
 * never take leaves the game open forever: there is no way to start or cancel it.
 */
const code = (r: { ok: true } | { ok: false; error: RuleViolation }) => (r.ok ? 'ok' : r.error.code);

describe('seat reservations a game can always be started with', () => {
  it('refuses to reserve two seats for one player', () => {
    const r = decideCreate(diceRace, { gameId: 'g', options: {}, reserve: { p1: 'bob', p2: 'bob' }, createdBy: 'alice', commitment: 'c' });
    expect(code(r)).toBe('seat/reserved-twice');
  });

  it('a player with a seat reserved for them cannot take another one, which would strand the reservation', () => {
    // MemoryGame.create takes no reservations: decide the creation here and append it.
    const created = decideCreate(diceRace, { gameId: 'g2', options: { seats: 3 }, reserve: { p2: 'bob' }, createdBy: 'alice', commitment: 'c' });
    expect(code(created)).toBe('ok');
    const h = new MemoryGame(diceRace, 'ab'.repeat(32), 'g2');
    (h as unknown as { append: (r: unknown, p: string) => unknown }).append(created, 'alice');
    expect(code(h.join('bob', 'p3'))).toBe('seat/reserved-elsewhere');
    expect(code(h.join('bob'))).toBe('ok');
    expect(h.state!.meta.seats.find((s) => s.id === 'p2')!.joined).toBe(true);
    expect(code(h.join('alice', 'p1'))).toBe('ok');
    expect(code(h.join('carol'))).toBe('ok');
    expect(h.state!.meta.status).toBe('active');
  });
});
