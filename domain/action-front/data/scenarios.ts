import * as z from 'zod';
import { once } from '../../kernel/once.js';

/**
 * Scenario cards (004 Scenario Cards): map and orientation (which side's edge is the west
 * edge, column 1), who sets up first and who moves first, the forces with their entry turns,
 * set-up zones, off-map fire support, special rules, victory conditions and duration. 004 prints
 * no scenario card: the three below are REPRESENTATIVE; a club passes its own as
 * `options.scenarioCard`.
 */
export const SEATS = ['allies', 'axis'] as const;
export type Seat = (typeof SEATS)[number];
const seat = () => z.enum(SEATS);

const forceEntry = () =>
  z
    .object({
      unit: z.string().regex(/^[a-z0-9-]{1,40}$/),
      count: z.number().int().min(1).max(10).default(1),
      /** Game turn the unit arrives on its side's map edge; 1 (or absent): it sets up on the map. */
      entry: z.number().int().min(1).max(30).default(1),
    })
    .strict();
const support = () =>
  z
    .object({
      kind: z.enum(['artillery', 'naval', 'air']),
      name: z.string().min(1).max(60),
      hard: z.number().int().min(-9).max(9),
      soft: z.number().int().min(0).max(10),
      /** Special rule: the mission may not be used before this game turn (aircraft at first light, guns still coming up). */
      fromTurn: z.number().int().min(1).max(30).optional(),
    })
    .strict();
const side = () =>
  z
    .object({
      name: z.string().min(1).max(60),
      forces: z.array(forceEntry()).max(20),
      /** Set-up zone: the hexes within this many columns of the side's own edge. */
      setupColumns: z.number().int().min(1).max(30),
      /** Where its reinforcements arrive (004 End of Game Turn: the hexes the card indicates); absent: any hex of its own edge column. */
      entryHexes: z
        .array(z.string().regex(/^\d{4}$/))
        .min(1)
        .max(40)
        .optional(),
      support: z.array(support()).max(6),
    })
    .strict();
export const victorySchema = () =>
  z.discriminatedUnion('kind', [
    /** The side exits `count` troop units off the opponent's edge by the end of the last turn, or loses. */
    z.object({ kind: z.literal('exit'), side: seat(), count: z.number().int().min(1) }).strict(),
    /** The side holds `count` of the hexes (a troop unit there, no enemy) at the end of the last turn, or loses. */
    z.object({ kind: z.literal('hold'), side: seat(), hexes: z.array(z.string().regex(/^\d{4}$/)).min(1), count: z.number().int().min(1) }).strict(),
    /** More enemy steps eliminated at the end of the last turn wins; equal: a draw. */
    z.object({ kind: z.literal('steps') }).strict(),
  ]);
export const scenarioSchema = /* @__PURE__ */ once(() =>
  z
    .object({
      id: z.string().regex(/^[a-z0-9-]{1,40}$/),
      name: z.string().min(1).max(80),
      flavor: z.string().max(400),
      map: z.string(),
      west: seat(),
      setsUpFirst: seat(),
      movesFirst: seat(),
      sides: z.object({ allies: side(), axis: side() }).strict(),
      /** Special rule: units may not start Dug In (004 Select and place your forces, "unless … special rules"). */
      noDugInAtStart: z.boolean().default(false),
      /** Special rule: no line of sight is longer than this many hexes (a night action, fog). */
      visibility: z.number().int().min(1).max(30).optional(),
      /** Special rule: units of these types are emplaced and never move (nor are carried); they may still fire. */
      emplaced: z
        .array(z.string().regex(/^[a-z0-9-]{1,40}$/))
        .max(20)
        .optional(),
      turns: z.number().int().min(1).max(30),
      victory: victorySchema(),
    })
    .strict(),
);
export type ScenarioCard = z.infer<ReturnType<typeof scenarioSchema>>;

export const REPRESENTATIVE_SCENARIOS: readonly ScenarioCard[] = [
  {
    id: 'edsons-ridge',
    name: "Edson's Ridge",
    flavor:
      'Guadalcanal, September 1942: Marine raiders and engineers under Lt Col Edson hold the ridge south of the airfield against a night attack by the Kawaguchi detachment (the Pacific battle of 004’s worked examples).',
    map: 'guadalcanal-ridge',
    west: 'allies',
    setsUpFirst: 'allies',
    movesFirst: 'axis',
    sides: {
      allies: {
        name: 'US Marine Corps',
        forces: [
          { unit: 'usmc-raider', count: 2, entry: 1 },
          { unit: 'usmc-engineer', count: 1, entry: 1 },
          { unit: 'm2-hmg', count: 1, entry: 1 },
          { unit: 'm2a2-105', count: 1, entry: 1 },
          { unit: 'edson', count: 1, entry: 1 },
          { unit: 'usmc-rifle', count: 1, entry: 3 },
        ],
        setupColumns: 6,
        // The rifle company comes up the track from Lunga Point.
        entryHexes: ['0102', '0103'],
        support: [
          { kind: 'naval', name: '5-inch naval gun', hard: 2, soft: 7 },
          { kind: 'air', name: 'Cactus Air Force strike', hard: -2, soft: 6 },
        ],
      },
      axis: {
        name: 'Imperial Japanese Army',
        forces: [
          { unit: 'ija-infantry', count: 4, entry: 1 },
          { unit: 'ija-hmg', count: 1, entry: 1 },
          { unit: 'ija-mortar', count: 1, entry: 1 },
          { unit: 'ija-officer', count: 1, entry: 1 },
          { unit: 'ija-infantry', count: 2, entry: 2 },
        ],
        setupColumns: 3,
        // The second wave comes out of the jungle on the ridge's flank.
        entryHexes: ['1201', '1202', '1203'],
        support: [{ kind: 'artillery', name: '75mm mountain battery', hard: 0, soft: 5 }],
      },
    },
    noDugInAtStart: false,
    // Special rule: a night attack; nobody sees farther than five hexes.
    visibility: 5,
    turns: 6,
    victory: { kind: 'hold', side: 'axis', hexes: ['0604', '0704', '0705'], count: 1 },
  },
  {
    id: 'bocage',
    name: 'Hedgerow Duel',
    flavor: 'Normandy, July 1944: an American task force and a German battle group meet among the hedgerows; the side() that bleeds the other more wins.',
    map: 'normandy-bocage',
    west: 'allies',
    setsUpFirst: 'axis',
    movesFirst: 'allies',
    sides: {
      allies: {
        name: 'US Army',
        forces: [
          { unit: 'us-rifle', count: 2, entry: 1 },
          { unit: 'us-30cal', count: 1, entry: 1 },
          { unit: 'm4-sherman', count: 2, entry: 1 },
          { unit: 'us-lieutenant', count: 1, entry: 1 },
          { unit: 'us-rifle', count: 1, entry: 2 },
        ],
        setupColumns: 3,
        support: [{ kind: 'artillery', name: '105mm battalion', hard: 1, soft: 6 }],
      },
      axis: {
        name: 'Wehrmacht',
        forces: [
          { unit: 'de-grenadier', count: 2, entry: 1 },
          { unit: 'mg42', count: 1, entry: 1 },
          { unit: 'pz-iv', count: 1, entry: 1 },
          { unit: 'pak40', count: 1, entry: 1 },
          { unit: 'de-leutnant', count: 1, entry: 1 },
        ],
        setupColumns: 4,
        support: [],
      },
    },
    noDugInAtStart: false,
    // Special rule: the Pak 40 is emplaced in the hedgerow it covers and cannot be moved.
    emplaced: ['pak40'],
    turns: 6,
    victory: { kind: 'steps' },
  },
  {
    id: 'river-crossing',
    name: 'Over the River',
    flavor:
      'Germany, March 1945: American infantry with halftracks must force the one ford before the German rearguard can dig in; no time to prepare positions.',
    map: 'river-crossing',
    west: 'allies',
    setsUpFirst: 'axis',
    movesFirst: 'allies',
    sides: {
      allies: {
        name: 'US Army',
        forces: [
          { unit: 'us-rifle', count: 3, entry: 1 },
          { unit: 'm3-halftrack', count: 1, entry: 1 },
          { unit: 'us-81mm', count: 1, entry: 1 },
          { unit: 'us-lieutenant', count: 1, entry: 1 },
          { unit: 'm4-sherman', count: 1, entry: 2 },
        ],
        setupColumns: 2,
        support: [
          { kind: 'artillery', name: '155mm battery', hard: 2, soft: 7 },
          // Special rule: the river mist keeps the Thunderbolts away until turn 3.
          { kind: 'air', name: 'P-47 Thunderbolts', hard: 1, soft: 5, fromTurn: 3 },
        ],
      },
      axis: {
        name: 'Wehrmacht',
        forces: [
          { unit: 'de-grenadier', count: 2, entry: 1 },
          { unit: 'mg42', count: 1, entry: 1 },
          { unit: 'sdkfz-251', count: 1, entry: 1 },
          { unit: 'de-leutnant', count: 1, entry: 1 },
        ],
        setupColumns: 5,
        support: [],
      },
    },
    noDugInAtStart: true,
    turns: 7,
    victory: { kind: 'exit', side: 'allies', count: 1 },
  },
];
