import * as z from 'zod';
import { once } from '../../kernel/once.js';
import { sideSchema, unitTypeSchema } from '../../frontline-general/data/schema.js';

/**
 * Situations (001 Two-Player Situation Game Setup): objectives, win conditions and a modified
 * setup, as data. The published Situations are downloads the rulebook does not print; these
 * are REPRESENTATIVE Situations written for Fieldpost (loosely after the map expansion's
 * scenarios) to exercise every kind of win condition the engine supports.
 */
const winConditionSchema = () =>
  z.discriminatedUnion('kind', [
    /** First to this many Victory Points. */
    z.object({ kind: z.literal('points'), target: z.number().int().min(1).max(500) }).strict(),
    /** An unopposed committed land unit at the end of this many consecutive turns. */
    z.object({ kind: z.literal('overrun'), turns: z.number().int().min(1).max(20) }).strict(),
    /** This seat wins if it still has a land unit in the battle area at the end of this turn. */
    z.object({ kind: z.literal('holdOut'), seat: sideSchema(), turns: z.number().int().min(1).max(100) }).strict(),
    /** This seat wins once it has destroyed or captured this many enemy units of these types. */
    z.object({ kind: z.literal('destroyTypes'), seat: sideSchema(), types: z.array(unitTypeSchema()).min(1), count: z.number().int().min(1).max(20) }).strict(),
  ]);

const placedSchema = () => z.object({ card: z.string(), crew: z.string().optional(), line: z.enum(['front', 'rear', 'air']).optional() }).strict();

/**
 * The shape of a Situation. The Situations below are typed data, not parsed when the module loads (issue 16):
 * tests/spearpoint/situations.test.ts holds each to what this schema's parse gives, which also proves it valid.
 */
export const situationSchema = /* @__PURE__ */ once(() =>
  z
    .object({
      id: z.string(),
      title: z.string(),
      objectives: z.object({ us: z.string(), de: z.string() }).strict(),
      winConditions: z.array(winConditionSchema()).min(1),
      deckPoints: z
        .object({ us: z.object({ min: z.number().int(), max: z.number().int() }), de: z.object({ min: z.number().int(), max: z.number().int() }) })
        .strict(),
      /** Units already in the battle area when the game starts (outside the Reserves decks). */
      startInPlay: z.object({ us: z.array(placedSchema()), de: z.array(placedSchema()) }).strict(),
      /** Modified rules: a side may commit aircraft only from this turn on. */
      rules: z
        .object({
          aircraftFromTurn: z
            .object({ us: z.number().int().min(1).optional(), de: z.number().int().min(1).optional() })
            .strict()
            .optional(),
        })
        .strict()
        .default({}),
    })
    .strict(),
);
export type Situation = z.infer<ReturnType<typeof situationSchema>>;

export const STANDARD: Situation = {
  id: 'standard',
  title: 'Standard Game',
  objectives: { us: 'Score 51 Victory Points or Overrun the enemy.', de: 'Score 51 Victory Points or Overrun the enemy.' },
  winConditions: [
    { kind: 'points', target: 51 },
    { kind: 'overrun', turns: 3 },
  ],
  deckPoints: { us: { min: 80, max: 100 }, de: { min: 80, max: 100 } },
  startInPlay: { us: [], de: [] },
  rules: {},
};

export const SITUATIONS: Readonly<Record<string, Situation>> = {
  standard: STANDARD,
  'tiger-hunt': {
    id: 'tiger-hunt',
    title: 'Tiger Hunt',
    objectives: {
      us: 'A Tiger is covering the village road. Knock out or capture one enemy tank.',
      de: 'Hold the road with the Tiger: score 25 Victory Points or Overrun the Americans.',
    },
    winConditions: [
      { kind: 'destroyTypes', seat: 'us', types: ['tank'], count: 1 },
      { kind: 'points', target: 25 },
      { kind: 'overrun', turns: 3 },
    ],
    deckPoints: { us: { min: 40, max: 60 }, de: { min: 20, max: 40 } },
    startInPlay: { us: [], de: [{ card: 'de-tiger-i', crew: 'de-tank-crew' }] },
    rules: {},
  },
  'hold-the-line': {
    id: 'hold-the-line',
    title: 'Hold the Line',
    objectives: {
      us: 'Dug-in riflemen and a 57mm gun must hold until relieved: keep a land unit in the battle area through turn 8.',
      de: 'Break the line before dark: score 51 Victory Points or Overrun the position. The Luftwaffe arrives on turn 3.',
    },
    winConditions: [
      { kind: 'holdOut', seat: 'us', turns: 8 },
      { kind: 'points', target: 51 },
      { kind: 'overrun', turns: 2 },
    ],
    deckPoints: { us: { min: 50, max: 80 }, de: { min: 80, max: 100 } },
    startInPlay: { us: [{ card: 'us-rifle-squad' }, { card: 'us-rifle-squad' }, { card: 'us-57mm-at-gun', crew: 'us-artillery-crew' }], de: [] },
    rules: { aircraftFromTurn: { de: 3 } },
  },
};
