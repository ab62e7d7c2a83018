import type { Side } from '../../frontline-general/data/schema.js';
import type { Dir, EdgesOption, TileKind } from './tiles.js';
import { MAN_VS_BEAST } from './scenarios/man-vs-beast.js';
import { WHAT_NOW_SARGE } from './scenarios/what-now-sarge.js';
import { GUNTERS_RETURN } from './scenarios/gunters-return.js';
import { LIRI_VALLEY_ROAD } from './scenarios/liri-valley-road.js';
import { MOONLIGHT_ON_METAL } from './scenarios/moonlight-on-metal.js';
import { CRIMSON_SNOW } from './scenarios/crimson-snow.js';
import { A_BURIED_TANK } from './scenarios/a-buried-tank.js';
import { EPIPHANY } from './scenarios/epiphany.js';
import { STANDARD_GAME } from './scenarios/standard-game.js';

/**
 * The eight scenarios of 003 §IV and the Expansion Standard Game (003 §III Game Types and Setup 1), as data. Orders of battle, deck limits, entry zones, special
 * rules and win conditions are 003's. Where a scenario lets the players choose (tile placement,
 * starting positions within a zone, the deck itself), the layout here is a REPRESENTATIVE
 * default that satisfies the scenario's constraints; a club passes its own through the game's
 * options (`tiles`, `us.cards`, `de.cards`). One file a scenario, under scenarios/.
 */

export type ScenarioId =
  | 'man-vs-beast'
  | 'what-now-sarge'
  | 'gunters-return'
  | 'liri-valley-road'
  | 'moonlight-on-metal'
  | 'crimson-snow'
  | 'a-buried-tank'
  | 'epiphany'
  | 'standard-game';

export type MapSide = 'village' | 'defensive-line';
export type TileList = readonly {
  readonly space: string;
  readonly kind: TileKind;
  readonly intact?: boolean;
  readonly arrows?: readonly Dir[];
  readonly edges?: EdgesOption;
}[];

export interface Placement {
  readonly card: string;
  readonly crew?: string;
  /** A space ('B5'), 'rear' or 'air'. */
  readonly at: string;
  /** Command card titles placed with the unit (Veteran Crew …). */
  readonly with?: readonly string[];
  /** The Damage card the unit starts with: the first unused card whose edge for the unit has one of these names. */
  readonly damaged?: readonly string[];
  /** Placed only if 1d10 reaches this (Man vs. Beast: the Sniper's card on 8+, the Tiger's on 7+). */
  readonly withRoll?: number;
}

export type Victory =
  | { readonly kind: 'points'; readonly target: Readonly<Record<Side, number>> }
  | { readonly kind: 'command-post'; readonly space: string; readonly turn: number; readonly extendedTurn: number }
  | { readonly kind: 'convoy'; readonly needed: number }
  | { readonly kind: 'breakthrough'; readonly units: number; readonly turn: number }
  | { readonly kind: 'buried-tank'; readonly de: number; readonly us: number };

export interface Scenario {
  readonly id: ScenarioId;
  readonly title: string;
  readonly description: string;
  /** 003 section the scenario is printed in. */
  readonly rule: string;
  readonly map: MapSide;
  readonly tiles: TileList;
  /** The Standard Game: the players choose the map side (the `map` option); its REPRESENTATIVE tiles. */
  readonly maps?: Readonly<Record<MapSide, TileList>>;
  readonly start: Readonly<Record<Side, readonly Placement[]>>;
  /** REPRESENTATIVE Reserves decks within the scenario's limits; Epiphany's second deck is `support`. */
  readonly decks: Readonly<Record<Side, readonly string[]>>;
  readonly support?: Readonly<Record<Side, readonly string[]>>;
  readonly deckMax: Readonly<Record<Side, number>>;
  /** The Standard Game's minimum deck (003 Setup 1d: 80 points). */
  readonly deckMin?: Readonly<Record<Side, number>>;
  /** Spaces new front-line units enter by (003 Commitment 1), per side; [] until a turn given below. */
  readonly entry: Readonly<Record<Side, readonly string[]>>;
  readonly firstCommitTurn: Readonly<Record<Side, number>>;
  readonly rearLine: boolean;
  readonly startingHand: { readonly units: number; readonly commands: number };
  /** Extra cards in the Draw Phase besides the first Command card (003 Draw Phase: 2; Man vs. Beast: 1). */
  readonly extraDraws: number;
  readonly removeCommands?: readonly string[];
  readonly extraCommands?: Readonly<Partial<Record<Side, readonly string[]>>>;
  readonly infantryMove?: 1;
  readonly noSprint?: boolean;
  readonly noPush?: boolean;
  readonly vehiclesOnRoad?: boolean;
  readonly noVehicleCommit?: boolean;
  readonly night?: boolean;
  readonly weather?: boolean;
  /** Aircraft that arrive in play at the start of a turn's Commitment Phase. */
  readonly reinforcements?: readonly { readonly side: Side; readonly turn: number; readonly units: readonly Placement[] }[];
  readonly noAircraftBefore?: Readonly<Partial<Record<Side, number>>>;
  /** What Now, Sarge?: unspotted rear-line artillery at +5 while the US has no ground unit on the map. */
  readonly unspotted?: { readonly side: Side; readonly penalty: number };
  /** Liri Valley Road: German artillery fires as if every front-line target were spotted. */
  readonly hiddenSpotters?: Side;
  readonly convoy?: { readonly turns: readonly number[]; readonly perTurn: number; readonly entry: string; readonly goal: string };
  readonly noBuildingTargets?: Side;
  readonly victory: Victory;
  /** Setup-zone columns that the German player chooses between (1 or 9); layouts are written for 9 and mirrored. */
  readonly mirrorable?: boolean;
}

/** In 003's order, as the engine's `scenario` option lists them. */
export const SCENARIOS: ReadonlyMap<ScenarioId, Scenario> = new Map<ScenarioId, Scenario>(
  [MAN_VS_BEAST, WHAT_NOW_SARGE, GUNTERS_RETURN, LIRI_VALLEY_ROAD, MOONLIGHT_ON_METAL, CRIMSON_SNOW, A_BURIED_TANK, EPIPHANY, STANDARD_GAME].map((s) => [
    s.id,
    s,
  ]),
);

export const SCENARIO_IDS = [...SCENARIOS.keys()] as [ScenarioId, ...ScenarioId[]];
