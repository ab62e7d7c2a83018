import type { Side } from '../../frontline-general/data/schema.js';
import type { Dir, EdgesOption, TileKind } from './tiles.js';

/**
 * The eight scenarios of 003 §IV and the Expansion Standard Game (003 §III Game Types and Setup 1), as data. Orders of battle, deck limits, entry zones, special
 * rules and win conditions are 003's. Where a scenario lets the players choose (tile placement,
 * starting positions within a zone, the deck itself), the layout here is a REPRESENTATIVE
 * default that satisfies the scenario's constraints; a club passes its own through the game's
 * options (`tiles`, `us.cards`, `de.cards`).
 */

const CREW_LOST = ['Crew Casualty', 'Commander Hit'];

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
type TileList = readonly {
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

const STANDARD_VILLAGE: TileList = [
  { space: 'B3', kind: 'building' },
  { space: 'A7', kind: 'building' },
  { space: 'B5', kind: 'fountain' },
  { space: 'C6', kind: 'crops' },
  { space: 'A4', kind: 'cemetery' },
];

const us = (card: string) => `us-${card}`;
const de = (card: string) => `de-${card}`;
const repeat = (n: number, card: string): string[] => Array.from({ length: n }, () => card);

export const SCENARIOS: ReadonlyMap<ScenarioId, Scenario> = new Map<ScenarioId, Scenario>(
  (
    [
      {
        id: 'man-vs-beast',
        title: 'Man vs. Beast',
        description: 'Village, infantry and a 57mm gun against a Tiger: first to 25 points or Overrun.',
        rule: '003 §IV Man vs. Beast',
        map: 'village',
        tiles: [
          { space: 'B3', kind: 'building' },
          { space: 'A6', kind: 'building' },
          { space: 'B5', kind: 'fountain' },
          { space: 'C4', kind: 'cemetery' },
          { space: 'A4', kind: 'crops' },
          { space: 'C7', kind: 'wire' },
        ],
        start: {
          us: [
            { card: us('sniper'), at: 'A6', with: ['Veteran Soldiers'], withRoll: 8 },
            { card: us('30cal-lmg-team'), at: 'C4' },
            { card: us('rifle-squad'), at: 'B3' },
            { card: us('57mm-at-gun'), crew: us('artillery-crew'), at: 'B4' },
          ],
          de: [
            { card: de('tiger-i'), crew: de('tank-crew'), at: 'B9', with: ['Veteran Crew'], withRoll: 7 },
            { card: de('rifle-squad'), at: 'A9' },
          ],
        },
        decks: {
          us: [...repeat(3, us('rifle-squad')), ...repeat(2, us('30cal-lmg-team')), ...repeat(2, us('bazooka-team')), us('mortar-squad'), us('sniper')],
          de: [...repeat(3, de('rifle-squad')), ...repeat(2, de('mg42-team')), ...repeat(2, de('panzerschreck-team')), de('sniper')],
        },
        deckMax: { us: 35, de: 35 },
        entry: { us: ['A1', 'B1', 'C1'], de: ['A9', 'B9', 'C9'] },
        firstCommitTurn: { us: 2, de: 3 },
        rearLine: false,
        startingHand: { units: 1, commands: 1 },
        extraDraws: 1,
        removeCommands: ['Capture That Unit!', 'Fighter Ace', 'Fire Mission!', 'Fire for Effect!', 'Sabotage', 'Zero In Artillery'],
        victory: { kind: 'points', target: { us: 25, de: 25 } },
        mirrorable: true,
      },
      {
        id: 'what-now-sarge',
        title: 'What Now, Sarge?',
        description: 'Village: US artillery and aircraft soften a German-held village before the infantry enter on turn 3; 51 points or Overrun.',
        rule: '003 §IV What Now, Sarge?',
        map: 'village',
        tiles: [
          { space: 'A3', kind: 'building' },
          { space: 'C3', kind: 'building' },
          { space: 'A6', kind: 'building' },
          { space: 'C6', kind: 'building' },
          { space: 'B5', kind: 'fountain' },
          { space: 'B7', kind: 'cemetery' },
          { space: 'A8', kind: 'crops' },
          { space: 'C8', kind: 'wire' },
        ],
        start: {
          us: [
            { card: us('105mm-howitzer'), crew: us('artillery-crew'), at: 'rear' },
            { card: us('105mm-howitzer'), crew: us('artillery-crew'), at: 'rear' },
            { card: us('8in-howitzer'), crew: us('artillery-crew'), at: 'rear' },
            { card: us('p40-warhawk'), crew: us('pilot'), at: 'air' },
            { card: us('p38-lightning'), crew: us('pilot'), at: 'air' },
          ],
          de: [
            { card: de('tiger-i'), crew: de('tank-crew'), at: 'B9', damaged: ['Fire Control Damage'] },
            { card: de('rifle-squad'), at: 'A6' },
            { card: de('rifle-squad'), at: 'C6' },
            { card: de('mg42-team'), at: 'B7' },
            { card: de('mg42-team'), at: 'A8' },
            { card: de('panzerschreck-team'), at: 'B8' },
            { card: de('sniper'), at: 'C8' },
          ],
        },
        decks: {
          us: [
            ...repeat(4, us('rifle-squad')),
            ...repeat(2, us('30cal-lmg-team')),
            us('bazooka-team'),
            us('mortar-squad'),
            us('sniper'),
            ...repeat(2, us('m4a1-sherman')),
            ...repeat(2, us('tank-crew')),
            us('m10'),
            us('tank-crew'),
            us('57mm-at-gun'),
            us('artillery-crew'),
          ],
          de: [
            ...repeat(3, de('rifle-squad')),
            ...repeat(2, de('mg42-team')),
            de('mortar-squad'),
            de('panzerschreck-team'),
            de('panther'),
            de('tank-crew'),
            de('15cm-sfh-18'),
            de('artillery-crew'),
            de('bf109'),
            de('pilot'),
          ],
        },
        deckMax: { us: 120, de: 100 },
        entry: { us: [], de: ['A9', 'B9', 'C9'] },
        firstCommitTurn: { us: 1, de: 1 },
        rearLine: true,
        startingHand: { units: 4, commands: 3 },
        extraDraws: 2,
        unspotted: { side: 'us', penalty: 5 },
        victory: { kind: 'points', target: { us: 51, de: 51 } },
        mirrorable: true,
      },
      {
        id: 'gunters-return',
        title: "Gunter's Return",
        description: 'Village: the US must hold the German Command Post in A-5 with infantry by the end of turn 6 (8 if the Stuka misses it).',
        rule: "003 §IV Gunter's Return",
        map: 'village',
        tiles: [
          { space: 'A5', kind: 'building' },
          { space: 'A2', kind: 'building' },
          { space: 'A8', kind: 'building' },
          { space: 'C3', kind: 'building' },
          { space: 'C7', kind: 'building' },
          { space: 'B5', kind: 'tiger-wreck' },
        ],
        start: {
          us: [
            { card: us('m4a1-sherman'), crew: us('tank-crew'), at: 'B1', with: ['Veteran Crew'] },
            { card: us('rifle-squad'), at: 'A1' },
            { card: us('rifle-squad'), at: 'B1' },
            { card: us('rifle-squad'), at: 'C1' },
          ],
          de: [
            { card: de('rifle-squad'), at: 'A5' },
            { card: de('mg42-team'), at: 'A4' },
            { card: de('rifle-squad'), at: 'B6' },
          ],
        },
        decks: {
          us: [
            ...repeat(4, us('rifle-squad')),
            ...repeat(2, us('30cal-lmg-team')),
            ...repeat(2, us('bazooka-team')),
            us('mortar-squad'),
            us('sniper'),
            us('m4a1-sherman'),
            us('tank-crew'),
            us('m10'),
            us('tank-crew'),
            us('57mm-at-gun'),
            us('artillery-crew'),
            us('105mm-howitzer'),
            us('artillery-crew'),
          ],
          de: [...repeat(2, de('rifle-squad')), ...repeat(2, de('mg42-team')), de('sniper')],
        },
        deckMax: { us: 100, de: 20 },
        entry: { us: ['A1', 'B1', 'C1'], de: ['A4', 'A6'] },
        firstCommitTurn: { us: 1, de: 1 },
        rearLine: true,
        startingHand: { units: 2, commands: 3 },
        extraDraws: 2,
        // 003 lists three aircraft (two Bf 109s and the Stuka) though the setup says two: RULINGS.
        reinforcements: [
          {
            side: 'de',
            turn: 6,
            units: [
              { card: de('bf109'), crew: de('pilot'), at: 'air', with: ['Fighter Ace'] },
              { card: de('bf109'), crew: de('pilot'), at: 'air' },
              { card: de('ju87-stuka'), crew: de('pilot'), at: 'air' },
            ],
          },
        ],
        noBuildingTargets: 'us',
        victory: { kind: 'command-post', space: 'A5', turn: 6, extendedTurn: 8 },
      },
      {
        id: 'liri-valley-road',
        title: 'The Liri Valley Road',
        description: 'Village road: six US convoy units run row B from B-9 to B-1 under hidden German artillery; two must get through.',
        rule: '003 §IV The Liri Valley Road',
        map: 'village',
        tiles: [
          { space: 'A3', kind: 'building' },
          { space: 'A4', kind: 'building' },
          { space: 'A5', kind: 'crops' },
        ],
        start: {
          us: [
            { card: us('m4a1-sherman'), crew: us('tank-crew'), at: 'B7' },
            { card: us('m4a1-sherman'), crew: us('tank-crew'), at: 'B8' },
            { card: us('m10'), crew: us('tank-crew'), at: 'C9' },
            { card: us('rifle-squad'), at: 'B7' },
            { card: us('rifle-squad'), at: 'B8' },
          ],
          de: [
            { card: de('15cm-sfh-18'), crew: de('artillery-crew'), at: 'rear', with: ['Zero In Artillery'] },
            { card: de('15cm-sfh-18'), crew: de('artillery-crew'), at: 'rear', with: ['Zero In Artillery'] },
          ],
        },
        decks: {
          us: [
            ...repeat(4, us('rifle-squad')),
            us('30cal-lmg-team'),
            us('bazooka-team'),
            us('mortar-squad'),
            us('m4a1-sherman'),
            us('tank-crew'),
            us('57mm-at-gun'),
            us('artillery-crew'),
            us('105mm-howitzer'),
            us('artillery-crew'),
          ],
          de: [de('15cm-sfh-18'), de('artillery-crew'), de('88mm-flak-36'), de('artillery-crew'), de('bf109'), de('pilot')],
        },
        deckMax: { us: 75, de: 50 },
        entry: { us: ['B9'], de: [] },
        firstCommitTurn: { us: 1, de: 1 },
        rearLine: true,
        startingHand: { units: 2, commands: 1 },
        extraDraws: 2,
        reinforcements: [{ side: 'us', turn: 3, units: [{ card: us('p40-warhawk'), crew: us('pilot'), at: 'air' }] }],
        noAircraftBefore: { us: 3 },
        hiddenSpotters: 'de',
        convoy: { turns: [2, 4, 6], perTurn: 2, entry: 'B9', goal: 'B1' },
        victory: { kind: 'convoy', needed: 2 },
      },
      {
        id: 'moonlight-on-metal',
        title: 'Moonlight on Metal',
        description: 'Defensive Line at night: three US units must exit the map across row A by the end of turn 10.',
        rule: '003 §IV Moonlight on Metal',
        map: 'defensive-line',
        tiles: [
          { space: 'A3', kind: 'mg-nest' },
          { space: 'A7', kind: 'mg-nest' },
          { space: 'A5', kind: 'bunker' },
          { space: 'B2', kind: 'natural-cover' },
          { space: 'B6', kind: 'wire' },
          { space: 'A8', kind: 'infantry-trench' },
          { space: 'C3', kind: 'natural-cover' },
          { space: 'C7', kind: 'natural-cover' },
          { space: 'B8', kind: 'natural-cover' },
        ],
        start: {
          us: [
            { card: us('rifle-squad'), at: 'C2' },
            { card: us('rifle-squad'), at: 'C4' },
            { card: us('rifle-squad'), at: 'C6' },
            { card: us('30cal-lmg-team'), at: 'C3' },
            { card: us('30cal-lmg-team'), at: 'C7' },
            { card: us('sniper'), at: 'C8' },
            { card: us('105mm-howitzer'), crew: us('artillery-crew'), at: 'rear' },
            { card: us('105mm-howitzer'), crew: us('artillery-crew'), at: 'rear' },
          ],
          de: [
            { card: de('rifle-squad'), at: 'A4' },
            { card: de('rifle-squad'), at: 'A6' },
            { card: de('mg42-team'), at: 'A3' },
            { card: de('mg42-team'), at: 'A7' },
            { card: de('15cm-sfh-18'), crew: de('artillery-crew'), at: 'rear' },
          ],
        },
        decks: {
          us: [
            ...repeat(5, us('rifle-squad')),
            ...repeat(2, us('30cal-lmg-team')),
            ...repeat(2, us('bazooka-team')),
            ...repeat(2, us('mortar-squad')),
            us('sniper'),
            us('m4a1-sherman'),
            us('tank-crew'),
            us('57mm-at-gun'),
            us('artillery-crew'),
            us('105mm-howitzer'),
            us('artillery-crew'),
          ],
          de: [
            ...repeat(5, de('rifle-squad')),
            ...repeat(3, de('mg42-team')),
            de('mortar-squad'),
            de('panzerschreck-team'),
            de('sniper'),
            de('panther'),
            de('tank-crew'),
            de('15cm-sfh-18'),
            de('artillery-crew'),
          ],
        },
        deckMax: { us: 100, de: 100 },
        entry: { us: ['C1', 'C2', 'C3', 'C4', 'C5', 'C6', 'C7', 'C8', 'C9'], de: ['A1', 'A2', 'A3', 'A4', 'A5', 'A6', 'A7', 'A8', 'A9'] },
        firstCommitTurn: { us: 1, de: 2 },
        rearLine: true,
        startingHand: { units: 4, commands: 3 },
        extraDraws: 2,
        infantryMove: 1,
        noSprint: true,
        noPush: true,
        vehiclesOnRoad: true,
        night: true,
        victory: { kind: 'breakthrough', units: 3, turn: 10 },
      },
      {
        id: 'crimson-snow',
        title: 'Crimson Snow',
        description: 'Defensive Line in snow: weather grounds aircraft until the US out-rolls Germany; three US units must exit across row A by turn 10.',
        rule: '003 §IV Crimson Snow',
        map: 'defensive-line',
        tiles: [
          { space: 'A5', kind: 'bunker' },
          { space: 'A3', kind: 'panzernest' },
          { space: 'B4', kind: 'natural-cover' },
          { space: 'A7', kind: 'infantry-trench' },
          { space: 'B6', kind: 'wire' },
          { space: 'B2', kind: 'minefield' },
          { space: 'A9', kind: 'tank-trench' },
          { space: 'C2', kind: 'natural-cover' },
          { space: 'C8', kind: 'natural-cover' },
          { space: 'B8', kind: 'natural-cover' },
        ],
        start: {
          us: [
            { card: us('rifle-squad'), at: 'C4' },
            { card: us('rifle-squad'), at: 'C6' },
            { card: us('30cal-lmg-team'), at: 'C5' },
            { card: us('105mm-howitzer'), crew: us('artillery-crew'), at: 'rear' },
            { card: us('105mm-howitzer'), crew: us('artillery-crew'), at: 'rear' },
          ],
          de: [
            { card: de('rifle-squad'), at: 'A4' },
            { card: de('rifle-squad'), at: 'A6' },
            { card: de('rifle-squad'), at: 'A7' },
            { card: de('mg42-team'), at: 'A3' },
            { card: de('mg42-team'), at: 'A5' },
            { card: de('88mm-flak-36'), crew: de('artillery-crew'), at: 'rear' },
            { card: de('88mm-flak-36'), crew: de('artillery-crew'), at: 'rear' },
          ],
        },
        decks: {
          us: [
            ...repeat(4, us('rifle-squad')),
            ...repeat(2, us('30cal-lmg-team')),
            us('bazooka-team'),
            us('mortar-squad'),
            us('sniper'),
            us('m4a1-sherman'),
            us('tank-crew'),
            us('p40-warhawk'),
            us('pilot'),
            us('105mm-howitzer'),
            us('artillery-crew'),
          ],
          de: [
            ...repeat(4, de('rifle-squad')),
            ...repeat(2, de('mg42-team')),
            de('mortar-squad'),
            de('panzerschreck-team'),
            de('panther'),
            de('tank-crew'),
            de('ju87-stuka'),
            de('pilot'),
            de('15cm-sfh-18'),
            de('artillery-crew'),
          ],
        },
        deckMax: { us: 100, de: 100 },
        entry: { us: ['C1', 'C2', 'C3', 'C4', 'C5', 'C6', 'C7', 'C8', 'C9'], de: ['A1', 'A2', 'A3', 'A4', 'A5', 'A6', 'A7', 'A8', 'A9'] },
        firstCommitTurn: { us: 1, de: 1 },
        rearLine: true,
        startingHand: { units: 4, commands: 3 },
        extraDraws: 2,
        infantryMove: 1,
        noSprint: true,
        noPush: true,
        weather: true,
        victory: { kind: 'breakthrough', units: 3, turn: 10 },
      },
      {
        id: 'a-buried-tank',
        title: 'A Buried Tank',
        description: 'Defensive Line in mud: the US needs 35 points and the Pantherturm I destroyed, Germany 40 points; or Overrun.',
        rule: '003 §IV A Buried Tank',
        map: 'defensive-line',
        tiles: [
          { space: 'A5', kind: 'pantherturm' },
          { space: 'A3', kind: 'natural-cover' },
          { space: 'A7', kind: 'infantry-trench' },
          { space: 'B3', kind: 'wire' },
          { space: 'B8', kind: 'mg-nest' },
          { space: 'C2', kind: 'natural-cover' },
          { space: 'C8', kind: 'natural-cover' },
          { space: 'B1', kind: 'natural-cover' },
        ],
        start: {
          us: [
            // 003 §IV A Buried Tank: each with a "Crew Casualty" Damage card. The REPRESENTATIVE
            // Damage deck holds one; the second takes Commander Hit, the other card whose vehicle
            // edge killed the crew in the version-2 deck.
            { card: us('m4a1-sherman'), at: 'B6', damaged: CREW_LOST },
            { card: us('m4a1-sherman'), at: 'C5', damaged: CREW_LOST },
            { card: us('rifle-squad'), at: 'C3' },
            { card: us('rifle-squad'), at: 'C7' },
            { card: us('30cal-lmg-team'), at: 'C4' },
            { card: us('sniper'), at: 'C8' },
          ],
          de: [
            { card: de('pantherturm-i'), crew: de('artillery-crew'), at: 'A5' },
            { card: de('rifle-squad'), at: 'A4' },
            { card: de('rifle-squad'), at: 'A7' },
            { card: de('mg42-team'), at: 'B8' },
          ],
        },
        decks: {
          us: [
            ...repeat(4, us('rifle-squad')),
            ...repeat(2, us('30cal-lmg-team')),
            ...repeat(2, us('bazooka-team')),
            ...repeat(2, us('mortar-squad')),
            us('sniper'),
            us('105mm-howitzer'),
            us('artillery-crew'),
          ],
          de: [
            ...repeat(4, de('rifle-squad')),
            ...repeat(2, de('mg42-team')),
            ...repeat(2, de('mortar-squad')),
            de('panzerschreck-team'),
            de('sniper'),
            de('15cm-sfh-18'),
            de('artillery-crew'),
          ],
        },
        deckMax: { us: 60, de: 60 },
        entry: { us: ['C1', 'C2', 'C3', 'C4', 'C5', 'C6', 'C7', 'C8', 'C9'], de: ['A1', 'A2', 'A3', 'A4', 'A5', 'A6', 'A7', 'A8', 'A9'] },
        firstCommitTurn: { us: 1, de: 1 },
        rearLine: true,
        startingHand: { units: 4, commands: 3 },
        extraDraws: 2,
        infantryMove: 1,
        noSprint: true,
        noVehicleCommit: true,
        victory: { kind: 'buried-tank', de: 40, us: 35 },
      },
      {
        id: 'epiphany',
        title: 'Epiphany',
        description: 'Defensive Line past the broken emplacement: two Reserves decks each (infantry first, then support); 71 points or Overrun.',
        rule: '003 §IV Epiphany',
        map: 'defensive-line',
        tiles: [
          { space: 'C2', kind: 'pantherturm', intact: false },
          { space: 'A4', kind: 'building' },
          { space: 'B3', kind: 'natural-cover' },
          { space: 'A7', kind: 'natural-cover' },
          { space: 'B6', kind: 'natural-cover' },
          { space: 'C7', kind: 'natural-cover' },
        ],
        start: {
          us: [
            { card: us('rifle-squad'), at: 'C2', with: ['Veteran Soldiers'] },
            { card: us('rifle-squad'), at: 'C3' },
            { card: us('30cal-lmg-team'), at: 'B2' },
          ],
          de: [
            { card: de('rifle-squad'), at: 'A4' },
            { card: de('rifle-squad'), at: 'A7' },
            { card: de('mg42-team'), at: 'B6' },
          ],
        },
        decks: {
          us: [...repeat(4, us('rifle-squad')), ...repeat(2, us('30cal-lmg-team')), us('bazooka-team'), us('mortar-squad'), us('sniper')],
          de: [...repeat(3, de('rifle-squad')), ...repeat(2, de('mg42-team')), de('panzerschreck-team'), de('mortar-squad'), de('sniper')],
        },
        support: {
          us: [
            us('m4a1-sherman'),
            us('tank-crew'),
            us('m10'),
            us('tank-crew'),
            us('105mm-howitzer'),
            us('artillery-crew'),
            us('p40-warhawk'),
            us('pilot'),
            us('57mm-at-gun'),
            us('artillery-crew'),
            ...repeat(2, us('rifle-squad')),
          ],
          de: [
            de('panther'),
            de('tank-crew'),
            de('tiger-i'),
            de('tank-crew'),
            de('15cm-sfh-18'),
            de('artillery-crew'),
            de('bf109'),
            de('pilot'),
            ...repeat(2, de('rifle-squad')),
          ],
        },
        deckMax: { us: 135, de: 135 },
        entry: { us: ['C2', 'C3', 'C4', 'C5', 'C6', 'C7', 'C8'], de: ['A1', 'B1', 'C1', 'A9', 'B9', 'C9'] },
        firstCommitTurn: { us: 1, de: 1 },
        rearLine: true,
        startingHand: { units: 2, commands: 3 },
        extraDraws: 2,
        extraCommands: { de: ['Ambush!'] },
        victory: { kind: 'points', target: { us: 71, de: 71 } },
      },
      {
        // 003 §III Game Types and Setup 1 (a–j) and Win Conditions: the Expansion Standard Game.
        id: 'standard-game',
        title: 'Expansion Standard Game',
        description: 'Either map side, 80–100 point decks, no starting units: first to 51 points or Overrun.',
        rule: '003 §III Game Types and Setup 1',
        map: 'village',
        // (c) At least 4 tiles, placed by the players: REPRESENTATIVE layouts, one per map side (the `map` option).
        tiles: STANDARD_VILLAGE,
        maps: {
          village: STANDARD_VILLAGE,
          'defensive-line': [
            { space: 'B3', kind: 'natural-cover' },
            { space: 'A6', kind: 'infantry-trench' },
            { space: 'B6', kind: 'wire' },
            { space: 'A8', kind: 'mg-nest' },
            { space: 'C5', kind: 'minefield' },
          ],
        },
        // (j) The turn sequence begins with the map empty: every unit is committed from the hand.
        start: { us: [], de: [] },
        // (d) REPRESENTATIVE decks within 80–100 (US 98 with an M7 that changes line, Germany 84); a club passes its own as `us.cards` / `de.cards`.
        decks: {
          us: [
            ...repeat(4, us('rifle-squad')),
            ...repeat(2, us('30cal-lmg-team')),
            ...repeat(2, us('bazooka-team')),
            us('mortar-squad'),
            us('sniper'),
            us('m4a1-sherman'),
            us('tank-crew'),
            us('105mm-howitzer'),
            us('artillery-crew'),
            us('57mm-at-gun'),
            us('artillery-crew'),
            us('p40-warhawk'),
            us('pilot'),
            us('m7-priest'),
            us('artillery-crew'),
          ],
          de: [
            ...repeat(4, de('rifle-squad')),
            ...repeat(2, de('mg42-team')),
            de('panzerschreck-team'),
            de('mortar-squad'),
            de('sniper'),
            de('panther'),
            de('tank-crew'),
            de('15cm-sfh-18'),
            de('artillery-crew'),
            de('bf109'),
            de('pilot'),
          ],
        },
        deckMax: { us: 100, de: 100 },
        deckMin: { us: 80, de: 80 },
        // (e) Setup spaces for front-line reinforcements: REPRESENTATIVE, each side's edge column.
        entry: { us: ['A1', 'B1', 'C1'], de: ['A9', 'B9', 'C9'] },
        firstCommitTurn: { us: 1, de: 1 },
        rearLine: true,
        // (g) four Unit cards; (i) three Command cards each.
        startingHand: { units: 4, commands: 3 },
        extraDraws: 2,
        victory: { kind: 'points', target: { us: 51, de: 51 } },
      },
    ] satisfies Scenario[]
  ).map((s) => [s.id, s]),
);

export const SCENARIO_IDS = [...SCENARIOS.keys()] as [ScenarioId, ...ScenarioId[]];
