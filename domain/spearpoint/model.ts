import * as z from 'zod';
import type { Deck } from '../kernel/deck.js';
import { MAX_DRAFT_STEPS } from '../kernel/draft.js';
import type { Seat } from '../kernel/visibility.js';
import type { Catalog, CommandEffect, Side } from '../frontline-general/data/schema.js';
import type { Situation } from './data/situations.js';

/** Seats are the two sides. */
export const SEATS: readonly Side[] = ['us', 'de'];
export const other = (s: Seat): Side => (s === 'us' ? 'de' : 'us');

/** 'initiative' (rules version 3): Initiative was tied, and each side may discard a card for +1 on the re-roll. */
export type Phase = 'muster' | 'commitment' | 'declaration' | 'initiative' | 'combat' | 'draw' | 'over';
export type Line = 'front' | 'rear' | 'air';

// ---------------------------------------------------------------- commands

const id = z.string().min(1).max(40);

const orderStepSchemas = [
  /**
   * Muster: put one unit of this catalog id from your deck into your starting hand. From rules
   * version 3 a step of the sealed muster order (SealOrder or AutoPickHand completes it); under
   * version 2 it takes the unit at once.
   */
  z.object({ type: z.literal('PickStartingUnit'), card: id }).strict(),
  /** Commitment order step: a unit from hand (with a crew from hand if it needs one). */
  z.object({ type: z.literal('CommitUnit'), unit: id, crew: id.optional(), line: z.enum(['front', 'rear']).optional() }).strict(),
  /** Commitment order step: a crew from hand to a crewless unit already in play (the replacement-crew exception). */
  z.object({ type: z.literal('ReplaceCrew'), crew: id, unit: id }).strict(),
  /** Commitment order step: move a crew from one of your ground units to another. */
  z.object({ type: z.literal('MoveCrew'), from: id, to: id }).strict(),
  /** Commitment order step: move mobile artillery between lines. */
  z.object({ type: z.literal('MoveLine'), unit: id, line: z.enum(['front', 'rear']) }).strict(),
  /**
   * Commitment or declaration order step: play a command card (target: a unit, if the card needs
   * one). A capture may keep the unit, and may discard another card for +1 to its capture roll.
   */
  z.object({ type: z.literal('PlayCommandCard'), card: id, target: id.optional(), keep: z.boolean().optional(), boostWith: id.optional() }).strict(),
  /** Declaration order step: one unit attacks one target with one or two of its weapons (positions on the card). */
  z.object({ type: z.literal('DeclareAttack'), attacker: id, target: id, weapons: z.array(z.number().int().min(0).max(3)).min(1).max(2) }).strict(),
  /** Declaration order step: an infantry unit joins a close assault on an armored target (three or more needed). */
  z.object({ type: z.literal('JoinCloseAssault'), attacker: id, target: id }).strict(),
] as const;

/** One step of a sealed order, as a command of its own or inside SealOrder's steps. */
export const orderStepCommandSchema = z.discriminatedUnion('type', [...orderStepSchemas]);
export type OrderStepCommand = z.infer<typeof orderStepCommandSchema>;
export const ORDER_STEP_TYPES: ReadonlySet<string> = new Set(orderStepSchemas.map((s) => s.shape.type.value));

export const commandSchema = z.discriminatedUnion('type', [
  /**
   * Muster: let the engine pick the rest of the starting hand (units needing no crew first), after
   * the picks of the muster order (version 3; `steps` gives those picks at once, replacing any sent before).
   */
  z.object({ type: z.literal('AutoPickHand'), steps: z.array(orderStepCommandSchema).max(MAX_DRAFT_STEPS).optional() }).strict(),
  ...orderStepSchemas,
  /** Drop every step of your unsealed order. */
  z.object({ type: z.literal('ClearOrder') }).strict(),
  /**
   * Seal your order; with a declaration, optionally discard a command card for +1 Initiative.
   * With `steps`, the whole order is given at once (replacing any steps added before): the
   * other side then learns nothing about it until the reveal, not even how many steps it has.
   */
  z.object({ type: z.literal('SealOrder'), initiativeBoost: id.optional(), steps: z.array(orderStepCommandSchema).max(MAX_DRAFT_STEPS).optional() }).strict(),
  /**
   * Combat: resolve one of your declared attacks, optionally discarding a command card for +1 to one
   * shot's attack roll, or to that shot's Intensity roll (spent only if the shot hits the target).
   * The shot is `boostShot` (1 = the first attack roll, the default). `boosts` lists several such
   * discards instead, one card per roll. If friendly fire pauses the attack before a boosted shot,
   * that +1 is kept for the shot when the attack resumes (a card for a shot never fired stays in hand).
   */
  z
    .object({
      type: z.literal('ResolveAttack'),
      attackId: id,
      boostWith: id.optional(),
      boostRoll: z.enum(['hit', 'intensity']).optional(),
      boostShot: z.number().int().min(1).max(16).optional(),
      boosts: z
        .array(z.object({ card: id, roll: z.enum(['hit', 'intensity']), shot: z.number().int().min(1).max(16).optional() }).strict())
        .min(1)
        .max(16)
        .optional(),
    })
    .strict(),
  /**
   * Reaction: choose which of the attacker's own units a friendly-fire hit strikes; from rules
   * version 3, optionally discarding a command card for +1 on that hit's Intensity roll.
   */
  z.object({ type: z.literal('ChooseFriendlyFireVictim'), unit: id, boostWith: id.optional() }).strict(),
  /** Standing order for friendly fire you must choose: ask, or pick the attacker's most expensive unit automatically. */
  z.object({ type: z.literal('SetStandingOrders'), friendlyFire: z.enum(['ask', 'highest-cost']) }).strict(),
  /** Draw phase: draw one card (the first must be a Command card while any remain). */
  z.object({ type: z.literal('DrawCard'), from: z.enum(['command', 'reserves']) }).strict(),
  /** Draw: several draws in one move, in this order (e.g. the whole turn's three), all or nothing. */
  z
    .object({
      type: z.literal('DrawCards'),
      from: z
        .array(z.enum(['command', 'reserves']))
        .min(1)
        .max(3),
    })
    .strict(),
  /** Draw phase, over the hand limit: put a unit under your Reserves deck. */
  z.object({ type: z.literal('DiscardUnit'), card: id }).strict(),
  /** Draw phase, over the hand limit: discard a command card face up. */
  z.object({ type: z.literal('DiscardCommand'), card: id }).strict(),
]);
export type Command = z.infer<typeof commandSchema>;

// ---------------------------------------------------------------- sealed order steps

export type OrderStep =
  | { kind: 'pick'; card: string }
  | { kind: 'commit'; unit: string; crew: string | null; line: Line }
  | { kind: 'replaceCrew'; crew: string; unit: string }
  | { kind: 'moveCrew'; from: string; to: string }
  | { kind: 'moveLine'; unit: string; line: 'front' | 'rear' }
  | { kind: 'card'; card: string; target: string | null; keep: boolean; boost: string | null }
  | { kind: 'attack'; attacker: string; target: string; weapons: number[] }
  | { kind: 'closeAssault'; attacker: string; target: string }
  | { kind: 'initiativeBoost'; card: string };

// ---------------------------------------------------------------- state

export interface UnitInPlay {
  readonly id: string;
  readonly controller: Side;
  readonly line: Line;
  readonly crew: string | null;
  /** Current endurance; damage below full lasts only until the end of the combat phase. */
  readonly endurance: number;
  readonly damageCard: string | null;
  readonly turnsLeft: number | null;
  readonly bombsUsed: boolean;
  /** Shaken: may not attack up to and including this turn (0: not shaken). */
  readonly shakenUntil: number;
  readonly immobilized: boolean;
  readonly accuracyLoss: number;
  readonly defenseLoss: number;
  readonly weaponsLost: readonly number[];
  readonly fuelLeak: boolean;
}

export interface ActiveEffect {
  readonly card: string;
  readonly title: string;
  readonly seat: Side;
  /** The unit it is on; null for side-wide cards. */
  readonly unit: string | null;
  readonly effect: CommandEffect;
  readonly duration: 'turn' | 'permanent';
}

export interface Attack {
  readonly id: string;
  readonly seat: Side;
  readonly attackers: readonly string[];
  readonly target: string;
  readonly weapons: readonly number[];
  readonly closeAssault: boolean;
  readonly status: 'pending' | 'resolved' | 'cancelled';
  /** Shots (weapon attack rolls) fired so far. */
  readonly shotsDone: number;
}

export interface FriendlyFire {
  readonly attackId: string;
  readonly chooser: Side;
  readonly candidates: readonly string[];
  /** Weapon position whose damage index applies, or -1 for a close assault. */
  readonly weapon: number;
}

/**
 * A card that left the game (destroyed, captured, lost), with the points it gave; or ('kept') a
 * captured unit its captor keeps in the battle area, which scores double like any capture.
 */
export interface Removed {
  readonly card: string;
  readonly owner: Side;
  readonly by: Side | null;
  readonly kind: 'destroyed' | 'captured' | 'kept' | 'friendly-fire';
  readonly points: number;
}

export interface SeatState {
  readonly reserves: readonly string[];
  readonly hand: readonly string[];
  readonly commands: readonly string[];
  readonly order: readonly OrderStep[];
  readonly sealed: boolean;
  readonly handReady: boolean;
  readonly drawsTaken: number;
  readonly drawDone: boolean;
  readonly friendlyFire: 'ask' | 'highest-cost';
  readonly overrun: number;
  readonly score: number;
  readonly destroyedTypes: Readonly<Record<string, number>>;
  /** The last turn this seat committed a unit from its hand (0: never). Public, from the reveals. */
  readonly lastCommitTurn: number;
  /** +1 cards named for the later shots of this seat's attack while friendly fire pauses it (private). */
  readonly heldBoosts: readonly Boost[];
}

/** A command card discarded for +1 on one roll of one shot (1-based) of an attack (001 Gameplay: Command cards). */
export interface Boost {
  readonly card: string;
  readonly roll: 'hit' | 'intensity';
  readonly shot: number;
}

export interface Options {
  readonly situation: string;
  readonly us?: DeckChoice;
  readonly de?: DeckChoice;
  readonly maxTurns: number;
  readonly catalog?: unknown;
}
export type DeckChoice = { preset: string } | { cards: string[] };

export interface State {
  /**
   * The rules version the game was created under (engine.ts lists what each changed). Where a
   * later version decides differently, the older game keeps its own rules (see atLeast).
   */
  readonly rulesVersion: number;
  readonly catalog: Catalog;
  readonly situation: Situation;
  readonly maxTurns: number;
  /** Every card instance of the game: id -> catalog id and the side whose deck it is from. */
  readonly cards: Readonly<Record<string, { card: string; owner: Side }>>;
  readonly started: boolean;
  readonly phase: Phase;
  readonly turn: number;
  readonly seats: Readonly<Record<Side, SeatState>>;
  readonly inPlay: Readonly<Record<string, UnitInPlay>>;
  /** The Command deck and its discard pile (the kernel's Deck: draw pile top first, discards newest last). */
  readonly commandDeck: Deck;
  /** The Damage deck and its discard pile. */
  readonly damageDeck: Deck;
  readonly effects: readonly ActiveEffect[];
  readonly attacks: readonly Attack[];
  readonly chooser: Side | null;
  readonly initiative: Side | null;
  /** Initiative rolls that tied this turn (rules version 3: each side may discard for +1 before the re-roll). */
  readonly initiativeTies: readonly { us: number; de: number }[];
  readonly friendlyFire: FriendlyFire | null;
  readonly removed: readonly Removed[];
  readonly result: { winners: Side[]; reason: string } | null;
}

// ---------------------------------------------------------------- events

export type PlacedUnit = { unit: string; crew: string | null; line: Line };

export type Event =
  | { type: 'ReservesShuffled'; seat: Side; order: string[] }
  | { type: 'CommandDeckShuffled'; order: string[] }
  | { type: 'DamageDeckShuffled'; order: string[] }
  | { type: 'CommandCardsDealt'; seat: Side; cards: string[] }
  | { type: 'CardsDealtCount'; seat: Side; commands: number }
  | { type: 'SituationUnitsPlaced'; seat: Side; units: PlacedUnit[] }
  | { type: 'StartingUnitPicked'; seat: Side; unit: string }
  | { type: 'StartingHandReady'; seat: Side }
  | { type: 'TurnBegan'; turn: number }
  | { type: 'OrderStepAdded'; seat: Side; step: OrderStep }
  | { type: 'OrderCleared'; seat: Side }
  | { type: 'OrderFinalized'; seat: Side; steps: OrderStep[] }
  | { type: 'OrderSealed'; seat: Side }
  | { type: 'CommitmentRevealed'; orders: Record<Side, OrderStep[]> }
  | { type: 'UnitCommitted'; seat: Side; unit: string; crew: string | null; line: Line }
  | { type: 'CrewReplaced'; seat: Side; crew: string; unit: string }
  | { type: 'CrewMoved'; seat: Side; crew: string; from: string; to: string }
  | { type: 'LineChanged'; unit: string; line: Line }
  | { type: 'RearBecameFront'; seat: Side; units: string[] }
  | { type: 'CommandCardPlayed'; seat: Side; card: string; target: string | null }
  | { type: 'CommandCardVoided'; seat: Side; card: string; reason: string }
  | { type: 'UnitWithdrawn'; seat: Side; unit: string; crew: string | null }
  | { type: 'UnitRepaired'; unit: string }
  | { type: 'CardDrawn'; seat: Side; kind: 'command' | 'unit'; card: string }
  | { type: 'CardsDrawnByCard'; seat: Side; kind: 'command' | 'unit'; count: number }
  | { type: 'CaptureRolled'; seat: Side; card: string; target: string; die: number; bonus: number; needed: number; success: boolean }
  | { type: 'UnitCaptured'; by: Side; unit: string; crew: string | null; kept: boolean; unitPoints: number; crewPoints: number }
  | { type: 'DeclarationBegan' }
  | { type: 'DeclarationRevealed'; orders: Record<Side, OrderStep[]>; attacks: Attack[] }
  | { type: 'AttackCancelled'; attackId: string; reason: string }
  | { type: 'CommandCardDiscardedForBonus'; seat: Side; card: string; roll: 'initiative' | 'hit' | 'intensity' | 'capture' }
  | { type: 'InitiativeTied'; roll: { us: number; de: number }; modifiers: { us: number; de: number } }
  | { type: 'InitiativeRolled'; rolls: { us: number; de: number }[]; modifiers: { us: number; de: number }; winner: Side }
  | { type: 'CombatBegan'; chooser: Side | null }
  | {
      type: 'AttackRolled';
      attackId: string;
      weapon: number;
      dice: [number, number];
      bonus: number;
      needed: number;
      result: 'hit' | 'miss' | 'friendly-fire' | 'double-intensity' | 'destroyed-outright';
    }
  | { type: 'FriendlyFirePending'; attackId: string; chooser: Side; candidates: string[]; weapon: number }
  | { type: 'BoostsHeld'; seat: Side; boosts: Boost[] }
  | { type: 'FriendlyFireVictimChosen'; attackId: string; unit: string; automatic: boolean }
  | { type: 'FriendlyFireHarmless'; attackId: string }
  | {
      type: 'HitResolved';
      attackId: string;
      target: string;
      intensity: number[];
      doubled: boolean;
      bonus: number;
      damageIndex: number;
      defense: number;
      net: number;
      endurance: number;
    }
  | { type: 'DamageCardDrawn'; unit: string; card: string }
  | { type: 'DamageDeckReshuffled'; order: string[] }
  /** A Damage card's effect the rules refuse (from version 3: one that would kill the crew of a surviving unit). */
  | { type: 'DamageEffectRefused'; unit: string; card: string; code: string; reason: string }
  | { type: 'CrewKilled'; unit: string; crew: string; by: Side | null; points: number }
  | {
      type: 'UnitDestroyed';
      unit: string;
      by: Side | null;
      points: number;
      cause: 'damage' | 'outright' | 'explosion';
      crew: string | null;
      crewFate: 'returned' | 'captured' | 'lost' | null;
      crewPoints: number;
      baseIntensity: number | null;
    }
  | { type: 'AttackResolved'; attackId: string; next: Side | null }
  | { type: 'CombatEnded' }
  | { type: 'AircraftReturned'; seat: Side; unit: string; pilot: string | null }
  | { type: 'OverrunCounted'; counts: { us: number; de: number } }
  | { type: 'DrawPhaseBegan' }
  | { type: 'DrawCounted'; seat: Side; kind: 'command' | 'unit' }
  | { type: 'CommandDeckReshuffled'; order: string[] }
  | { type: 'DrawsSkipped'; seat: Side }
  | { type: 'UnitDiscarded'; seat: Side; card: string }
  | { type: 'UnitDiscardCounted'; seat: Side }
  | { type: 'CommandDiscarded'; seat: Side; card: string }
  | { type: 'DrawFinished'; seat: Side }
  | { type: 'StandingOrdersSet'; seat: Side; friendlyFire: 'ask' | 'highest-cost' }
  | { type: 'GameDecided'; winners: Side[]; reason: string };

/**
 * Ids from a command are a player's strings: they never index a plain object directly, or
 * `constructor`, `__proto__` or `toString` would find Object.prototype's members (DESIGN: ids
 * live in Maps or are checked with Object.hasOwn). State keeps plain records so it stays JSON.
 */
export const unitIn = (s: State, id: string): UnitInPlay | undefined => (Object.hasOwn(s.inPlay, id) ? s.inPlay[id] : undefined);
/** The card instance with this id (catalog card and owner), if the game has it. */
export const cardEntry = (s: State, id: string): { card: string; owner: Side } | undefined => (Object.hasOwn(s.cards, id) ? s.cards[id] : undefined);

/** Does this game play by rules version `v` or later? */
export const atLeast = (s: State, v: number): boolean => s.rulesVersion >= v;

/** A seat can still add to, clear or seal its order (001 Commitment Phase; Target Declaration; from version 3 the muster and an Initiative re-roll). */
export const isOpenOrder = (s: State, seat: Side): boolean =>
  s.phase === 'muster'
    ? atLeast(s, 3) && !s.seats[seat].handReady
    : (s.phase === 'commitment' || s.phase === 'declaration' || s.phase === 'initiative') && !s.seats[seat].sealed;
