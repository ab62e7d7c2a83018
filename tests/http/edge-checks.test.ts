import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import type { $ZodType } from 'zod/v4/core';
import { seeded } from '../support/seeded.js';
import { customRules, EDGE_CHECKS_FILE, EDGE_CHECKS_TYPES_FILE, EDGE_SCHEMAS, edgeChecksSource, edgeShape } from '../../functions/http/edge-checks.js';
import { acceptAtEdge, explainAtEdge } from '../../functions/http/edge.js';
import * as schemas from '../../functions/http/schemas.js';

/**
 * The edge's generated checks (functions/http/edge-checks.ts) stand in for its zod schemas on
 * every request they accept: they must accept exactly what zod accepts and give what zod gives.
 */

type Json = Record<string, unknown>;

/** Strings at and around every length, pattern and enum the edge's schemas use. */
const STRINGS = [
  '',
  'a',
  'A-b_9',
  'p.l@a+y-er',
  '.starts-with-a-dot',
  'has space',
  'tab\there',
  '\u007f',
  'ü',
  '😀',
  '😀'.repeat(16),
  '😀'.repeat(17),
  '😀'.repeat(32),
  '😀'.repeat(33),
  '\ud800 lone surrogate',
  '0',
  '12',
  '007',
  '-1',
  '1.5',
  '1e3',
  '999999999',
  '1000000000',
  '1000',
  '1001',
  'true',
  'false',
  'create',
  'public',
  'moves',
  '__proto__',
  'constructor',
  ...[31, 32, 33, 63, 64, 65, 99, 100, 101, 127, 128, 129, 255, 256, 257].map((n) => 'x'.repeat(n)),
];
const NUMBERS = [0, 1, -1, 0.25, 0.5, 1.5, 1.0001, 23, 24, 1440, 1441, 3600, 1e9, 2 ** 53 - 1, 2 ** 53, -0.1];
const OTHERS: unknown[] = [null, true, false, [], {}, 'text', 7];

/**
 * Field names: any string but "__proto__", which the router refuses in a body before any check
 * (tests/http/object-keys.test.ts) and which zod's records take as a prototype.
 */
const KEYS = STRINGS.filter((k) => k !== '__proto__');

function generate(schema: Json, random: () => number, depth = 0): unknown {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  if (random() < 0.04) return structuredClone(pick(OTHERS));
  if (Array.isArray(schema['enum'])) return random() < 0.8 ? pick(schema['enum']) : pick(STRINGS);
  switch (schema['type']) {
    case 'string':
      return pick(STRINGS);
    case 'integer':
    case 'number':
      return random() < 0.9 ? pick(NUMBERS) : pick(STRINGS);
    case 'boolean':
      return random() < 0.9 ? random() < 0.5 : 'true';
    case 'array': {
      const max = typeof schema['maxItems'] === 'number' ? schema['maxItems'] : 3;
      const n = random() < 0.1 ? max + 1 : Math.floor(random() * Math.min(max, 4) + (random() < 0.5 ? 0 : 1));
      return Array.from({ length: n }, () => generate(schema['items'] as Json, random, depth + 1));
    }
    case 'object': {
      const out: Record<string, unknown> = {};
      const props = (schema['properties'] ?? {}) as Record<string, Json>;
      const required = (schema['required'] ?? []) as string[];
      for (const [k, s] of Object.entries(props)) if (random() < (required.includes(k) ? 0.95 : 0.6)) out[k] = generate(s, random, depth + 1);
      if (schema['propertyNames'])
        for (let i = Math.floor(random() * 3); i > 0; i--) out[pick(KEYS)] = generate(schema['additionalProperties'] as Json, random, depth + 1);
      if (random() < 0.15) out[pick(['extra', 'type', 'seat', 'cacheBuster'])] = pick([...STRINGS, ...NUMBERS]);
      return out;
    }
    default:
      // {}: any JSON value.
      return depth > 3 ? pick(STRINGS) : structuredClone(pick([...OTHERS, { nested: pick(STRINGS) }, [pick(NUMBERS)]]));
  }
}

const schemaOf = (name: (typeof EDGE_SCHEMAS)[number]) => schemas[name] as $ZodType;

describe("the edge's generated checks", () => {
  afterEach(() => vi.restoreAllMocks());

  it('are up to date: functions/http/edge-checks.generated.* are what npm run api-types makes of the schemas now', () => {
    const { code, types } = edgeChecksSource();
    expect(readFileSync(EDGE_CHECKS_FILE, 'utf8')).toBe(code);
    expect(readFileSync(EDGE_CHECKS_TYPES_FILE, 'utf8')).toBe(types);
  });

  // "What zod gives" up to the order of keys: every consumer compares values through canonical JSON.
  it.each(EDGE_SCHEMAS)('%s: accept exactly what zod accepts, and give what zod gives (3,000 seeded inputs)', (name) => {
    const random = seeded(0xed9e + name.length);
    const input = z.toJSONSchema(schemaOf(name), { io: 'input' }) as Json;
    let accepted = 0;
    let refused = 0;
    for (let i = 0; i < 3000; i++) {
      const value = generate(input, random);
      const byZod = z.safeParse(schemaOf(name), value);
      const byCheck = acceptAtEdge(name, value);
      expect(byCheck !== undefined, `${name} ${JSON.stringify(value)}: zod ${byZod.success ? 'accepts' : 'refuses'}`).toBe(byZod.success);
      if (byCheck && byZod.success) {
        expect(byCheck.value).toStrictEqual(byZod.data);
        accepted++;
      } else refused++;
    }
    // Both verdicts are exercised for every schema.
    expect(accepted).toBeGreaterThan(30);
    expect(refused).toBeGreaterThan(30);
  });

  it('turn query text into numbers, drop unknown parameters, and hold the numbers to their bounds', () => {
    expect(acceptAtEdge('eventsQuery', { after: '007', limit: '1000', cacheBuster: 'x' })).toStrictEqual({ value: { after: 7, limit: 1000 } });
    expect(acceptAtEdge('eventsQuery', { limit: '0' })).toBeUndefined();
    expect(acceptAtEdge('eventsQuery', { limit: '1001' })).toBeUndefined();
    expect(acceptAtEdge('gameViewQuery', { eventsAfter: '999999999', seat: 'axis' })).toStrictEqual({ value: { eventsAfter: 999999999, seat: 'axis' } });
    expect(acceptAtEdge('commandBody', { commandId: 'c1', command: { type: 'pass', extra: 1 } })).toStrictEqual({
      value: { commandId: 'c1', command: { type: 'pass', extra: 1 } },
    });
    // Lengths count code points, as zod does: 32 emoji (64 UTF-16 units) are a seat's most.
    expect(acceptAtEdge('joinBody', { commandId: 'c', seat: '😀'.repeat(32) })).toBeDefined();
    expect(acceptAtEdge('joinBody', { commandId: 'c', seat: '😀'.repeat(33) })).toBeUndefined();
  });

  it('refuse a "__proto__" limit, which zod would take as the prototype of what it returns', () => {
    expect(acceptAtEdge('limitsOverride', JSON.parse('{"__proto__":{"max":1}}'))).toBeUndefined();
    expect(acceptAtEdge('limitsOverride', JSON.parse('{"create":{"max":1}}'))).toStrictEqual({ value: { create: { max: 1 } } });
  });

  it("leave a refusal to zod, whose message is the router's", async () => {
    const r = await explainAtEdge('commandBody', { commandId: 'has space', command: { type: '' } });
    expect(r.ok).toBe(false);
    const paths = r.ok ? [] : r.issues.map((i) => (i.path ?? []).join('.'));
    expect(paths).toEqual(expect.arrayContaining(['commandId', 'command.type']));
  });

  it('give way to zod, and say so in the error log, should they refuse what zod accepts', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const r = await explainAtEdge('cancelBody', { commandId: 'c1' });
    expect(r).toEqual({ ok: true, value: { commandId: 'c1' } });
    expect(String(logged.mock.calls[0]?.[0])).toContain('the generated check cancelBody refused what its zod schema accepts');
  });

  it('are not generated for a schema whose output the checks could not reproduce', () => {
    const shape = (s: $ZodType) => edgeShape('probe', z.toJSONSchema(s, { io: 'input' }) as Json, z.toJSONSchema(s, { io: 'output' }) as Json);
    expect(shape(z.strictObject({ a: z.string() }))).toBeUndefined();
    expect(shape(z.object({ a: z.string() }))).toEqual({ keep: ['a'] });
    expect(() => shape(z.strictObject({ a: z.object({ b: z.string() }) }))).toThrow(/field a changes/);
    expect(() => shape(z.strictObject({ a: z.string().transform((s) => s.length) }))).toThrow(/Transforms cannot be represented/);
    expect(() => shape(z.strictObject({ a: z.string().default('x') }))).toThrow(/edge schema probe/);
    // A refine is code JSON Schema cannot hold, and z.toJSONSchema drops it without a word.
    expect(customRules(z.strictObject({ a: z.string().refine((t) => t.length > 2) }))).toEqual(['a']);
    expect(customRules(z.strictObject({ a: z.array(z.strictObject({ b: z.custom<string>() })) }))).toEqual(['a.b']);
    expect(customRules(z.string().check(z.refine((t) => t !== 'x')))).toEqual(['(the whole value)']);
    expect(EDGE_SCHEMAS.flatMap((n) => customRules(schemaOf(n)))).toEqual([]);
  });
});
