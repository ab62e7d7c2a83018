import * as z from 'zod';
import { once } from '../../kernel/once.js';
import { cardValue, suitOf, type Suit } from './cards.js';

/**
 * The Combat Results Tables Card and the Player Aid Card. 004 names these tables but does not
 * print them: the values below are REPRESENTATIVE, chosen so that every worked example in 004
 * comes out as printed, and a club replaces them whole with `options.tables`.
 */

/** An accuracy result: on target, or drift by n hexes (004 Resolving Artillery, step 4). */
const accuracy = () => z.string().regex(/^(hit|short-[1-3]|over-[1-3])$/, 'hit, short-1..3 or over-1..3');
/** One column of the Indirect Fire Table: a result per card number (Ace = 1) and per suit for face cards. */
const column = () =>
  z
    .object({
      numbers: z.array(accuracy()).length(10),
      faces: z.object({ C: accuracy(), D: accuracy(), H: accuracy(), S: accuracy() }).strict(),
    })
    .strict();
/** Suits as a string of letters ("DS"): which suits a table row shows. */
const suits = () => z.string().regex(/^[CDHS]*$/, 'suit letters C, D, H, S');
export type MoveClass = 'leg' | 'towed' | 'tracked' | 'wheeled';
const cost = () => z.number().int().min(1).max(9).nullable();
const byClass = () => z.object({ leg: cost(), towed: cost(), tracked: cost(), wheeled: cost() }).strict();
export const TERRAINS = ['clear', 'forest', 'jungle', 'building'] as const;
export type Terrain = (typeof TERRAINS)[number];

export const tablesSchema = /* @__PURE__ */ once(() =>
  z
    .object({
      /** Indirect Fire Table: the Artillery/Naval column and the Air Support column. */
      indirectFire: z.object({ artillery: column(), air: column() }).strict(),
      /** Suppression Table: per Training value 0..4 (lower clamps to 0, higher to 4), the suits that suppress. */
      suppression: z.array(suits()).length(5),
      /** Rally Table: per Training value 0..4, the suits that rally. */
      rally: z.array(suits()).length(5),
      /** Player Aid Card: movement points per movement class. */
      movementPoints: z
        .object({ leg: z.number().int().min(1), towed: z.number().int().min(1), tracked: z.number().int().min(1), wheeled: z.number().int().min(1) })
        .strict(),
      /** Terrain Effects Chart: movement points to enter (null: may not enter) and what is subtracted from attacks on a unit there. */
      terrain: z.object({
        clear: z.object({ move: byClass(), fire: z.number().int().min(0).max(5) }).strict(),
        forest: z.object({ move: byClass(), fire: z.number().int().min(0).max(5) }).strict(),
        jungle: z.object({ move: byClass(), fire: z.number().int().min(0).max(5) }).strict(),
        building: z.object({ move: byClass(), fire: z.number().int().min(0).max(5) }).strict(),
      }),
      /** Hexsides: extra movement points to cross (null: may not cross) and the attack penalty across a hill hexside from below. */
      river: byClass(),
      hillUp: byClass(),
      hillFire: z.number().int().min(0).max(5),
      /** Direct fire beyond this range loses one from both attack values (004 Fire: "greater than three hexes"). */
      longRange: z.number().int().min(1),
    })
    .strict(),
);
export type Tables = z.infer<ReturnType<typeof tablesSchema>>;
export type Accuracy = { kind: 'hit' } | { kind: 'short' | 'over'; hexes: number };

/** REPRESENTATIVE tables (labelled so in the view and in RULINGS.md). */
export const REPRESENTATIVE_TABLES: Tables = {
  indirectFire: {
    // 8♣ → Over 1 (105mm example); Q♦ → Over 2 (Bill's naval gun example).
    artillery: {
      numbers: ['hit', 'hit', 'hit', 'hit', 'hit', 'hit', 'short-1', 'over-1', 'short-2', 'over-2'],
      faces: { C: 'over-1', D: 'over-2', H: 'short-2', S: 'short-1' },
    },
    // J♦ → hit (air support example).
    air: {
      numbers: ['hit', 'hit', 'hit', 'hit', 'hit', 'hit', 'hit', 'short-1', 'over-1', 'short-2'],
      faces: { C: 'short-1', D: 'hit', H: 'over-1', S: 'over-2' },
    },
  },
  // Training 2: a Diamond suppresses (air example), a Heart does not (M2 HMG example).
  suppression: ['CDHS', 'CDS', 'DS', 'S', ''],
  rally: ['H', 'HD', 'HDC', 'HDCS', 'HDCS'],
  movementPoints: { leg: 3, towed: 1, tracked: 5, wheeled: 6 },
  terrain: {
    clear: { move: { leg: 1, towed: 1, tracked: 1, wheeled: 1 }, fire: 0 },
    forest: { move: { leg: 2, towed: null, tracked: 3, wheeled: null }, fire: 1 },
    jungle: { move: { leg: 2, towed: null, tracked: null, wheeled: null }, fire: 1 },
    building: { move: { leg: 1, towed: 2, tracked: 2, wheeled: 2 }, fire: 2 },
  },
  // A Tracked unit with 1 MP left cannot cross a river (004 Move example): crossing costs at least 1 more.
  river: { leg: 1, towed: 1, tracked: 1, wheeled: null },
  hillUp: { leg: 1, towed: null, tracked: 1, wheeled: 1 },
  // M2 HMG example: Soft Attack 5 becomes 4 firing across a hill hexside from a non-hill hex.
  hillFire: 1,
  longRange: 3,
};

/** The Indirect Fire Table's result for a card. */
export function accuracyOf(t: Tables, col: 'artillery' | 'air', card: string): Accuracy {
  const c = t.indirectFire[col];
  const v = cardValue(card);
  const raw = v === undefined ? c.faces[suitOf(card)] : c.numbers[v - 1]!;
  if (raw === 'hit') return { kind: 'hit' };
  const [kind, n] = raw.split('-') as ['short' | 'over', string];
  return { kind, hexes: Number(n) };
}

const row = (rows: readonly string[], training: number): string => rows[Math.max(0, Math.min(rows.length - 1, training))]!;

/** Suppression Table: does a hit with this suit suppress a unit of this (modified) Training? */
export const suppresses = (t: Tables, training: number, suit: Suit): boolean => row(t.suppression, training).includes(suit);

/** Rally Table: does this suit rally a unit of this (modified) Training? */
export const rallies = (t: Tables, training: number, suit: Suit): boolean => row(t.rally, training).includes(suit);
