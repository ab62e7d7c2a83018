/**
 * Front Line (rulebook 002): the numbers the book prints, and the data it refers to but does
 * not print, supplied as REPRESENTATIVE data that a club replaces through options
 * (`layout`, `resultsTable`, `supplyValues`).
 *
 * Printed facts used here: a 10 × 6 battlefield, a 3 × 6 country at each end (002 p.1 para 3),
 * two purple #1 hexes (p.1), each country's Capital (W), Air Base (#2) and Industry (#3) (p.1,
 * p.D), Lake Nogo's eight water squares in the centre (p.D para 4), heights (p.3 para 4),
 * 20 units a country: 9 Infantry, 4 Tanks, 2 Artillery placed and a Reserve of 1 Artillery,
 * 2 Infantry, 2 Tanks (p.1 Setup), the Balanced supply card 3 Air, 3 Capital, 4 Industry each
 * round (p.1 Setup), Build costs 2 / 2 / 3 (p.B, p.4), ranges R1 / R2 / R3 (p.2 Attack).
 */

export type Kind = 'infantry' | 'tank' | 'artillery';
export type SupplyType = 'air' | 'capital' | 'industry';
export type CityType = 'capital' | 'airbase' | 'industry';
export type Terrain = 'valley' | 'hill' | 'mountain' | 'desert' | 'beach' | 'port' | 'city' | 'purple' | 'water';
export type Month = 'September' | 'October' | 'November' | 'December';

export const MONTHS: readonly Month[] = ['September', 'October', 'November', 'December'];
export const KINDS: readonly Kind[] = ['infantry', 'tank', 'artillery'];
export const SUPPLY_TYPES: readonly SupplyType[] = ['air', 'capital', 'industry'];

/** Range R# of an active unit (002 p.2 Attack). */
export const RANGE: Readonly<Record<Kind, number>> = { infantry: 1, tank: 2, artillery: 3 };
/** Industry supply a Build costs (002 p.4 Build, p.B). */
export const BUILD_COST: Readonly<Record<Kind, number>> = { infantry: 2, artillery: 2, tank: 3 };
/** Units placed at set-up and held in Reserve (002 p.1 Setup). */
export const PLACED: Readonly<Record<Kind, number>> = { infantry: 9, tank: 4, artillery: 2 };
export const RESERVE: Readonly<Record<Kind, number>> = { infantry: 2, tank: 2, artillery: 1 };

/**
 * Layout letters: `.` valley, `h` hill, `m` mountain, `d` desert, `b` beach, `p` port,
 * `W` Capital, `A` Air Base, `I` Industry, `o` purple #1 hex, `~` water (Lake Nogo).
 * Columns A–J left to right (Green's country A–C, the neutral middle D–G, Red's country H–J),
 * rows 1–6 top to bottom.
 */
export const TERRAIN_OF: ReadonlyMap<string, { terrain: Terrain; city?: CityType }> = new Map([
  ['.', { terrain: 'valley' }],
  ['h', { terrain: 'hill' }],
  ['m', { terrain: 'mountain' }],
  ['d', { terrain: 'desert' }],
  ['b', { terrain: 'beach' }],
  ['p', { terrain: 'port' }],
  ['W', { terrain: 'city', city: 'capital' }],
  ['A', { terrain: 'city', city: 'airbase' }],
  ['I', { terrain: 'city', city: 'industry' }],
  ['o', { terrain: 'purple' }],
  ['~', { terrain: 'water' }],
]);

/** Heights (002 p.3 para 4, p.E): mountains highest, hills middle, every other square low. */
export const HEIGHT: Readonly<Record<Terrain, number>> = {
  mountain: 2,
  hill: 1,
  valley: 0,
  desert: 0,
  beach: 0,
  port: 0,
  city: 0,
  purple: 0,
  water: 0,
};

/** Green's half (columns A–E) of each row; Red's half is the same turned half a circle, so both sides get the same ground. */
const halves = (left: readonly string[]): string[] => left.map((row, r) => row + [...left[left.length - 1 - r]!].reverse().join(''));

export type BattlefieldId = 'main' | 'lake-nogo' | 'mt-range' | 'great-desert';

/**
 * REPRESENTATIVE layouts: 002 names the four battlefields and says what squares exist, but
 * prints no map. Each keeps the printed facts: three cities per country, a Port and Beach in
 * each country, two purple #1 hexes in the middle, Lake Nogo's eight water squares D3–G4.
 */
export const BATTLEFIELDS: Readonly<Record<BattlefieldId, { title: string; edition: string; rows: readonly string[] }>> = {
  main: { title: 'Main', edition: 'Strategy', rows: halves(['b.hm.', 'pAh.o', '.W.d.', 'hI.hd', 'm..b.', '.hd.m']) },
  'lake-nogo': { title: 'Lake Nogo', edition: 'Strategy', rows: halves(['b.h..', 'pAhmo', '.W.~~', 'hId~~', 'm.h.h', '.hb.d']) },
  'mt-range': { title: 'Mt. Range', edition: 'Tactics', rows: halves(['bhmm.', 'pAh.o', 'hWmh.', '.Ih.m', 'm.hm.', '.hbhh']) },
  'great-desert': { title: 'The Great Desert', edition: 'Tactics', rows: halves(['b.dd.', 'pA.do', '.Wd.d', 'dIh.d', 'h.dd.', '.dbdm']) },
};
export const BATTLEFIELD_IDS = Object.keys(BATTLEFIELDS) as BattlefieldId[];

/**
 * REPRESENTATIVE recommended set-up for Green on the Main battlefield (002 p.1: the Items card
 * shows one, for Main only; it is not printed). It follows the book's advice: Infantry on the
 * Air Base, a unit on the Capital, Artillery on high ground, the Industry left empty, units on
 * the Port and Beach. Red's is the same turned half a circle.
 */
export const RECOMMENDED_GREEN: readonly { kind: Kind; square: string }[] = [
  { kind: 'infantry', square: 'B2' },
  { kind: 'infantry', square: 'B3' },
  { kind: 'infantry', square: 'A1' },
  { kind: 'infantry', square: 'A2' },
  { kind: 'infantry', square: 'C1' },
  { kind: 'infantry', square: 'A3' },
  { kind: 'infantry', square: 'C5' },
  { kind: 'infantry', square: 'B6' },
  { kind: 'infantry', square: 'A6' },
  { kind: 'tank', square: 'C3' },
  { kind: 'tank', square: 'C4' },
  { kind: 'tank', square: 'B5' },
  { kind: 'tank', square: 'C6' },
  { kind: 'artillery', square: 'A5' },
  { kind: 'artillery', square: 'C2' },
];

export type SupplyCardId = 'balanced' | 'centered' | 'staggered';
/** Air, Capital, Industry chits a card grants for September … December. */
export type SupplyCard = readonly (readonly [number, number, number])[];

/**
 * Supply cards (002 p.1 Setup). Balanced is printed: 3 Air, 3 Capital, 4 Industry every round.
 * Centered and Staggered are REPRESENTATIVE: their values are not printed.
 */
export const SUPPLY_CARDS: Readonly<Record<SupplyCardId, SupplyCard>> = {
  balanced: [
    [3, 3, 4],
    [3, 3, 4],
    [3, 3, 4],
    [3, 3, 4],
  ],
  centered: [
    [2, 4, 3],
    [3, 4, 3],
    [3, 4, 3],
    [2, 4, 3],
  ],
  staggered: [
    [4, 2, 3],
    [2, 4, 4],
    [4, 2, 3],
    [2, 4, 4],
  ],
};

export type Outcome = 'blitz' | 'disrupt' | 'rout' | 'adv' | 'miss';
export type Icon = 'capital' | 'airbase' | 'industry' | 'soldier';
export interface ResultCell {
  readonly result: Outcome;
  readonly icon?: Icon;
}
/** The Attack Results table: white range columns 1–3 and the yellow Advantage column, each indexed by die face 1–6. */
export interface ResultsTable {
  readonly range: readonly [readonly ResultCell[], readonly ResultCell[], readonly ResultCell[]];
  readonly adv: readonly ResultCell[];
}

const c = (result: Outcome, icon?: Icon): ResultCell => (icon ? { result, icon } : { result });

/**
 * REPRESENTATIVE Attack Results table (002 p.3, p.D: the table is not printed). It keeps what
 * the book says: white columns for ranges 1, 2, 3 (longer range, weaker results) and a yellow
 * Advantage column reached from an ADV result; results Blitz, Disrupt, Rout, ADV, Miss; City
 * Defense icons (Capital, Industry, Air Base) and the Soldier icon; a white 4 shows the Soldier
 * in every column (EX6).
 */
export const RESULTS_TABLE: ResultsTable = {
  range: [
    [c('miss'), c('rout', 'industry'), c('disrupt', 'airbase'), c('disrupt', 'soldier'), c('adv'), c('blitz', 'capital')],
    [c('miss'), c('miss'), c('rout', 'airbase'), c('rout', 'soldier'), c('adv'), c('disrupt', 'industry')],
    [c('miss'), c('miss'), c('miss'), c('rout', 'soldier'), c('adv'), c('disrupt', 'capital')],
  ],
  adv: [c('rout'), c('disrupt', 'soldier'), c('disrupt', 'industry'), c('blitz', 'airbase'), c('blitz', 'capital'), c('blitz')],
};

export const ROUNDS = 4;
/** Turns each player takes in a round (002 p.1: 3 turns per player a month). */
export const TURNS_PER_PLAYER = 3;
/** Empty-city attack: a die of 1–4 takes the city, 5–6 misses (002 p.3 Empty City). */
export const EMPTY_CITY_HIT = 4;
