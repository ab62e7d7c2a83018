/**
 * Feature tiles (003 §II Feature Tiles, types 1–14). The kinds, what may enter them and which
 * weapons destroy them are 003's; numbers 003 does not print are REPRESENTATIVE (marked so):
 * the defence bonuses of the cemetery, ruined buildings, the ruined fountain and the Panzernest,
 * the concealment values, and the tile numbers other than 9A (bunker) and 21A (Tiger wreck).
 * A club replaces any tile through the `tiles` option of a game.
 */
export const TILE_KINDS = [
  'building',
  'fountain',
  'tiger-wreck',
  'crops',
  'cemetery',
  'wire',
  'natural-cover',
  'bunker',
  'mg-nest',
  'panzernest',
  'pantherturm',
  'tank-trench',
  'infantry-trench',
  'minefield',
] as const;
export type TileKind = (typeof TILE_KINDS)[number];

/** A side of a tile on the map: north faces row A (the German side), south row C. */
export const DIRS = ['north', 'south', 'east', 'west'] as const;
export type Dir = (typeof DIRS)[number];

/** A highlighted tile edge (003 §III Combat 8): red and green conceal occupants; red also blocks their fire out. */
export const EDGE_COLOURS = ['red', 'green'] as const;
export type EdgeColour = (typeof EDGE_COLOURS)[number];
/** The highlighted sides of a tile; a side not named is un-highlighted. */
export type Edges = Readonly<Partial<Record<Dir, EdgeColour>>>;
/** The `tiles[].edges` option: a side may also be named 'none'. */
export type EdgesOption = Readonly<Partial<Record<Dir, EdgeColour | 'none'>>>;
/** The highlighted sides of an `edges` option, 'none' left out. */
export const highlighted = (o: EdgesOption): Edges => Object.fromEntries(DIRS.flatMap((d) => (o[d] === 'red' || o[d] === 'green' ? [[d, o[d]]] : [])));

export interface TileSide {
  /** Defence bonus for occupying infantry; 'impervious': occupants cannot be attacked from outside. */
  readonly defense: number | 'impervious';
  /** Blocks line of sight across the tile (walls, tall crops). */
  readonly blocksLos: boolean;
  /** Added to the value an attack from outside needs against occupants (concealment; REPRESENTATIVE amounts). */
  readonly concealment: number;
}

export interface TileSpec {
  readonly kind: TileKind;
  readonly title: string;
  /** 'village' or 'defensive-line' tile set (003 §II Village/Defensive Line Map). */
  readonly set: 'village' | 'defensive-line' | 'both';
  readonly intact: TileSide;
  /** The ruined side, for destructible tiles; null when nothing destroys it. */
  readonly ruined: TileSide | null;
  /** Smallest main-gun calibre (mm) that may destroy it from a tank (003 §II, Combat 20). */
  readonly minCalibre: number;
  /** Obstacle: entering or leaving (not by arrows) ends movement (003 Movement 7). */
  readonly obstacle: boolean;
  readonly tanksMayEnter: boolean;
  /** A tank entering removes the tile (crops, wire: 003 §II 4, 6). */
  readonly removedByTank: boolean;
  /** Exit check on 2d10 (003 §II 6 wire, 14 minefield). */
  readonly exitCheck: 'wire' | 'mines' | null;
  /** Only these unit roles gain the defence bonus (MG Nest: MG, bazooka/Panzerschreck teams, snipers). */
  readonly bonusFor?: readonly string[];
  /** Ground attacks only (the bonus or concealment does not apply to artillery and mortars). */
  readonly groundOnly?: boolean;
  /**
   * Entry/exit arrows (003 §II 8, 12, 13; Movement 7): the sides infantry may cross. `free`: crossing
   * them does not stop the move (bunker, infantry trench); otherwise the obstacle rule still applies
   * (the tank trench, crossed only perpendicular to it). `only`: no other side may be crossed
   * (bunker, tank trench); otherwise the other sides follow the obstacle rule (infantry trench). The
   * tile art is not printed: `default` is a REPRESENTATIVE orientation (trenches running along the
   * line east–west, the bunker entered from its flanks), which a club's `tiles` option replaces per tile.
   */
  readonly arrows?: { readonly only: boolean; readonly free: boolean; readonly default: readonly Dir[] };
  /**
   * Highlighted edges of the intact side (003 §III Combat 8). The tile art is not printed: these are
   * REPRESENTATIVE, green on all four sides of the tiles whose occupants 003 makes impervious (occupants
   * concealed from every direction and free to fire out), none elsewhere. A club's `tiles[].edges` replaces them.
   */
  readonly edges?: Edges;
}

const ALL_GREEN: Edges = { north: 'green', south: 'green', east: 'green', west: 'green' };

const side = (defense: number | 'impervious', blocksLos: boolean, concealment = 0): TileSide => ({ defense, blocksLos, concealment });

export const TILES: ReadonlyMap<TileKind, TileSpec> = new Map<TileKind, TileSpec>(
  (
    [
      // 003 §II 1: impervious until destroyed or raided; walls block LOS both sides; ruined bonus REPRESENTATIVE 3.
      {
        kind: 'building',
        title: 'Village building',
        set: 'village',
        intact: side('impervious', true),
        ruined: side(3, true),
        minCalibre: 50,
        obstacle: false,
        tanksMayEnter: false,
        removedByTank: false,
        exitCheck: null,
        edges: ALL_GREEN,
      },
      // 003 §II 2: bonus 3; ruined REPRESENTATIVE 1; does not block LOS.
      {
        kind: 'fountain',
        title: 'Village fountain',
        set: 'village',
        intact: side(3, false),
        ruined: side(1, false),
        minCalibre: 50,
        obstacle: false,
        tanksMayEnter: true,
        removedByTank: false,
        exitCheck: null,
      },
      // 003 §II 3: tanks may not cross; bonus 5 for infantry; no LOS block (ruling: infantry may occupy, see RULINGS).
      {
        kind: 'tiger-wreck',
        title: 'Tiger wreck (21A)',
        set: 'village',
        intact: side(5, false),
        ruined: null,
        minCalibre: 999,
        obstacle: true,
        tanksMayEnter: false,
        removedByTank: false,
        exitCheck: null,
      },
      // 003 §II 4: concealment, no bonus, blocks LOS; a tank entering removes it (concealment REPRESENTATIVE 2).
      {
        kind: 'crops',
        title: 'Crops',
        set: 'village',
        intact: side(0, true, 2),
        ruined: null,
        minCalibre: 999,
        obstacle: false,
        tanksMayEnter: true,
        removedByTank: true,
        exitCheck: null,
      },
      // 003 §II 5: concealment and a small bonus (REPRESENTATIVE 1, concealment 1); partly blocks LOS (REPRESENTATIVE: does not).
      {
        kind: 'cemetery',
        title: 'Cemetery',
        set: 'village',
        intact: side(1, false, 1),
        ruined: null,
        minCalibre: 999,
        obstacle: false,
        tanksMayEnter: true,
        removedByTank: false,
        exitCheck: null,
      },
      // 003 §II 6: exit needs 2d10 >= 10; a tank entering removes it.
      {
        kind: 'wire',
        title: 'Barbed wire',
        set: 'both',
        intact: side(0, false),
        ruined: null,
        minCalibre: 999,
        obstacle: true,
        tanksMayEnter: true,
        removedByTank: true,
        exitCheck: 'wire',
      },
      // 003 §II 7: concealment (REPRESENTATIVE 1) and bonus 2.
      {
        kind: 'natural-cover',
        title: 'Natural cover',
        set: 'defensive-line',
        intact: side(2, false, 1),
        ruined: null,
        minCalibre: 999,
        obstacle: false,
        tanksMayEnter: true,
        removedByTank: false,
        exitCheck: null,
      },
      // 003 §II 8 (tile 9A "MG Kasemate"): impervious to all attacks, walls block LOS, only raids.
      {
        kind: 'bunker',
        title: 'Bunker (9A)',
        set: 'defensive-line',
        intact: side('impervious', true),
        ruined: null,
        minCalibre: 999,
        obstacle: false,
        tanksMayEnter: false,
        removedByTank: false,
        exitCheck: null,
        edges: ALL_GREEN,
        arrows: { only: true, free: true, default: ['east', 'west'] },
      },
      // 003 §II 9: bonus 3 for one MG/bazooka/Panzerschreck team or sniper, against ground attacks.
      {
        kind: 'mg-nest',
        title: 'MG Nest',
        set: 'defensive-line',
        intact: side(3, false),
        ruined: null,
        minCalibre: 999,
        obstacle: false,
        tanksMayEnter: false,
        removedByTank: false,
        exitCheck: null,
        bonusFor: ['mg', 'at-team', 'sniper'],
        groundOnly: true,
      },
      // 003 §II 10: protects one MG team until destroyed (50mm+); blocks LOS; bonus REPRESENTATIVE 'impervious' until destroyed, ruined 0.
      {
        kind: 'panzernest',
        title: 'Panzernest',
        set: 'defensive-line',
        intact: side('impervious', true),
        ruined: side(0, false),
        minCalibre: 50,
        obstacle: false,
        tanksMayEnter: false,
        removedByTank: false,
        exitCheck: null,
        edges: ALL_GREEN,
      },
      // 003 §II 11: houses the Pantherturm I gun (unit card stats); 75mm+; does not block LOS.
      {
        kind: 'pantherturm',
        title: 'Pantherturm I',
        set: 'defensive-line',
        intact: side(0, false),
        ruined: side(0, false),
        minCalibre: 75,
        obstacle: false,
        tanksMayEnter: false,
        removedByTank: false,
        exitCheck: null,
      },
      // 003 §II 12: tanks may not cross; infantry concealment from ground attacks (REPRESENTATIVE 2), no bonus; obstacle.
      {
        kind: 'tank-trench',
        title: 'Tank trench',
        set: 'defensive-line',
        intact: side(0, false, 2),
        ruined: null,
        minCalibre: 999,
        obstacle: true,
        tanksMayEnter: false,
        removedByTank: false,
        exitCheck: null,
        // Crossed perpendicular to the trench: from north or south when it runs east–west.
        arrows: { only: true, free: false, default: ['north', 'south'] },
        groundOnly: true,
      },
      // 003 §II 13: bonus 4, concealment from ground attacks (REPRESENTATIVE 1); no tanks.
      {
        kind: 'infantry-trench',
        title: 'Infantry trench',
        set: 'defensive-line',
        intact: side(4, false, 1),
        ruined: null,
        minCalibre: 999,
        obstacle: true,
        tanksMayEnter: false,
        removedByTank: false,
        exitCheck: null,
        arrows: { only: false, free: true, default: ['east', 'west'] },
        groundOnly: true,
      },
      // 003 §II 14: exit check, infantry fail on 11+, vehicles on 7+.
      {
        kind: 'minefield',
        title: 'Minefield',
        set: 'both',
        intact: side(0, false),
        ruined: null,
        minCalibre: 999,
        obstacle: true,
        tanksMayEnter: true,
        removedByTank: false,
        exitCheck: 'mines',
      },
    ] satisfies TileSpec[]
  ).map((t) => [t.kind, t]),
);

export const tileSpec = (kind: TileKind): TileSpec => TILES.get(kind)!;

/** 003 §II 6: infantry leave wire on 2d10 of 10 or more. */
export const wireExitPasses = (sum: number): boolean => sum >= 10;
/** 003 §II 14: a minefield exit fails on 11+ for infantry, 7+ for vehicles and tanks. */
export const mineExitFails = (sum: number, vehicle: boolean): boolean => sum >= (vehicle ? 7 : 11);
