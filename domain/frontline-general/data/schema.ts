import * as z from 'zod';
import { once } from '../../kernel/once.js';

/**
 * The shape of Spearpoint 1943 card data. The rulebook (001) describes what a card
 * carries without printing the catalog, so the engine reads every number from data
 * validated here, and a club may load its own printed values instead of ours.
 *
 * Each schema is built on its first use, not when the module loads (issue 16): only a club's own catalog is
 * validated while playing (loadCatalog), so a first command of a game on the built-in catalog
 * builds none of them.
 */

export const SIDES = ['us', 'de'] as const;
export const sideSchema = /* @__PURE__ */ once(() => z.enum(SIDES));
export type Side = (typeof SIDES)[number];

export const UNIT_TYPES = ['infantry', 'tank', 'vehicle', 'artillery', 'gun', 'aircraft', 'crew'] as const;
export const unitTypeSchema = /* @__PURE__ */ once(() => z.enum(UNIT_TYPES));
export type UnitType = (typeof UNIT_TYPES)[number];

/** Crew kinds: what a crewed unit requires and what a crew card supplies. */
export const crewKindSchema = /* @__PURE__ */ once(() => z.enum(['tank', 'artillery', 'pilot']));

const attackValue = /* @__PURE__ */ once(() => z.number().int().min(2).max(20));

/**
 * Attack values under the three attack icons: infantry, vehicles (tanks, vehicles, guns and
 * artillery are all attacked under this icon) and aircraft. A missing value means the weapon
 * cannot affect that kind of target (001 Combat Phase: Target Declaration).
 */
export const attackValuesSchema = /* @__PURE__ */ once(() =>
  z.object({ infantry: attackValue().optional(), vehicle: attackValue().optional(), aircraft: attackValue().optional() }).strict(),
);

export const weaponSchema = /* @__PURE__ */ once(() =>
  z
    .object({
      name: z.string().min(1),
      attack: attackValuesSchema(),
      damageIndex: z.number().int().min(0).max(20),
      /** 1, or the 2X/3X/4X high rate of fire printed next to the weapon. */
      rateOfFire: z.number().int().min(1).max(4).default(1),
      /** Underscored vehicle value: bullets cannot affect a unit of base Defense 2 or more. */
      bullets: z.boolean().default(false),
      /** Bombs: usable for one attack per aircraft flight. */
      bombs: z.boolean().default(false),
    })
    .strict()
    .refine((w) => w.attack.infantry !== undefined || w.attack.vehicle !== undefined || w.attack.aircraft !== undefined, {
      message: 'a weapon needs an attack value for at least one target type',
      path: ['attack'],
    }),
);
export type Weapon = z.infer<ReturnType<typeof weaponSchema>>;

export const unitCardSchema = /* @__PURE__ */ once(() =>
  z
    .object({
      id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'ids are lower-case letters, digits and dashes'),
      side: sideSchema(),
      title: z.string().min(1),
      type: unitTypeSchema(),
      cost: z.number().int().min(1).max(40),
      defense: z.number().int().min(0).max(15),
      endurance: z.object({ full: z.number().int().min(1).max(60), half: z.number().int().min(1).max(30) }).strict(),
      /** The crew this unit needs to function ('none' is the card's N/C). */
      crew: z.enum(['none', 'tank', 'artillery', 'pilot']).default('none'),
      /** For crew cards: which units they can crew. */
      crewKind: crewKindSchema().optional(),
      /** Commitment line printed under the title; 'either' is mobile artillery, 'none' aircraft. */
      line: z.enum(['front', 'rear', 'either', 'none']),
      turnsOfFlight: z.number().int().min(1).max(8).optional(),
      weapons: z.array(weaponSchema()).max(4).default([]),
    })
    .strict()
    .superRefine((u, ctx) => {
      const bad = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
      if (u.endurance.half > u.endurance.full) bad('endurance', 'half endurance cannot exceed full endurance');
      if (u.type === 'aircraft') {
        if (u.line !== 'none') bad('line', 'aircraft are committed to no line');
        if (u.turnsOfFlight === undefined) bad('turnsOfFlight', 'aircraft need turns of flight');
        if (u.crew !== 'pilot') bad('crew', 'aircraft need a pilot');
      } else {
        if (u.line === 'none') bad('line', 'only aircraft are committed to no line');
        if (u.turnsOfFlight !== undefined) bad('turnsOfFlight', 'only aircraft have turns of flight');
      }
      if (u.type === 'crew') {
        if (u.crewKind === undefined) bad('crewKind', 'a crew card says which units it crews');
        if (u.crew !== 'none') bad('crew', 'a crew does not need a crew');
      } else if (u.crewKind !== undefined) bad('crewKind', 'only crew cards have a crew kind');
      if (u.line === 'either' && u.type !== 'artillery') bad('line', 'only mobile artillery may use either line');
      if (u.type !== 'crew' && u.type !== 'aircraft' && u.weapons.length === 0) bad('weapons', 'a fighting unit needs at least one weapon');
    }),
);
export type UnitCard = z.infer<ReturnType<typeof unitCardSchema>>;

/**
 * What a command card does. The engine implements each kind; the card's printed unit
 * types say which units it may be played on (001 Gameplay: Command cards).
 */
export const commandEffectSchema = /* @__PURE__ */ once(() =>
  z.discriminatedUnion('kind', [
    /** +Defense for the unit it is played on. */
    z.object({ kind: z.literal('defense'), amount: z.number().int().min(1).max(6) }).strict(),
    /** Enemy attacks against the unit need this much more to hit. */
    z.object({ kind: z.literal('concealment'), amount: z.number().int().min(1).max(6) }).strict(),
    /** The unit's own attacks need this much less to hit. */
    z.object({ kind: z.literal('accuracy'), amount: z.number().int().min(1).max(6) }).strict(),
    /** Added to the Intensity of the unit's hits. */
    z.object({ kind: z.literal('intensity'), amount: z.number().int().min(1).max(6) }).strict(),
    /** Extra attack rolls for each weapon of the unit. */
    z.object({ kind: z.literal('rateOfFire'), amount: z.number().int().min(1).max(3) }).strict(),
    /** Side-wide: added to the Initiative roll. */
    z.object({ kind: z.literal('initiative'), amount: z.number().int().min(1).max(6) }).strict(),
    /** Side-wide: enemy attacks on your front-line units of the printed types need more to hit. */
    z.object({ kind: z.literal('smoke'), amount: z.number().int().min(1).max(6) }).strict(),
    /** Side-wide: draw unit cards from your Reserves into your hand. */
    z.object({ kind: z.literal('reinforce'), units: z.number().int().min(1).max(3) }).strict(),
    /** Side-wide: draw more command cards. */
    z.object({ kind: z.literal('resupply'), commands: z.number().int().min(1).max(3) }).strict(),
    /** Return one of your committed units (and its crew) to your hand. */
    z.object({ kind: z.literal('withdraw') }).strict(),
    /** Remove the Damage card from one of your units: it is back at Full Endurance. */
    z.object({ kind: z.literal('repair') }).strict(),
    /** An enemy unit of the printed types may not attack this turn. */
    z.object({ kind: z.literal('sabotage') }).strict(),
    /** Try to capture a damaged enemy crewed unit: 1d10 of at least minRoll succeeds. */
    z.object({ kind: z.literal('capture'), minRoll: z.number().int().min(1).max(10) }).strict(),
  ]),
);
export type CommandEffect = z.infer<ReturnType<typeof commandEffectSchema>>;
export type CommandEffectKind = CommandEffect['kind'];

export const commandCardSchema = /* @__PURE__ */ once(() =>
  z
    .object({
      id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/),
      title: z.string().min(1),
      appliesTo: z.array(unitTypeSchema().exclude(['crew'])).min(1),
      /** When it is played: with the commitment order, or with the target declaration. */
      phase: z.enum(['commitment', 'declaration']),
      /** 'turn' ends at the end of this turn's combat phase; 'permanent' lasts until the unit leaves play. */
      duration: z.enum(['turn', 'permanent']),
      effect: commandEffectSchema(),
      text: z.string().min(1),
    })
    .strict(),
);
export type CommandCard = z.infer<ReturnType<typeof commandCardSchema>>;

/** The edge of a Damage card that applies, by the damaged unit's type icon. */
export const DAMAGE_EDGES = ['infantry', 'vehicle', 'artillery', 'aircraft'] as const;
export type DamageEdge = (typeof DAMAGE_EDGES)[number];

export const damageEffectSchema = /* @__PURE__ */ once(() =>
  z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('none'), name: z.string().min(1) }).strict(),
    /** May not declare attacks for this many turns (the card's built-in counter). */
    z.object({ kind: z.literal('shaken'), name: z.string().min(1), turns: z.number().int().min(1).max(5) }).strict(),
    /** Its attacks need this much more to hit, for the rest of the game. */
    z.object({ kind: z.literal('accuracyLoss'), name: z.string().min(1), amount: z.number().int().min(1).max(6) }).strict(),
    z.object({ kind: z.literal('defenseLoss'), name: z.string().min(1), amount: z.number().int().min(1).max(6) }).strict(),
    /** Cannot be withdrawn or change lines. */
    z.object({ kind: z.literal('immobilized'), name: z.string().min(1) }).strict(),
    /** The weapon at this position (0 = first listed) no longer fires. */
    z.object({ kind: z.literal('weaponLost'), name: z.string().min(1), weapon: z.number().int().min(0).max(3) }).strict(),
    /**
     * The crew is killed; the unit stands idle until a replacement crew is committed. Rules version 2
     * only: from version 3 the engine refuses it (001 protects the crew of a unit that survives).
     */
    z.object({ kind: z.literal('crewCasualty'), name: z.string().min(1) }).strict(),
    /** Aircraft: returns to base at the end of this combat phase. */
    z.object({ kind: z.literal('fuelLeak'), name: z.string().min(1) }).strict(),
    /** Destroyed outright, with its crew. */
    z.object({ kind: z.literal('explodes'), name: z.string().min(1) }).strict(),
  ]),
);

export const damageCardSchema = /* @__PURE__ */ once(() =>
  z
    .object({
      id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/),
      title: z.string().min(1),
      effects: z
        .object({ infantry: damageEffectSchema(), vehicle: damageEffectSchema(), artillery: damageEffectSchema(), aircraft: damageEffectSchema() })
        .strict(),
    })
    .strict(),
);
export type DamageCard = z.infer<ReturnType<typeof damageCardSchema>>;

export const COMMAND_DECK_SIZE = 50;
export const DAMAGE_DECK_SIZE = 25;

export const catalogSchema = /* @__PURE__ */ once(() =>
  z
    .object({
      name: z.string().min(1),
      units: z.array(unitCardSchema()).min(1),
      commandCards: z.array(commandCardSchema()).length(COMMAND_DECK_SIZE),
      damageCards: z.array(damageCardSchema()).length(DAMAGE_DECK_SIZE),
    })
    .strict(),
);

export interface Catalog {
  readonly name: string;
  readonly units: readonly UnitCard[];
  readonly commandCards: readonly CommandCard[];
  readonly damageCards: readonly DamageCard[];
}
