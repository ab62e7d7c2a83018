import * as z from 'zod';
import type { Deck } from '../kernel/deck.js';
import type { MapCard } from './hexmap.js';
import type { Tables } from './data/tables.js';
import type { UnitType } from './data/units.js';
import type { ScenarioCard, Seat } from './data/scenarios.js';

export { SEATS, type Seat } from './data/scenarios.js';
export const other = (s: Seat): Seat => (s === 'allies' ? 'axis' : 'allies');

/** The scenario builder's choices (004 Creating Your Own Scenarios). */
export interface Builder {
  readonly type: 'point-defense' | 'meeting-engagement';
  /** Point Defense: the defending side; Meeting Engagement: undefined. */
  readonly defender?: Seat;
  /** The maps, north to south, joined along the front (one or more). */
  readonly maps: readonly string[];
  /** Each side's budget: 004's points per map times the maps. */
  readonly points: Readonly<Record<Seat, number>>;
  readonly armies: Readonly<Record<Seat, string>>;
}

export interface UnitState {
  readonly id: string;
  readonly type: string;
  readonly owner: Seat;
  /** The hex it is in; null while off the map (not yet arrived, eliminated or exited). */
  readonly hex: string | null;
  readonly status: 'waiting' | 'map' | 'eliminated' | 'exited';
  /** Game turn it arrives (scenario cards); 0: the builder's reinforcement pool, placed when its owner chooses. */
  readonly entry: number;
  readonly steps: number;
  readonly suppressed: boolean;
  readonly dugIn: boolean;
  /** This Action Phase: actions taken ('move', 'fire', 'command' for a leader's Rally/Dig In, 'dig' when it dug in). */
  readonly actions: readonly string[];
  /** Started this Action Phase with or next to a friendly Leader (004 Leaders). */
  readonly twoActions: boolean;
  /** Where it started this Action Phase (a transport may carry what began there with it). */
  readonly startHex: string | null;
  /** Fired in this player turn's Indirect Fire Phase: may not act in its Action Phase. */
  readonly firedIndirect: boolean;
}

export interface Mission {
  readonly id: string;
  readonly kind: 'artillery' | 'naval' | 'air';
  readonly name: string;
  readonly hard: number;
  readonly soft: number;
  /** Special rule: not before this game turn. */
  readonly fromTurn?: number;
  readonly used: boolean;
}

export interface Marker {
  readonly kind: 'artillery' | 'air';
  readonly hex: string;
  readonly owner: Seat;
}

export type Phase = 'registration' | 'forces' | 'setup' | 'indirect' | 'action' | 'reinforce' | 'over';

export interface Placement {
  readonly seat: Seat;
  readonly kind: 'setup' | 'reinforce';
  /** Units that must be placed before EndPlacement (fewer when no hex is free), and the most that may be. */
  readonly min: number;
  readonly max: number;
  readonly placed: number;
}

export interface State {
  readonly scenario: ScenarioCard;
  readonly map: MapCard;
  readonly tables: Tables;
  readonly unitTypes: readonly UnitType[];
  readonly builder: Builder | null;
  readonly friendlyFire: boolean;
  readonly registration: boolean;
  readonly phase: Phase;
  readonly turn: number;
  /** The seat whose player turn or placement it is. */
  readonly active: Seat;
  readonly placement: Placement | null;
  readonly units: readonly UnitState[];
  readonly markers: readonly Marker[];
  readonly missions: Readonly<Record<Seat, readonly Mission[]>>;
  /** This Indirect Fire Phase: the one off-map Artillery/Naval mission and the one Air Support mission taken. */
  readonly offMapUsed: boolean;
  readonly airUsed: boolean;
  readonly deck: Deck;
  /** The cards drawn by the last thing done, with what each draw was for. */
  readonly lastCards: readonly { readonly purpose: string; readonly cards: readonly string[] }[];
  /** Optional Artillery Registration: each seat's two hexes (secret), and whether it has written them. */
  readonly registered: Readonly<Record<Seat, readonly string[]>>;
  readonly registrationDone: Readonly<Record<Seat, boolean>>;
  /** Scenario builder: each seat's secretly chosen force (Unit Value Table ids) until both are revealed. */
  readonly chosenForces: Readonly<Record<Seat, readonly string[] | null>>;
  /** Steps each side has lost (the other side's tally for a Meeting Engagement). */
  readonly stepsLost: Readonly<Record<Seat, number>>;
  readonly exited: Readonly<Record<Seat, number>>;
  readonly result: { readonly winners: readonly Seat[]; readonly reason: string } | null;
}

const id = z.string().min(1).max(60);
const hex = z.string().min(1).max(8);
export const commandSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('RegisterHexes'), hexes: z.array(hex).max(2) }).strict(),
  z.object({ type: z.literal('ChooseForce'), units: z.array(id).max(40) }).strict(),
  z.object({ type: z.literal('PlaceUnit'), unit: id, hex, dugIn: z.boolean().optional() }).strict(),
  z.object({ type: z.literal('EndPlacement') }).strict(),
  z.object({ type: z.literal('IndirectFire'), unit: id, hex }).strict(),
  z.object({ type: z.literal('CallFireSupport'), mission: id, hex }).strict(),
  z.object({ type: z.literal('CallAirStrike'), mission: id, hex, entry: hex }).strict(),
  z.object({ type: z.literal('EndIndirectFire') }).strict(),
  z.object({ type: z.literal('Move'), unit: id, to: hex, carry: id.optional() }).strict(),
  z.object({ type: z.literal('Exit'), unit: id }).strict(),
  z.object({ type: z.literal('Fire'), unit: id, target: id }).strict(),
  z.object({ type: z.literal('Rally'), leader: id, unit: id }).strict(),
  z.object({ type: z.literal('DigIn'), leader: id, unit: id }).strict(),
  z.object({ type: z.literal('EndActions') }).strict(),
]);
export type Command = z.infer<typeof commandSchema>;

/** A strike on a hex: an on-map unit's indirect fire, an off-map mission, or an air strike. */
export interface StrikeSource {
  readonly unit?: string;
  readonly mission?: string;
  readonly kind: 'artillery' | 'naval' | 'air';
  readonly hard: number;
  readonly soft: number;
}

export type Event =
  | { type: 'DeckShuffled'; order: string[] }
  | { type: 'DeckReshuffled'; order: string[] }
  /** `fresh`: the first draw of a new action, which replaces the last action's cards in the picture. */
  | { type: 'CardsDrawn'; purpose: string; cards: string[]; fresh: boolean }
  | { type: 'HexesRegistered'; seat: Seat; hexes: string[] }
  | { type: 'RegistrationDone'; seat: Seat }
  | { type: 'ForceChosen'; seat: Seat; units: string[] }
  | { type: 'ForceSelectionBegan' }
  | { type: 'ForceSealed'; seat: Seat }
  | { type: 'ForcesRevealed'; forces: Record<Seat, string[]> }
  | { type: 'PlacementBegan'; placement: Placement }
  | { type: 'UnitPlaced'; unit: string; hex: string; dugIn: boolean }
  | { type: 'PlayerTurnBegan'; seat: Seat; turn: number }
  | { type: 'ActionPhaseBegan'; seat: Seat; twoActions: string[] }
  | { type: 'StrikeDeclared'; seat: Seat; source: StrikeSource; hex: string; entry?: string; registered: boolean }
  | { type: 'MarkerDrifted'; from: string; to: string | null }
  | { type: 'StepLost'; unit: string; card?: string; cause: string }
  | { type: 'HitAbsorbed'; unit: string; card: string }
  | { type: 'UnitSuppressed'; unit: string; card: string }
  | { type: 'UnitEliminated'; unit: string; cause: string }
  | { type: 'UnitMoved'; unit: string; path: string[]; carried?: string }
  | { type: 'UnitExited'; unit: string }
  | { type: 'FireDeclared'; unit: string; target: string; range: number; hard: number; soft: number }
  | { type: 'RallyTried'; leader: string; unit: string; success: boolean }
  | { type: 'DigInTried'; leader: string; unit: string; success: boolean }
  | { type: 'AssaultResolved'; hex: string; attacker: string; defender: string; reds: Record<Seat, number>; winner: Seat }
  | { type: 'MarkerPhaseDone'; seat: Seat }
  | { type: 'GameTurnEnded'; turn: number }
  | { type: 'GameDecided'; winners: Seat[]; reason: string };
