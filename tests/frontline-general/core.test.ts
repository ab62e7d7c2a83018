import { describe, expect, it } from 'vitest';
import { attackResult, CARD_GAME, crewFate, initiativeBonus, MAP_EXPANSION, specialRoll } from '../../domain/frontline-general/rules.js';

describe('Frontline General core: what the map expansion changes in the combat resolver', () => {
  it('2-3 is friendly fire only in the card game (003 Combat 18)', () => {
    expect([2, 3].map((n) => specialRoll(n, CARD_GAME))).toEqual(['friendly-fire', 'friendly-fire']);
    expect([2, 3].map((n) => specialRoll(n, MAP_EXPANSION))).toEqual([null, null]);
    expect(attackResult([1, 2], 0, 3, MAP_EXPANSION)).toBe('hit');
    expect(attackResult([1, 1], 0, 3, MAP_EXPANSION)).toBe('miss');
  });
  it('19-20 destroys outright in 001 and draws a Damage card in 003 (003 Combat 14); 18 doubles in both', () => {
    expect(specialRoll(19, CARD_GAME)).toBe('destroyed-outright');
    expect(specialRoll(20, MAP_EXPANSION)).toBe('damage-card');
    expect(specialRoll(18, MAP_EXPANSION)).toBe('double-intensity');
    expect(specialRoll(17, MAP_EXPANSION)).toBeNull();
  });
  it('crew fate at Intensity 4-6: captured (001) or survives damaged (003 Combat 11)', () => {
    expect(crewFate(5, true, CARD_GAME)).toBe('captured');
    expect(crewFate(5, false, CARD_GAME)).toBe('returned');
    expect(crewFate(5, true, MAP_EXPANSION)).toBe('damaged');
    expect([3, 7].map((i) => crewFate(i, true, MAP_EXPANSION))).toEqual(['returned', 'lost']);
  });
  it("an Initiative card's bonus: as printed in the card game, 003's +2 for Ambush! on the map (003 l.458)", () => {
    expect(initiativeBonus(3, CARD_GAME)).toBe(3);
    expect(initiativeBonus(3, MAP_EXPANSION)).toBe(2);
  });
});
