import * as z from 'zod';
import { once } from '../kernel/once.js';
import type { Seat } from '../kernel/visibility.js';
import {
  BATTLEFIELD_IDS,
  KINDS,
  PLACED,
  SUPPLY_TYPES,
  TERRAIN_OF,
  type BattlefieldId,
  type Icon,
  type Kind,
  type Outcome,
  type ResultsTable,
  type SupplyCard,
  type SupplyCardId,
  type SupplyType,
} from './data.js';

export type Color = 'green' | 'red';
export const COLORS: readonly Color[] = ['green', 'red'];
export const otherColor = (c: Color): Color => (c === 'green' ? 'red' : 'green');

/** The rulebook reference every refusal names. */
export const RULE = 'Front Line (002)';

const cardId = () => z.enum(['balanced', 'centered', 'staggered']);
const month = () => z.tuple([z.number().int().min(0).max(8), z.number().int().min(0).max(8), z.number().int().min(0).max(8)]);
const cell = () =>
  z.object({ result: z.enum(['blitz', 'disrupt', 'rout', 'adv', 'miss']), icon: z.enum(['capital', 'airbase', 'industry', 'soldier']).optional() }).strict();
const column = () => z.array(cell()).length(6);
const tableSchema = () =>
  z
    .object({ range: z.tuple([column(), column(), column()]), adv: column() })
    .strict()
    .refine((t) => t.adv.every((x) => x.result !== 'adv'), { message: 'the Advantage column cannot send to itself (no ADV in it)' });

/** A country holds exactly one Capital, Air Base and Industry; cities lie only in the countries; water only in the middle. */
export function layoutProblems(rows: readonly string[]): string[] {
  const problems: string[] = [];
  for (const [name, cols] of [
    ['Green', [0, 1, 2]],
    ['Red', [7, 8, 9]],
  ] as const) {
    for (const letter of ['W', 'A', 'I']) {
      const n = rows.reduce((k, row) => k + cols.filter((c) => row[c] === letter).length, 0);
      if (n !== 1) problems.push(`${name}'s country needs exactly one '${letter}', not ${n}`);
    }
    if (rows.some((row) => cols.some((c) => row[c] === '~' || row[c] === 'o'))) problems.push(`${name}'s country may hold no water and no purple hex`);
  }
  if (rows.some((row) => [3, 4, 5, 6].some((c) => 'WAI'.includes(row[c]!)))) problems.push('cities lie in the countries, not the middle');
  return problems;
}

/** A recommended set-up places exactly the set-up's units (002 p.1: 9 Infantry, 4 Tanks, 2 Artillery), one a square. */
export function recommendedProblems(list: readonly { kind: Kind; square: string }[]): string[] {
  const problems = KINDS.flatMap((k) => {
    const n = list.filter((p) => p.kind === k).length;
    return n === PLACED[k] ? [] : [`the recommended set-up places ${PLACED[k]} ${k}, not ${n}`];
  });
  if (new Set(list.map((p) => p.square)).size !== list.length) problems.push('the recommended set-up places one unit a square');
  return problems;
}

/** Built on first use (a game's creation, the engine listing): a command never needs it (issue 16). */
export const optionsSchema = /* @__PURE__ */ once(() =>
  z
    .object({
      /** Which battlefield (002 p.B): the Strategy boards Main and Lake Nogo, the Tactics boards Mt. Range and The Great Desert. */
      battlefield: z.enum(BATTLEFIELD_IDS as [BattlefieldId, ...BattlefieldId[]]).default('main'),
      /** The four-player Allies game on two battlefields (002 p.E). */
      allies: z.boolean().default(false),
      /** Amphibious Move is optional in the two-player game and always on in Allies (002 p.1, p.E). */
      amphibious: z.boolean().default(true),
      /** Each colour's supply card (002 p.1 Setup; the first game uses Balanced). */
      supply: z.object({ green: cardId().optional(), red: cardId().optional() }).strict().default({}),
      /** A club's own supply card values, September … December, each [Air, Capital, Industry]. */
      supplyValues: z
        .object({
          balanced: z.array(month()).length(4).optional(),
          centered: z.array(month()).length(4).optional(),
          staggered: z.array(month()).length(4).optional(),
        })
        .strict()
        .optional(),
      /** A club's own Attack Results table (the built-in one is representative). */
      resultsTable: tableSchema().optional(),
      /** A club's own battlefield: six rows of ten layout letters (data.ts), replacing the chosen battlefield's. */
      layout: z
        .array(z.string().regex(new RegExp(`^[${[...TERRAIN_OF.keys()].join('').replace(/[.~]/g, '\\$&')}]{10}$`), 'ten layout letters'))
        .length(6)
        .superRefine((rows, ctx) => {
          for (const p of layoutProblems(rows)) ctx.addIssue({ code: 'custom', message: p });
        })
        .optional(),
      /** A club's own recommended set-up (its Items card): Green's 15 placements in columns A–C, Red's being the same turned half a circle. */
      recommended: z
        .array(z.object({ kind: z.enum(KINDS as [Kind, ...Kind[]]), square: z.string().regex(/^[ABC][1-6]$/, "a square of Green's country, A1–C6") }).strict())
        .superRefine((list, ctx) => {
          for (const p of recommendedProblems(list)) ctx.addIssue({ code: 'custom', message: p });
        })
        .optional(),
    })
    .strict()
    .refine((o) => !(o.allies && !o.amphibious), { message: 'Amphibious Move is not optional in the Allies game', path: ['amphibious'] }),
);
export type Options = z.infer<ReturnType<typeof optionsSchema>>;

const id = z.string().min(1).max(40);
const square = z.string().min(1).max(4);
const kind = z.enum(KINDS as [Kind, ...Kind[]]);
const stack = z.enum(SUPPLY_TYPES as [SupplyType, ...SupplyType[]]);

export const commandSchema = z.discriminatedUnion('type', [
  // Set-up (002 p.1)
  z.object({ type: z.literal('PlaceUnit'), kind, square }).strict(),
  z.object({ type: z.literal('PlaceRecommended') }).strict(),
  z.object({ type: z.literal('ClearSetup') }).strict(),
  z.object({ type: z.literal('FinishSetup') }).strict(),
  z.object({ type: z.literal('ChooseFirst'), seat: id }).strict(),
  // A turn (002 p.2)
  z.object({ type: z.literal('ChooseSupply'), stack }).strict(),
  z.object({ type: z.literal('EndTurn') }).strict(),
  // Regular actions
  z.object({ type: z.literal('Move'), unit: id, to: square }).strict(),
  z.object({ type: z.literal('AmphibiousMove'), unit: id, to: square }).strict(),
  z.object({ type: z.literal('Attack'), unit: id, target: square }).strict(),
  z.object({ type: z.literal('Commission') }).strict(),
  // Missions
  z.object({ type: z.literal('Build'), kind }).strict(),
  z.object({ type: z.literal('Paratroop'), unit: id, to: square }).strict(),
  z.object({ type: z.literal('Regroup'), unit: id }).strict(),
  // Leadership tasks
  z.object({ type: z.literal('Cache') }).strict(),
  z.object({ type: z.literal('Maneuver'), unit: id, to: square }).strict(),
  z.object({ type: z.literal('Relieve'), unit: id, with: id }).strict(),
  z.object({ type: z.literal('Rally') }).strict(),
  z.object({ type: z.literal('OpportunityFire'), unit: id }).strict(),
  // Allies
  z.object({ type: z.literal('SendSupport') }).strict(),
  // Answers within an attack
  z.object({ type: z.literal('UseEdge') }).strict(),
  z.object({ type: z.literal('ChooseDie'), die: z.enum(['white', 'yellow']) }).strict(),
  z.object({ type: z.literal('Retreat') }).strict(),
  z.object({ type: z.literal('Hold') }).strict(),
  z.object({ type: z.literal('RetreatTo'), square }).strict(),
  z.object({ type: z.literal('Displace') }).strict(),
  z.object({ type: z.literal('Pass') }).strict(),
]);
export type Command = z.infer<typeof commandSchema>;

export type Leadership = 'available' | 'exhausted' | 'commissioned';

export interface Unit {
  readonly id: string;
  readonly kind: Kind;
  readonly color: Color;
  /** The battlefield whose Reserve the unit starts in (0, or 1 for the second Allies battlefield). */
  readonly home: number;
  /** Its square, or null in Reserve (or not yet placed). */
  readonly sq: string | null;
  readonly active: boolean;
}

export interface Stack {
  readonly n: number;
  /** The stack's size when drawn: Cache never raises it above (002 p.5 Cache; RULINGS). */
  readonly max: number;
  /** A single Fallen chit: regular actions only (002 p.2). */
  readonly fallen: boolean;
  readonly used: boolean;
}

export interface SeatState {
  readonly id: Seat;
  readonly color: Color;
  readonly board: number;
  readonly card: SupplyCardId;
  readonly stacks: Readonly<Record<SupplyType, Stack>>;
  readonly leadership: Leadership;
  readonly setupDone: boolean;
}

export interface Attack {
  readonly attacker: string;
  readonly seat: Seat;
  /** The square attacked: an enemy unit's, or an empty unfriendly city's. */
  readonly target: string;
  readonly targetUnit: string | null;
  /** Paid with supply (a Regular action), so Rally applies and Opportunity Fire may follow; false for Opportunity Fire. */
  readonly supplied: boolean;
  readonly rallied: boolean;
  readonly white: number | null;
  readonly yellow: number | null;
  readonly rerolled: boolean;
  readonly die: 'white' | 'yellow' | null;
}

export type Topic = 'rally' | 'edge' | 'tank-die' | 'rout' | 'retreat-square' | 'displace' | 'rally-reward' | 'opportunity-fire' | 'send-support';

export interface Question {
  readonly id: string;
  readonly topic: Topic;
  readonly seat: Seat;
  /** The unit asked about: the target (rally, rout, reward), the mover of a displacement, the unit that used supply (opportunity fire). */
  readonly unit?: string;
  /** The square a displacement would enter; the squares a retreat may take. */
  readonly squares?: readonly string[];
  /** What the unit did with supply (opportunity fire), for standing orders. */
  readonly action?: string;
}

export interface Edge {
  /** The colour holding the Edge token, or null beside the Edge Is Off area. */
  readonly holder: Color | null;
  readonly on: boolean;
}

export interface Result {
  readonly winners: Color | null;
  readonly reason: string;
  readonly op: Readonly<Record<Color, number>>;
}

export interface State {
  readonly rulesVersion: number;
  readonly battlefield: BattlefieldId;
  readonly allies: boolean;
  readonly amphibious: boolean;
  readonly rows: readonly string[];
  /** Green's recommended set-up when one is offered (Red's is it turned half a circle); absent in states stored before the option existed. */
  readonly recommended?: readonly { readonly kind: Kind; readonly square: string }[] | null;
  readonly table: ResultsTable;
  readonly cards: Readonly<Record<SupplyCardId, SupplyCard>>;
  readonly boards: number;
  readonly seats: readonly SeatState[];
  readonly units: readonly Unit[];
  /** Squares holding a Fallen City marker. */
  readonly fallen: readonly string[];
  readonly edge: readonly Edge[];
  readonly phase: 'setup' | 'first' | 'play' | 'over';
  readonly decider: Seat | null;
  /** Turn order (002 p.1; Allies p.E: red, green, red, green). */
  readonly order: readonly Seat[];
  readonly first: number;
  readonly round: number;
  readonly turn: number;
  readonly chosen: { readonly stack: SupplyType; readonly n: number; readonly max: number; readonly fallen: boolean } | null;
  /** Actions each unit took this turn (002 p.2: at most two, never the same Regular action twice). */
  readonly acted: readonly { readonly unit: string; readonly action: string }[];
  readonly supportUsed: boolean;
  readonly attack: Attack | null;
  readonly question: Question | null;
  readonly qseq: number;
  /** Squares of the last action, for the picture. */
  readonly last: readonly string[];
  readonly result: Result | null;
}

export type Event =
  | { type: 'UnitPlaced'; seat: Seat; unit: string; square: string }
  | { type: 'SetupCleared'; seat: Seat }
  | { type: 'SetupFinished'; seat: Seat }
  | { type: 'SetupRevealed'; units: { unit: string; square: string }[] }
  | { type: 'FirstPlayerRolled'; die: number; decider: Seat }
  | { type: 'FirstPlayerChosen'; seat: Seat }
  | { type: 'RoundStarted'; round: number; month: string; supply: { seat: Seat; stacks: Record<SupplyType, Stack> }[] }
  | { type: 'SupplyChosen'; seat: Seat; stack: SupplyType; n: number; fallen: boolean }
  | { type: 'SupplySpent'; seat: Seat; n: number; action: string; unit: string | null }
  | { type: 'SupplyCached'; seat: Seat }
  | { type: 'LeadershipSet'; seat: Seat; to: Leadership; task?: string }
  | { type: 'UnitMoved'; unit: string; from: string; to: string; how: string }
  | { type: 'UnitsSwapped'; unit: string; with: string }
  | { type: 'UnitBuilt'; unit: string; square: string; cost: number }
  | { type: 'UnitFlipped'; unit: string; active: boolean; why: string }
  | { type: 'UnitBlitzed'; unit: string }
  | { type: 'AttackDeclared'; attack: Attack }
  | { type: 'Rallied'; seat: Seat; unit: string }
  | { type: 'DiceRolled'; white: number; yellow: number | null; reroll: boolean }
  | { type: 'EdgeUsed'; seat: Seat; board: number }
  | { type: 'DieChosen'; die: 'white' | 'yellow' }
  | { type: 'AttackResolved'; result: Outcome | 'taken'; icon: Icon | null; natural: Outcome | 'taken'; note: string }
  | { type: 'EdgeMoved'; board: number; holder: Color }
  | { type: 'AttackEnded' }
  | { type: 'Asked'; question: Question }
  | { type: 'Answered'; seat: Seat; topic: Topic; answer: string }
  | { type: 'CityFell'; square: string; seat: Seat }
  | { type: 'CityFreed'; square: string; seat: Seat }
  | { type: 'SupportSent'; seat: Seat; to: Seat }
  | { type: 'TurnEnded'; seat: Seat; discarded: number }
  | { type: 'GameOver'; winners: Color | null; reason: string; op: Record<Color, number> };
