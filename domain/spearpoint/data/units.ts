import type { z } from 'zod';
import type { unitCardSchema } from './schema.js';

/**
 * REPRESENTATIVE unit catalog for Frontline General: Spearpoint 1943 (US and German sides).
 *
 * The rulebook (001) and the map expansion (003) name these units and give a few of their
 * figures, but do not print the cards. Where a figure is given it is used here: the M4A1
 * Sherman has Defense 5 and Endurance 14/7 with a 75mm main gun of Damage Index 7 that hits
 * vehicles on 10; the Tiger I has Defense 7 and Endurance 24 with an 88mm of Damage Index 8;
 * the Panther's main gun hits vehicles on 10; costs run from 2 for a crew to 21 for a Tiger.
 * Every other number is a plausible stand-in chosen by Fieldpost, not the printed card.
 * A club replaces this file by loading its own catalog (see loadCatalog in catalog.ts).
 *
 * Attack values are the 2d10 sum needed to hit under each target icon; `bullets` marks the
 * underscored vehicle value (cannot affect base Defense 2+).
 */
type UnitInput = z.input<typeof unitCardSchema>;

const crew = (side: 'us' | 'de', kind: 'tank' | 'artillery' | 'pilot', title: string): UnitInput => ({
  id: `${side}-${kind === 'pilot' ? 'pilot' : `${kind}-crew`}`,
  side,
  title,
  type: 'crew',
  cost: 2,
  defense: 0,
  endurance: { full: 3, half: 1 },
  crewKind: kind,
  line: 'front',
  // Crews never fight in the card game (they are protected inside their unit); the map
  // expansion lets a crew outside its gun defend itself, so the card carries its small arms.
  weapons: [{ name: kind === 'pilot' ? 'Pistol' : 'Carbines', attack: { infantry: 13 }, damageIndex: 1, bullets: true }],
});

export const US_UNITS: UnitInput[] = [
  {
    id: 'us-rifle-squad', side: 'us', title: 'Rifle Squad', type: 'infantry', cost: 3, defense: 0, endurance: { full: 6, half: 3 }, line: 'front',
    weapons: [
      { name: 'M1 Garand Rifles', attack: { infantry: 9, vehicle: 15, aircraft: 18 }, damageIndex: 2, rateOfFire: 2, bullets: true },
      { name: 'Mk 2 Grenades', attack: { infantry: 11, vehicle: 16 }, damageIndex: 3 },
    ],
  },
  {
    id: 'us-30cal-lmg-team', side: 'us', title: '.30cal LMG Team', type: 'infantry', cost: 4, defense: 0, endurance: { full: 5, half: 2 }, line: 'front',
    weapons: [
      { name: '.30cal M1919 LMG', attack: { infantry: 8, vehicle: 13, aircraft: 15 }, damageIndex: 3, rateOfFire: 3, bullets: true },
      { name: 'M1 Carbines', attack: { infantry: 10, vehicle: 16 }, damageIndex: 1, bullets: true },
    ],
  },
  {
    id: 'us-sniper', side: 'us', title: 'Sniper', type: 'infantry', cost: 4, defense: 1, endurance: { full: 3, half: 1 }, line: 'front',
    weapons: [{ name: 'M1903 Springfield', attack: { infantry: 7, vehicle: 16 }, damageIndex: 5, bullets: true }],
  },
  {
    id: 'us-mortar-squad', side: 'us', title: 'Mortar Squad', type: 'infantry', cost: 5, defense: 0, endurance: { full: 5, half: 2 }, line: 'front',
    weapons: [
      { name: '60mm M2 Mortar', attack: { infantry: 10, vehicle: 14 }, damageIndex: 4, rateOfFire: 2 },
      { name: 'M1 Carbines', attack: { infantry: 11, vehicle: 16 }, damageIndex: 1, bullets: true },
    ],
  },
  {
    id: 'us-bazooka-team', side: 'us', title: 'Bazooka Team', type: 'infantry', cost: 4, defense: 0, endurance: { full: 4, half: 2 }, line: 'front',
    weapons: [
      { name: 'M1 Bazooka', attack: { infantry: 14, vehicle: 10 }, damageIndex: 6 },
      { name: 'M1 Carbines', attack: { infantry: 11, vehicle: 16 }, damageIndex: 1, bullets: true },
    ],
  },
  {
    id: 'us-57mm-at-gun', side: 'us', title: '57mm AT Gun', type: 'gun', cost: 6, defense: 2, endurance: { full: 8, half: 4 }, crew: 'artillery', line: 'front',
    weapons: [{ name: '57mm M1 Gun', attack: { infantry: 13, vehicle: 10 }, damageIndex: 6, rateOfFire: 2 }],
  },
  {
    id: 'us-105mm-howitzer', side: 'us', title: '105mm Howitzer', type: 'artillery', cost: 8, defense: 2, endurance: { full: 10, half: 5 }, crew: 'artillery', line: 'rear',
    weapons: [{ name: '105mm M2A1 Howitzer', attack: { infantry: 10, vehicle: 13 }, damageIndex: 7 }],
  },
  {
    id: 'us-8in-howitzer', side: 'us', title: '8in Howitzer', type: 'artillery', cost: 12, defense: 2, endurance: { full: 12, half: 6 }, crew: 'artillery', line: 'rear',
    weapons: [{ name: '8in M1 Howitzer', attack: { infantry: 11, vehicle: 13 }, damageIndex: 10 }],
  },
  {
    id: 'us-m7-priest', side: 'us', title: 'M7 Priest', type: 'artillery', cost: 12, defense: 3, endurance: { full: 12, half: 6 }, crew: 'artillery', line: 'either',
    weapons: [
      { name: '105mm M2A1 Howitzer', attack: { infantry: 10, vehicle: 13 }, damageIndex: 7 },
      { name: '.50cal M2HB MG', attack: { infantry: 10, vehicle: 15, aircraft: 13 }, damageIndex: 3, rateOfFire: 2, bullets: true },
    ],
  },
  {
    id: 'us-m10', side: 'us', title: 'M10 Tank Destroyer', type: 'vehicle', cost: 12, defense: 4, endurance: { full: 12, half: 6 }, crew: 'tank', line: 'front',
    weapons: [
      { name: '3in M7 Gun', attack: { infantry: 12, vehicle: 9 }, damageIndex: 7 },
      { name: '.50cal M2HB MG', attack: { infantry: 10, vehicle: 15, aircraft: 13 }, damageIndex: 3, rateOfFire: 2, bullets: true },
    ],
  },
  {
    id: 'us-m4a1-sherman', side: 'us', title: 'M4A1 Sherman', type: 'tank', cost: 13, defense: 5, endurance: { full: 14, half: 7 }, crew: 'tank', line: 'front',
    weapons: [
      { name: '75mm M3 Gun', attack: { infantry: 11, vehicle: 10 }, damageIndex: 7 },
      { name: '.50cal M2HB MG', attack: { infantry: 10, vehicle: 15, aircraft: 13 }, damageIndex: 3, rateOfFire: 2, bullets: true },
      { name: '.30cal MGs', attack: { infantry: 9, vehicle: 15 }, damageIndex: 2, rateOfFire: 2, bullets: true },
    ],
  },
  {
    id: 'us-p40-warhawk', side: 'us', title: 'P-40 Warhawk', type: 'aircraft', cost: 12, defense: 1, endurance: { full: 8, half: 4 }, crew: 'pilot', line: 'none', turnsOfFlight: 2,
    weapons: [
      { name: '.50cal MGs', attack: { infantry: 10, vehicle: 14, aircraft: 11 }, damageIndex: 4, rateOfFire: 3, bullets: true },
      { name: '500lb Bomb', attack: { infantry: 9, vehicle: 11 }, damageIndex: 10, bombs: true },
    ],
  },
  {
    id: 'us-p38-lightning', side: 'us', title: 'P-38 Lightning', type: 'aircraft', cost: 14, defense: 1, endurance: { full: 10, half: 5 }, crew: 'pilot', line: 'none', turnsOfFlight: 3,
    weapons: [
      { name: '20mm Hispano Cannon', attack: { infantry: 10, vehicle: 12, aircraft: 11 }, damageIndex: 5, rateOfFire: 2 },
      { name: '.50cal MGs', attack: { infantry: 10, vehicle: 14, aircraft: 11 }, damageIndex: 4, rateOfFire: 2, bullets: true },
      { name: '1000lb Bomb', attack: { infantry: 9, vehicle: 11 }, damageIndex: 12, bombs: true },
    ],
  },
  crew('us', 'tank', 'Tank Crew'),
  crew('us', 'artillery', 'Artillery Crew'),
  crew('us', 'pilot', 'Pilot'),
];

export const DE_UNITS: UnitInput[] = [
  {
    id: 'de-rifle-squad', side: 'de', title: 'Rifle Squad', type: 'infantry', cost: 3, defense: 0, endurance: { full: 6, half: 3 }, line: 'front',
    weapons: [
      { name: 'Kar98k Rifles', attack: { infantry: 9, vehicle: 15, aircraft: 18 }, damageIndex: 2, rateOfFire: 2, bullets: true },
      { name: 'Stielhandgranaten', attack: { infantry: 11, vehicle: 16 }, damageIndex: 3 },
    ],
  },
  {
    id: 'de-mg42-team', side: 'de', title: 'MG-42 Team', type: 'infantry', cost: 5, defense: 0, endurance: { full: 5, half: 2 }, line: 'front',
    weapons: [
      { name: 'MG-42', attack: { infantry: 7, vehicle: 13, aircraft: 15 }, damageIndex: 3, rateOfFire: 4, bullets: true },
      { name: 'Pistols', attack: { infantry: 12 }, damageIndex: 1, bullets: true },
    ],
  },
  {
    id: 'de-sniper', side: 'de', title: 'Sniper', type: 'infantry', cost: 4, defense: 1, endurance: { full: 3, half: 1 }, line: 'front',
    weapons: [{ name: 'Kar98k with Scope', attack: { infantry: 7, vehicle: 16 }, damageIndex: 5, bullets: true }],
  },
  {
    id: 'de-mortar-squad', side: 'de', title: 'Mortar Squad', type: 'infantry', cost: 5, defense: 0, endurance: { full: 5, half: 2 }, line: 'front',
    weapons: [
      { name: '8cm GrW 34 Mortar', attack: { infantry: 10, vehicle: 14 }, damageIndex: 5, rateOfFire: 2 },
      { name: 'Kar98k Rifles', attack: { infantry: 11, vehicle: 16 }, damageIndex: 1, bullets: true },
    ],
  },
  {
    id: 'de-panzerschreck-team', side: 'de', title: 'Panzerschreck Team', type: 'infantry', cost: 5, defense: 0, endurance: { full: 4, half: 2 }, line: 'front',
    weapons: [
      { name: 'Panzerschreck', attack: { infantry: 14, vehicle: 9 }, damageIndex: 7 },
      { name: 'MP 40', attack: { infantry: 10 }, damageIndex: 1, rateOfFire: 2, bullets: true },
    ],
  },
  {
    id: 'de-88mm-flak-36', side: 'de', title: '8.8cm FlaK 36', type: 'artillery', cost: 14, defense: 2, endurance: { full: 12, half: 6 }, crew: 'artillery', line: 'rear',
    weapons: [{ name: '8.8cm FlaK 36', attack: { infantry: 11, vehicle: 9, aircraft: 10 }, damageIndex: 8, rateOfFire: 2 }],
  },
  {
    id: 'de-15cm-sfh-18', side: 'de', title: '15cm sFH 18', type: 'artillery', cost: 12, defense: 2, endurance: { full: 12, half: 6 }, crew: 'artillery', line: 'rear',
    weapons: [{ name: '15cm sFH 18 Howitzer', attack: { infantry: 11, vehicle: 13 }, damageIndex: 10 }],
  },
  {
    id: 'de-tiger-i', side: 'de', title: 'PzKpfw VI Tiger I', type: 'tank', cost: 21, defense: 7, endurance: { full: 24, half: 12 }, crew: 'tank', line: 'front',
    weapons: [
      { name: '8.8cm KwK 36', attack: { infantry: 11, vehicle: 9 }, damageIndex: 8 },
      { name: 'MG 34s', attack: { infantry: 9, vehicle: 15, aircraft: 16 }, damageIndex: 2, rateOfFire: 2, bullets: true },
    ],
  },
  {
    id: 'de-panther', side: 'de', title: 'PzKpfw V Ausf. A Panther', type: 'tank', cost: 18, defense: 6, endurance: { full: 20, half: 10 }, crew: 'tank', line: 'front',
    weapons: [
      { name: '7.5cm KwK 42', attack: { infantry: 11, vehicle: 10 }, damageIndex: 8 },
      { name: 'MG 34s', attack: { infantry: 9, vehicle: 15, aircraft: 16 }, damageIndex: 2, rateOfFire: 2, bullets: true },
    ],
  },
  {
    id: 'de-pantherturm-i', side: 'de', title: 'Pantherturm I', type: 'gun', cost: 14, defense: 6, endurance: { full: 18, half: 9 }, crew: 'artillery', line: 'front',
    weapons: [
      { name: '7.5cm KwK 42', attack: { infantry: 11, vehicle: 10 }, damageIndex: 8 },
      { name: 'MG 34', attack: { infantry: 9, vehicle: 15 }, damageIndex: 2, rateOfFire: 2, bullets: true },
    ],
  },
  {
    id: 'de-bf109', side: 'de', title: 'Bf 109', type: 'aircraft', cost: 12, defense: 1, endurance: { full: 8, half: 4 }, crew: 'pilot', line: 'none', turnsOfFlight: 2,
    weapons: [
      { name: '20mm MG 151 Cannon', attack: { infantry: 10, vehicle: 12, aircraft: 11 }, damageIndex: 5, rateOfFire: 2 },
      { name: '7.92mm MG 17s', attack: { infantry: 10, vehicle: 14, aircraft: 12 }, damageIndex: 3, rateOfFire: 2, bullets: true },
      { name: '250kg Bomb', attack: { infantry: 9, vehicle: 11 }, damageIndex: 10, bombs: true },
    ],
  },
  {
    id: 'de-ju87-stuka', side: 'de', title: 'Ju 87 Stuka', type: 'aircraft', cost: 13, defense: 1, endurance: { full: 9, half: 4 }, crew: 'pilot', line: 'none', turnsOfFlight: 2,
    weapons: [
      { name: '500kg Bomb', attack: { infantry: 8, vehicle: 10 }, damageIndex: 12, bombs: true },
      { name: '7.92mm MG 17s', attack: { infantry: 10, vehicle: 14, aircraft: 13 }, damageIndex: 3, rateOfFire: 2, bullets: true },
    ],
  },
  crew('de', 'tank', 'Tank Crew'),
  crew('de', 'artillery', 'Artillery Crew'),
  crew('de', 'pilot', 'Luftwaffe Pilot'),
];
