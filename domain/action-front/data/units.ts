import * as z from 'zod';
import { once } from '../../kernel/once.js';
import { IJA_UNITS } from './units/ija.js';
import { US_ARMY_UNITS } from './units/us-army.js';
import { USMC_UNITS } from './units/usmc.js';
import { WEHRMACHT_UNITS } from './units/wehrmacht.js';

/**
 * Unit counters and the Unit Value Table (004 Unit Counters; Creating Your Own Scenarios, Pick
 * Your Forces). 004 prints no counters and no table: every value below is REPRESENTATIVE, except
 * where a worked example fixes it (M2 HMG −5/5, two steps, Rate of Fire +2; M2A2 105mm two steps;
 * IJA Infantry Training 2; the air strike −2/6). A club replaces the table with `options.units`.
 * One file a nationality, under units/.
 */
export const unitTypeSchema = /* @__PURE__ */ once(() =>
  z
    .object({
      id: z.string().regex(/^[a-z0-9-]{1,40}$/),
      name: z.string().min(1).max(60),
      /** Which forces list it belongs to, for the scenario builder ("usmc", "ija", "us-army", "wehrmacht"). */
      army: z.string().regex(/^[a-z0-9-]{1,20}$/),
      class: z.enum(['leg', 'towed', 'tracked', 'wheeled']),
      /** The infantry symbol: may enter enemy hexes to assault, draws an extra Assault card. */
      infantry: z.boolean(),
      /** A Leader's training bonus; absent for troop units. */
      leader: z.number().int().min(1).max(3).optional(),
      steps: z.number().int().min(1).max(4),
      rateOfFire: z.number().int().min(0).max(4),
      hard: z.number().int().min(-9).max(9),
      soft: z.number().int().min(0).max(10),
      range: z.number().int().min(0).max(20),
      training: z.number().int().min(0).max(5),
      /** Armour thickness; absent for unarmoured units. */
      armor: z.number().int().min(1).max(15).optional(),
      transport: z.boolean(),
      /** Hard/Soft Attack printed in red: may fire in the Indirect Fire Phase. */
      indirect: z.boolean(),
      points: z.number().int().min(1).max(80),
      /** Counters of it in the box: the most a builder force may take. */
      counters: z.number().int().min(1).max(20),
    })
    .strict(),
);
export type UnitType = z.infer<ReturnType<typeof unitTypeSchema>>;

/** REPRESENTATIVE Unit Value Table: the Pacific's forces, then Europe's. */
export const REPRESENTATIVE_UNITS: readonly UnitType[] = [...USMC_UNITS, ...IJA_UNITS, ...US_ARMY_UNITS, ...WEHRMACHT_UNITS];
