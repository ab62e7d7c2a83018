import { describe, expect, it } from 'vitest';
import { NEW_PLAYER, glicko2Update } from '../../domain/tournament/glicko2.js';

describe('Glicko-2', () => {
  it("Glickman's worked example: 1500/200/0.06 beats 1400/30, loses to 1550/100 and 1700/300 (tau 0.5)", () => {
    const after = glicko2Update({ rating: 1500, deviation: 200, volatility: 0.06 }, [
      { opponent: { rating: 1400, deviation: 30 }, score: 1 },
      { opponent: { rating: 1550, deviation: 100 }, score: 0 },
      { opponent: { rating: 1700, deviation: 300 }, score: 0 },
    ]);
    // The paper rounds at every step (mu' = -0.2069) and prints 1464.06; unrounded arithmetic gives 1464.0507.
    expect(after.rating).toBeCloseTo(1464.06, 1);
    expect(after.rating).toBeCloseTo(1464.0507, 3);
    expect(after.deviation).toBeCloseTo(151.52, 2);
    expect(after.volatility).toBeCloseTo(0.05999, 4);
  });

  it('a period without games only widens the deviation, never past 350', () => {
    const after = glicko2Update({ rating: 1500, deviation: 200, volatility: 0.06 }, []);
    expect(after.rating).toBe(1500);
    expect(after.deviation).toBeCloseTo(173.7178 * Math.sqrt((200 / 173.7178) ** 2 + 0.06 ** 2), 9);
    expect(glicko2Update(NEW_PLAYER, []).deviation).toBe(350);
  });

  it('between two new players a win and a loss are mirror images', () => {
    const w = glicko2Update(NEW_PLAYER, [{ opponent: NEW_PLAYER, score: 1 }]);
    const l = glicko2Update(NEW_PLAYER, [{ opponent: NEW_PLAYER, score: 0 }]);
    expect(w.rating - 1500).toBeCloseTo(1500 - l.rating, 9);
    expect(w.deviation).toBeCloseTo(l.deviation, 9);
    expect(w.rating).toBeGreaterThan(1600);
  });
});
