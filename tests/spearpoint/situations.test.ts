import { describe, expect, it } from 'vitest';
import { SITUATIONS, situationSchema } from '../../domain/spearpoint/data/situations.js';

describe('the built-in Situations (typed data, not parsed at import)', () => {
  it.each(Object.keys(SITUATIONS))('%s is valid and is what the schema parse gives, defaults filled and keys in order', (id) => {
    const situation = SITUATIONS[id]!;
    expect(situation.id).toBe(id);
    expect(JSON.stringify(situationSchema().parse(situation))).toBe(JSON.stringify(situation));
  });

  it('the schema refuses a Situation without a win condition', () => {
    expect(situationSchema().safeParse({ ...SITUATIONS['standard'], winConditions: [] }).success).toBe(false);
  });
});
