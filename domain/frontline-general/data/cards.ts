import type { z } from 'zod';
import type { commandCardSchema, damageCardSchema, damageEffectSchema } from './schema.js';

/**
 * REPRESENTATIVE Command and Damage decks for Spearpoint 1943.
 *
 * The rulebooks name fifteen command cards (all designs below except Field Repairs and
 * Resupply, which Fieldpost added) and several damage effects (Immobilized, Crew Casualty,
 * Shaken and Fire Control Damage among them) without printing their text. The effects, counts and numbers below are Fieldpost's stand-ins, written so each
 * card does something the engine enforces; a club replaces them with its own catalog file.
 * The Command deck has 50 cards and the Damage deck 25, as the setup rules require.
 */
type CommandInput = z.input<ReturnType<typeof commandCardSchema>>;
type DamageInput = z.input<ReturnType<typeof damageCardSchema>>;
type DamageEffectInput = z.input<ReturnType<typeof damageEffectSchema>>;

const GROUND = ['infantry', 'tank', 'vehicle', 'artillery', 'gun'] as const;
const ARMOR = ['tank', 'vehicle'] as const;
const CREWED_GROUND = ['tank', 'vehicle', 'artillery', 'gun'] as const;

/** One printed card design and how many copies the deck holds. */
const designs: { copies: number; card: Omit<CommandInput, 'id'> }[] = [
  {
    copies: 4,
    card: {
      title: 'Field Camouflage',
      appliesTo: ['infantry', 'gun', 'artillery'],
      phase: 'commitment',
      duration: 'permanent',
      effect: { kind: 'concealment', amount: 2 },
      text: 'Play on one of your infantry, guns or artillery: enemy attacks against it need 2 more to hit while it stays in play.',
    },
  },
  {
    copies: 4,
    card: {
      title: 'Hull Down',
      appliesTo: [...ARMOR],
      phase: 'commitment',
      duration: 'permanent',
      effect: { kind: 'defense', amount: 2 },
      text: 'Play on one of your tanks or tank destroyers: Defense +2 while it stays in play.',
    },
  },
  {
    copies: 3,
    card: {
      title: 'Ambush!',
      appliesTo: ['infantry', 'gun', 'tank', 'vehicle'],
      phase: 'declaration',
      duration: 'turn',
      effect: { kind: 'initiative', amount: 3 },
      text: 'Play with your target declaration while you have a front-line unit of these types: +3 to your Initiative roll this turn.',
    },
  },
  {
    copies: 3,
    card: {
      title: 'Commit Reserves',
      appliesTo: [...GROUND, 'aircraft'],
      phase: 'commitment',
      duration: 'turn',
      effect: { kind: 'reinforce', units: 2 },
      text: 'Play with your commitment order: draw the top 2 unit cards of your Reserves deck into your hand.',
    },
  },
  {
    copies: 3,
    card: {
      title: 'Withdraw',
      appliesTo: [...GROUND, 'aircraft'],
      phase: 'commitment',
      duration: 'turn',
      effect: { kind: 'withdraw' },
      text: 'Return one of your committed units, with its crew, to your hand. Immobilized units cannot withdraw.',
    },
  },
  {
    copies: 4,
    card: {
      title: 'Dig In',
      appliesTo: ['infantry', 'gun'],
      phase: 'commitment',
      duration: 'permanent',
      effect: { kind: 'defense', amount: 2 },
      text: 'Play on one of your infantry or guns: Defense +2 while it stays in play.',
    },
  },
  {
    copies: 3,
    card: {
      title: 'Lay Smoke',
      appliesTo: ['infantry', 'tank', 'vehicle', 'gun'],
      phase: 'declaration',
      duration: 'turn',
      effect: { kind: 'smoke', amount: 3 },
      text: 'Play with your target declaration: enemy attacks on your front-line infantry, tanks, vehicles and guns need 3 more to hit this turn.',
    },
  },
  {
    copies: 3,
    card: {
      title: 'Capture That Unit!',
      appliesTo: [...CREWED_GROUND],
      phase: 'commitment',
      duration: 'turn',
      effect: { kind: 'capture', minRoll: 6 },
      text: 'Target a damaged enemy crewed ground unit while you have infantry on your front line: on 1d10 of 6 or more it is captured with its crew.',
    },
  },
  {
    copies: 2,
    card: {
      title: 'Fighter Ace',
      appliesTo: ['aircraft'],
      phase: 'commitment',
      duration: 'permanent',
      effect: { kind: 'accuracy', amount: 2 },
      text: 'Play on one of your aircraft: its attacks need 2 less to hit while it flies.',
    },
  },
  {
    copies: 3,
    card: {
      title: 'Fire Mission!',
      appliesTo: ['artillery'],
      phase: 'declaration',
      duration: 'turn',
      effect: { kind: 'rateOfFire', amount: 1 },
      text: 'Play on one of your artillery units: each weapon it fires rolls one extra attack this turn.',
    },
  },
  {
    copies: 3,
    card: {
      title: 'Fire for Effect!',
      appliesTo: ['artillery'],
      phase: 'declaration',
      duration: 'turn',
      effect: { kind: 'intensity', amount: 3 },
      text: 'Play on one of your artillery units: +3 to the Intensity of its hits this turn.',
    },
  },
  {
    copies: 3,
    card: {
      title: 'Sabotage',
      appliesTo: ['tank', 'vehicle', 'artillery', 'gun', 'aircraft'],
      phase: 'declaration',
      duration: 'turn',
      effect: { kind: 'sabotage' },
      text: 'Target an enemy tank, vehicle, gun, artillery unit or aircraft: it may not attack this turn.',
    },
  },
  {
    copies: 3,
    card: {
      title: 'Zero In Artillery',
      appliesTo: ['artillery'],
      phase: 'declaration',
      duration: 'turn',
      effect: { kind: 'accuracy', amount: 2 },
      text: 'Play on one of your artillery units: its attacks need 2 less to hit this turn.',
    },
  },
  {
    copies: 3,
    card: {
      title: 'Veteran Crew',
      appliesTo: [...CREWED_GROUND],
      phase: 'commitment',
      duration: 'permanent',
      effect: { kind: 'accuracy', amount: 1 },
      text: 'Play on one of your crewed tanks, vehicles, guns or artillery: its attacks need 1 less to hit while it stays in play.',
    },
  },
  {
    copies: 3,
    card: {
      title: 'Veteran Soldiers',
      appliesTo: ['infantry'],
      phase: 'commitment',
      duration: 'permanent',
      effect: { kind: 'accuracy', amount: 1 },
      text: 'Play on one of your infantry units: its attacks need 1 less to hit while it stays in play.',
    },
  },
  {
    copies: 2,
    card: {
      title: 'Field Repairs',
      appliesTo: [...CREWED_GROUND],
      phase: 'commitment',
      duration: 'turn',
      effect: { kind: 'repair' },
      text: 'Remove the Damage card from one of your tanks, vehicles, guns or artillery: it is back at Full Endurance.',
    },
  },
  {
    copies: 1,
    card: {
      title: 'Resupply',
      appliesTo: [...GROUND],
      phase: 'commitment',
      duration: 'turn',
      effect: { kind: 'resupply', commands: 2 },
      text: 'Play with your commitment order while you have a unit in play: draw 2 Command cards.',
    },
  },
];

export const COMMAND_CARDS: CommandInput[] = designs
  .flatMap(({ copies, card }) => Array.from({ length: copies }, () => card))
  .map((card, i) => ({ id: `cmd-${String(i + 1).padStart(2, '0')}`, ...card }));

const none = (name: string): DamageEffectInput => ({ kind: 'none', name });
const shaken = (turns: number, name = 'Shaken'): DamageEffectInput => ({ kind: 'shaken', name, turns });
const aim = (amount: number, name: string): DamageEffectInput => ({ kind: 'accuracyLoss', name, amount });
const armor = (amount: number, name: string): DamageEffectInput => ({ kind: 'defenseLoss', name, amount });
const immobilized: DamageEffectInput = { kind: 'immobilized', name: 'Immobilized' };
const crewCasualty: DamageEffectInput = { kind: 'crewCasualty', name: 'Crew Casualty' };
const fuel: DamageEffectInput = { kind: 'fuelLeak', name: 'Fuel Leak' };
const explodes = (name: string): DamageEffectInput => ({ kind: 'explodes', name });
const weapon = (i: number, name: string): DamageEffectInput => ({ kind: 'weaponLost', name, weapon: i });

/** [title, infantry edge, tank/vehicle edge, artillery/gun edge, aircraft edge] (rules version 2) */
const damageRowsV2: [string, DamageEffectInput, DamageEffectInput, DamageEffectInput, DamageEffectInput][] = [
  ['Immobilized', shaken(1), immobilized, immobilized, fuel],
  ['Fire Control Damage', aim(2, 'Wounded Leader'), aim(2, 'Fire Control Damage'), aim(2, 'Sights Damaged'), aim(2, 'Gunsight Shattered')],
  ['Crew Casualty', shaken(2), crewCasualty, crewCasualty, aim(1, 'Pilot Wounded')],
  ['Shaken', shaken(1), shaken(1), shaken(1), shaken(1, 'Evasive Action')],
  ['Track Hit', none('Flesh Wounds'), immobilized, immobilized, none('Holed Wing')],
  ['Main Gun Damaged', weapon(0, 'Weapon Lost'), weapon(0, 'Main Gun Damaged'), weapon(0, 'Breech Jammed'), weapon(0, 'Guns Jammed')],
  ['Secondary Weapon Lost', weapon(1, 'Weapon Lost'), weapon(1, 'MG Knocked Out'), aim(1, 'Crew Rattled'), weapon(1, 'Bomb Rack Damaged')],
  ['Armor Breached', armor(1, 'Cover Lost'), armor(2, 'Armor Breached'), armor(1, 'Shield Holed'), armor(1, 'Airframe Damage')],
  ['Ammunition Fire', explodes('Pinned and Overrun'), explodes('Ammunition Fire'), explodes('Ammunition Detonation'), explodes('Fireball')],
  ['Radio Knocked Out', shaken(1, 'Lost Contact'), aim(1, 'Radio Knocked Out'), shaken(1, 'Lost Contact'), aim(1, 'Radio Knocked Out')],
  ['Engine Damage', none('Scattered'), immobilized, none('Prime Mover Lost'), fuel],
  ['Commander Hit', aim(1, 'Leader Down'), crewCasualty, crewCasualty, shaken(1, 'Pilot Stunned')],
  ['Near Miss', none('Near Miss'), none('Near Miss'), none('Near Miss'), none('Near Miss')],
  ['Suppressed', shaken(2, 'Suppressed'), shaken(1, 'Buttoned Up'), shaken(1, 'Suppressed'), shaken(1, 'Evasive Action')],
  ['Optics Shattered', aim(1, 'Dust and Smoke'), aim(2, 'Optics Shattered'), aim(2, 'Optics Shattered'), aim(1, 'Canopy Cracked')],
  ['Fuel Leak', none('Gear Lost'), immobilized, none('Ammunition Short'), fuel],
  ['Spall', shaken(1), crewCasualty, aim(1, 'Crew Wounded'), aim(1, 'Pilot Wounded')],
  ['Turret Jammed', aim(1, 'Disorganized'), weapon(0, 'Turret Jammed'), aim(1, 'Traverse Jammed'), weapon(0, 'Guns Jammed')],
  ['Morale Broken', shaken(3, 'Morale Broken'), shaken(2, 'Crew Bails Out'), shaken(2, 'Crew Flees'), fuel],
  ['Bogged Down', none('Bogged Down'), immobilized, none('Bogged Down'), none('Control Cables Frayed')],
  ['Ammunition Shortage', aim(1, 'Low on Ammunition'), aim(1, 'Low on Ammunition'), aim(1, 'Low on Ammunition'), fuel],
  ['Hydraulics Hit', none('Shell Shock'), weapon(0, 'Hydraulics Hit'), weapon(0, 'Recoil System Hit'), armor(1, 'Hydraulics Hit')],
  ['Direct Hit', explodes('Wiped Out'), armor(1, 'Plating Cracked'), explodes('Direct Hit'), explodes('Shot Down')],
  ['Glancing Blow', none('Glancing Blow'), none('Glancing Blow'), none('Glancing Blow'), none('Glancing Blow')],
  ['Wounded', aim(1, 'Wounded'), crewCasualty, crewCasualty, aim(1, 'Pilot Wounded')],
];

/**
 * Rules version 3: 001 Damage Resolution protects a crew unless the hit destroys its unit, and a
 * Damage card is drawn only for a unit that survives, so no edge may kill a crew. The four
 * cards whose vehicle or artillery edge did (Crew Casualty, Commander Hit, Spall, Wounded) now
 * shake or rattle the crew instead.
 */
const V3_EDGES: Record<string, Partial<Record<'vehicle' | 'artillery', DamageEffectInput>>> = {
  'Crew Casualty': { vehicle: shaken(2, 'Crew Casualty'), artillery: shaken(2, 'Crew Casualty') },
  'Commander Hit': { vehicle: aim(2, 'Commander Hit'), artillery: aim(2, 'Layer Hit') },
  Spall: { vehicle: shaken(1, 'Spall') },
  Wounded: { vehicle: aim(1, 'Crew Wounded'), artillery: aim(1, 'Crew Wounded') },
};
const damageRows = damageRowsV2.map(([title, infantry, vehicle, artillery, aircraft]): (typeof damageRowsV2)[number] => [
  title,
  infantry,
  V3_EDGES[title]?.vehicle ?? vehicle,
  V3_EDGES[title]?.artillery ?? artillery,
  aircraft,
]);

const damageCards = (rows: typeof damageRowsV2): DamageInput[] =>
  rows.map(([title, infantry, vehicle, artillery, aircraft], i) => ({
    id: `dmg-${String(i + 1).padStart(2, '0')}`,
    title,
    effects: { infantry, vehicle, artillery, aircraft },
  }));

/** The Damage deck of the built-in catalog (rules version 3). */
export const DAMAGE_CARDS: DamageInput[] = damageCards(damageRows);
/** The Damage deck games of rules version 2 were created with: kept so they replay and verify. */
export const DAMAGE_CARDS_V2: DamageInput[] = damageCards(damageRowsV2);
