import { describe, expect, it } from 'vitest';
import { frontLine } from '../../domain/front-line/engine.js';
import { randomGame } from './harness.js';

/**
 * Seeded, bounded fuzz: random legal games to the end on every battlefield and in the Allies
 * game, with hostile ids (__proto__, constructor, …) tried in every id field of offered commands.
 */
const CASES = [
  { battlefield: 'main' },
  { battlefield: 'lake-nogo' },
  { battlefield: 'mt-range' },
  { battlefield: 'great-desert', supply: { green: 'centered', red: 'staggered' } },
  { battlefield: 'main', amphibious: false },
  { battlefield: 'main', allies: true },
  { battlefield: 'lake-nogo', allies: true },
] as const;

describe('front-line fuzz', () => {
  for (const [i, options] of CASES.entries()) {
    it(`plays random legal games to the end: ${JSON.stringify(options)}`, () => {
      const types = new Set<string>();
      let crossed = 0;
      for (let g = 0; g < 1; g++) {
        const r = randomGame(options, `${'a1'.repeat(31)}${i}${g}`);
        expect(frontLine.outcome(r.s)).toBeDefined();
        expect(r.probes).toBeGreaterThan(0);
        for (const t of r.types) types.add(t);
        crossed += r.crossed;
      }
      expect(types).toContain('Attack');
      expect(types).toContain('EndTurn');
      if ('allies' in options) {
        // Send Support and units sent to the ally's battlefield happen in each Allies game.
        expect(types).toContain('SendSupport');
        expect(crossed).toBeGreaterThan(0);
      }
    });
  }
});
