import * as z from 'zod';
import type { Deck } from '../kernel/deck.js';
import type { Catalog, Side } from '../frontline-general/data/schema.js';
import type { Scenario } from './data/scenarios.js';
import type { Dir, Edges, EdgesOption, TileKind } from './data/tiles.js';
import type { RoleEntry } from './data/roles.js';

export const SIDES: readonly Side[] = ['us', 'de'];
export const other = (s: Side): Side => (s === 'us' ? 'de' : 'us');
export const asSide = (seat: string): Side | undefined => (seat === 'us' || seat === 'de' ? seat : undefined);

/** 003 Turn Sequence: Movement (skipped on turn 1), Commitment, Combat (declare, then resolve), Draw. */
export type Phase = 'movement' | 'commitment' | 'declaration' | 'resolution' | 'draw' | 'over';
/** 003 Turn Sequence, Combat 2: aircraft and artillery targets are declared first ('support'), then all others ('ground'). */
export type DeclarationStep = 'support' | 'ground';

// ---------------------------------------------------------------- commands

const id = z.string().min(1).max(40);
/** A map space ('B5'), 'rear', 'exit' or an aircraft flight path; checked by the rules, so any short string parses. */
const place = z.string().min(1).max(20);

export const commandSchema = z.discriminatedUnion('type', [
  /** Movement: move a unit to a space (or 'exit' off row A), discarding a Command card to sprint or push. */
  z.object({ type: z.literal('Move'), unit: id, to: place, extra: id.optional() }).strict(),
  /** Commitment: a unit (with its crew) from hand to an entry space, the rear line, or a flight path. */
  z.object({ type: z.literal('Commit'), unit: id, crew: id.optional(), at: place }).strict(),
  /** Commitment: declare this turn's flight path of an aircraft in play ('row-A', 'col-5', 'rear-line'). */
  z.object({ type: z.literal('Fly'), unit: id, path: place }).strict(),
  /** Commitment: an aircraft returns to the bottom of the Reserves deck with its pilot (003 Commitment 6). */
  z.object({ type: z.literal('WithdrawAircraft'), unit: id }).strict(),
  /** Commitment: a crew on the map takes over a crewless unit in its space. */
  z.object({ type: z.literal('Recrew'), crew: id, unit: id }).strict(),
  /**
   * Combat: one attacker, one or two weapons, one target: an enemy unit id, 'space:B5' (an area
   * attack by mortar, artillery or bombs), 'feature:B5' (destroying a tile) or 'crew:<gun id>' (the
   * crew of a front-line gun, 003 Combat 4); `spotter` names the
   * infantry spotting for a mortar or rear-line artillery.
   */
  z
    .object({
      type: z.literal('DeclareAttack'),
      attacker: id,
      target: id,
      weapons: z.array(z.number().int().min(0).max(3)).min(1).max(2),
      spotter: id.optional(),
    })
    .strict(),
  /** Combat: three or more infantry close assault a tank or crewed gun from adjacent spaces (003 Combat 16). */
  z.object({ type: z.literal('DeclareCloseAssault'), attackers: z.array(id).min(3).max(8), target: id }).strict(),
  /** Combat: resolve one of your declared attacks, optionally discarding a Command card for +1 on its first roll. */
  z.object({ type: z.literal('ResolveAttack'), attackId: id, boostWith: id.optional() }).strict(),
  /** What Now, Sarge?: move one US Reserves Entry Point, once a game, in the Movement phase from turn 4. */
  z.object({ type: z.literal('ChangeEntryPoint'), from: place, to: place }).strict(),
  /**
   * A Command card played for its effect: on one of your units (Dig In, Withdraw …), an enemy unit
   * (Sabotage, Capture That Unit! with `by`, your infantry attempting it), a space (Lay Smoke:
   * 'B5'), or with no target (Ambush!, Commit Reserves, Resupply). `keep`: a captured unit stays
   * in play on your side, crewless, scoring only its crew (003 Combat 12). Ambush!'s other use in
   * the declaration phase (003 l.458): `target` a unit in your hand, entering `at` with its `crew`.
   */
  z
    .object({
      type: z.literal('PlayCommand'),
      card: id,
      target: id.optional(),
      by: id.optional(),
      keep: z.boolean().optional(),
      at: place.optional(),
      crew: id.optional(),
    })
    .strict(),
  /** Opportunity fire window: fire with this unit at the unit that moved, or pass. */
  z.object({ type: z.literal('OpportunityFire'), unit: id }).strict(),
  z.object({ type: z.literal('PassOpportunityFire') }).strict(),
  /** Draw Phase: the first Command card and these extra cards (003 Draw Phase Functions). */
  z.object({ type: z.literal('Draw'), extra: z.array(z.enum(['command', 'reserves'])).max(2) }).strict(),
  /** Over the hand limit: a unit goes under the Reserves deck, a Command card leaves the game. */
  z.object({ type: z.literal('Discard'), card: id }).strict(),
  /** Finish your part of the current phase. */
  z.object({ type: z.literal('Done') }).strict(),
]);
export type Command = z.infer<typeof commandSchema>;

// ---------------------------------------------------------------- state

export interface MapUnit {
  readonly id: string;
  readonly card: string;
  readonly owner: Side;
  /** Who controls it now (a captured and kept unit changes sides). */
  readonly side: Side;
  /** 'A1'..'C9' on the map, 'rear' on the owner's rear line, 'air' for aircraft. */
  readonly at: string;
  readonly crew: string | null;
  readonly endurance: number;
  readonly damageCard: string | null;
  readonly shakenUntil: number;
  readonly accuracyLoss: number;
  readonly defenseLoss: number;
  readonly weaponsLost: readonly number[];
  readonly immobilized: boolean;
  readonly bombsUsed: readonly number[];
  readonly turnsLeft: number | null;
  /** This turn's flight path ('row-A', 'col-5', 'rear-line'), null until declared. */
  readonly path: string | null;
  readonly enteredTurn: number;
  readonly movedTurn: number;
  /** Command cards placed with the unit (Veteran Crew …), whose bonuses it keeps. */
  readonly attached: readonly string[];
  /** A Liri Valley convoy unit (a face-down Command card moving as a vehicle). */
  readonly convoy: boolean;
}

export interface MapTile {
  readonly kind: TileKind;
  readonly intact: boolean;
  /** The tile's entry/exit arrows, for the kinds that have them (data/tiles.ts). */
  readonly arrows?: readonly Dir[];
  /** A club's highlighted edges for this tile; absent: the kind's REPRESENTATIVE default (data/tiles.ts). */
  readonly edges?: Edges;
}

export interface Attack {
  readonly id: string;
  readonly seat: Side;
  readonly attackers: readonly string[];
  /** Unit id, 'space:B5' or 'feature:B5'. */
  readonly target: string;
  readonly weapons: readonly number[];
  readonly spotter: string | null;
  readonly kind: 'unit' | 'area' | 'feature' | 'assault';
  readonly status: 'pending' | 'resolved' | 'cancelled';
}

export interface SeatState {
  readonly reserves: readonly string[];
  /** Epiphany's Support Reserves deck (drawn once `reserves` is empty). */
  readonly support: readonly string[];
  readonly hand: readonly string[];
  readonly commands: readonly string[];
  readonly score: number;
  readonly overrun: number;
  readonly drawn: boolean;
  readonly exited: number;
  /** An Initiative bonus played for the next turn's roll (Ambush!). */
  readonly initiativeBonus: number;
}

/** An open opportunity-fire window: `mover` entered `space`; `seat` may fire with one of `shooters`. */
export interface OpFire {
  readonly id: string;
  readonly seat: Side;
  readonly mover: string;
  readonly shooters: readonly string[];
}

export interface Options {
  readonly scenario: string;
  readonly germanColumn: 1 | 9;
  readonly maxTurns: number;
  readonly map?: 'village' | 'defensive-line';
  readonly tiles?: readonly { space: string; kind: TileKind; intact?: boolean; arrows?: readonly Dir[]; edges?: EdgesOption }[];
  readonly us?: { cards: string[] };
  readonly de?: { cards: string[] };
  readonly usEntry?: readonly string[];
  readonly roles?: readonly { card: string; role: RoleEntry['role']; calibre: number }[];
}

export interface State {
  readonly rulesVersion: number;
  readonly catalog: Catalog;
  /** Role and calibre per catalog unit id (data/roles.ts, or the club's `roles` option). */
  readonly roles: Readonly<Record<string, RoleEntry>>;
  readonly scenario: Scenario;
  readonly options: Options;
  readonly cards: Readonly<Record<string, { card: string; owner: Side }>>;
  readonly tiles: Readonly<Record<string, MapTile>>;
  readonly smoke: Readonly<Record<string, number>>;
  readonly units: Readonly<Record<string, MapUnit>>;
  readonly seats: Readonly<Record<Side, SeatState>>;
  readonly commandDeck: Deck;
  readonly damageDeck: Deck;
  readonly started: boolean;
  readonly turn: number;
  readonly phase: Phase;
  readonly initiative: Side | null;
  readonly active: Side | null;
  readonly attacks: readonly Attack[];
  readonly attackSeq: number;
  readonly opfire: OpFire | null;
  readonly opfireSeq: number;
  /** Units that have fired opportunity fire at each mover this phase (each shooter once per mover). */
  readonly opfired: readonly string[];
  /** Which declaration step the Combat Phase is in (aircraft and artillery first). */
  readonly declStep: DeclarationStep;
  /** Damage taken this turn by crews shot at inside their guns (003 Combat 4), by crew id. */
  readonly crewWounds: Readonly<Record<string, number>>;
  /** Units that may not attack this turn (Sabotage). */
  readonly sabotaged: readonly string[];
  readonly lastAttack: { readonly from: string; readonly to: string } | null;
  readonly weatherClear: boolean;
  readonly usEntry: readonly string[];
  /** What Now, Sarge?: the US has used its one change of an entry point. */
  readonly entryChanged: boolean;
  readonly convoy: { readonly entered: number; readonly arrived: number; readonly destroyed: number; readonly pool: readonly string[] };
  readonly cpDeadline: number;
  readonly result: { readonly winners: Side[]; readonly reason: string } | null;
}

// ---------------------------------------------------------------- events

export type Event =
  | { type: 'ReservesShuffled'; seat: Side; deck: 'reserves' | 'support'; order: string[] }
  | { type: 'CommandDeckShuffled'; order: string[] }
  | { type: 'DamageDeckShuffled'; order: string[] }
  | { type: 'CommandCardsRemoved'; cards: string[] }
  | { type: 'HandDealt'; seat: Side; units: string[]; commands: string[] }
  | { type: 'HandCounted'; seat: Side; units: number; commands: number }
  | { type: 'SetupRolled'; unit: string; die: number; needed: number; placed: boolean }
  | { type: 'UnitPlaced'; unit: string; card: string; owner: Side; crew: string | null; at: string; attached: string[]; damageCard: string | null }
  | { type: 'TurnBegan'; turn: number }
  | { type: 'InitiativeRolled'; rolls: { us: number; de: number }[]; winner: Side; bonus?: { us: number; de: number } }
  | { type: 'WeatherRolled'; us: number; de: number; clear: boolean }
  | { type: 'PhaseBegan'; phase: Phase; active: Side | null; step?: DeclarationStep }
  | { type: 'CommandCardDiscarded'; seat: Side; card: string; purpose: 'sprint' | 'push' | 'hit' }
  | { type: 'UnitMoved'; unit: string; path: string[]; raid: boolean }
  | { type: 'ExitRolled'; unit: string; obstacle: 'wire' | 'mines'; dice: [number, number]; passed: boolean }
  | { type: 'TileRemoved'; space: string }
  | { type: 'TileDestroyed'; space: string }
  | { type: 'UnitExited'; unit: string; reason: 'breakthrough' | 'convoy' }
  | { type: 'UnitCommitted'; seat: Side; unit: string; card: string; crew: string | null; crewCard: string | null; at: string }
  | { type: 'ConvoyEntered'; units: string[]; at: string }
  | { type: 'AircraftArrived'; unit: string; card: string; owner: Side; crew: string; attached: string[] }
  | { type: 'FlightPathDeclared'; unit: string; path: string }
  | { type: 'AircraftReturned'; unit: string; reason: 'withdrawn' | 'fuel' }
  | { type: 'CrewBoarded'; crew: string; unit: string }
  | { type: 'OpportunityFireOffered'; window: string; seat: Side; mover: string; shooters: string[] }
  | { type: 'OpportunityFirePassed'; window: string }
  | { type: 'OpportunityFireTaken'; shooter: string; mover: string; weapons: number[] }
  | { type: 'AttackDeclared'; attack: Attack }
  | { type: 'AttackFired'; attackId: string; from: string; to: string }
  | { type: 'AttackRolled'; attackId: string; target: string; weapon: number; dice: [number, number]; bonus: number; needed: number; result: string }
  | {
      type: 'HitResolved';
      attackId: string;
      target: string;
      intensity: number[];
      doubled: boolean;
      damageIndex: number;
      defense: number;
      net: number;
      endurance: number;
    }
  | { type: 'FeatureAttacked'; attackId: string; space: string; dice: [number, number] | null; needed: number; intensity: number | null; destroyed: boolean }
  | { type: 'DamageCardDrawn'; unit: string; card: string }
  | { type: 'DamageDeckReshuffled'; order: string[] }
  | { type: 'CrewKilled'; unit: string; crew: string; by?: Side; points?: number }
  | {
      type: 'UnitDestroyed';
      unit: string;
      by: Side | null;
      points: number;
      crewFate: 'returned' | 'damaged' | 'captured' | 'lost' | null;
      crewPoints: number;
    }
  | { type: 'ConvoyDestroyed'; unit: string }
  | { type: 'BombDropped'; unit: string; weapon: number }
  | { type: 'AttackResolved'; attackId: string; next: Side | null }
  | { type: 'AttackCancelled'; attackId: string; reason: string }
  | { type: 'CardDrawn'; seat: Side; kind: 'command' | 'unit'; card: string }
  | { type: 'DrawCounted'; seat: Side; kind: 'command' | 'unit' }
  | { type: 'CommandDeckReshuffled'; order: string[] }
  | { type: 'UnitDiscarded'; seat: Side; card: string }
  | { type: 'UnitDiscardCounted'; seat: Side }
  | { type: 'CommandDiscarded'; seat: Side; card: string }
  | { type: 'CommandPlayed'; seat: Side; card: string; unit: string }
  | { type: 'EntryPointChanged'; from: string; to: string }
  | { type: 'CommandUsed'; seat: Side; card: string; effect: 'initiative' | 'ambush' | 'reinforce' | 'resupply'; amount: number }
  | { type: 'UnitWithdrawn'; seat: Side; card: string; unit: string; crew: string | null }
  | { type: 'UnitRepaired'; seat: Side; card: string; unit: string }
  | { type: 'UnitSabotaged'; seat: Side; card: string; unit: string }
  | { type: 'CaptureRolled'; seat: Side; card: string; unit: string; by: string; die: number; needed: number; captured: boolean }
  | { type: 'UnitCapturedKept'; seat: Side; unit: string; crew: string; crewPoints: number }
  | { type: 'SmokeLaid'; seat: Side; card: string; space: string; turns: number }
  | { type: 'TurnEnded'; turn: number; overrun: { us: number; de: number } }
  | { type: 'CommandPostExtended'; turn: number }
  | { type: 'GameDecided'; winners: Side[]; reason: string };

export const unitIn = (s: State, unit: string): MapUnit | undefined => (Object.hasOwn(s.units, unit) ? s.units[unit] : undefined);
export const cardEntry = (s: State, card: string): { card: string; owner: Side } | undefined => (Object.hasOwn(s.cards, card) ? s.cards[card] : undefined);
export const tileAt = (s: State, space: string): MapTile | undefined => (Object.hasOwn(s.tiles, space) ? s.tiles[space] : undefined);
