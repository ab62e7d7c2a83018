import type { Seat } from './visibility.js';

/**
 * What one seat sees, as a picture to draw: pure data an engine builds from its view, and the
 * kernel draws as SVG (render-svg.ts) and as plain text (render-text.ts). The same scene feeds
 * the web client, the mail picture and the terminal, so an engine never writes SVG.
 *
 * A scene is a title, status lines, scores, and rows of regions drawn side by side (two
 * battlefields in one row, a hand in the next). A region is a card area (lanes of pieces:
 * battle lines, a hand, a row of cards), a square grid (a village map with feature tiles,
 * Front Line's board with heights) or a hex map. Links join pieces or cells: an attack, a line
 * of sight. Nothing here is hidden from the viewer: an engine leaves out what the seat may not
 * see, and shows a hidden hand as a face-down piece with a count.
 */
export interface Scene {
  /** The accessible name of the picture: game, and whose view it is. */
  readonly title: string;
  /** Turn and phase, whose move it is, the result: one short line each. */
  readonly status: readonly string[];
  /** The sides, in seat order; pieces and scores refer to them, and each is drawn in its own colour. */
  readonly sides: readonly SceneSide[];
  readonly scores: readonly SceneScore[];
  /** Drawn top to bottom; the regions of one row side by side. */
  readonly rows: readonly (readonly Region[])[];
  readonly links: readonly Link[];
  /** Lines under the picture: what happened last, orders in progress, decks. */
  readonly notes: readonly Note[];
}

export interface SceneSide {
  readonly seat: Seat;
  readonly name: string;
}

export interface SceneScore {
  readonly seat: Seat;
  readonly label: string;
  readonly value: string;
}

export type Region = CardArea | SquareGrid | HexMap;

/** Lanes of pieces: battle lines, a hand, a row of cards. */
export interface CardArea {
  readonly kind: 'area';
  readonly id: string;
  readonly label: string;
  readonly side?: Seat;
  readonly lanes: readonly Lane[];
}

export interface Lane {
  readonly label: string;
  readonly pieces: readonly Piece[];
}

/** A map of squares, `cols` × `rows`, column 0 and row 0 at the top left. */
export interface SquareGrid {
  readonly kind: 'grid';
  readonly id: string;
  readonly label: string;
  readonly cols: number;
  readonly rows: number;
  /** Only the cells that carry something; the rest are open ground. */
  readonly cells: readonly Cell[];
}

/** A map of pointy-top hexes in offset rows (odd rows shifted right by half a hex). */
export interface HexMap {
  readonly kind: 'hex';
  readonly id: string;
  readonly label: string;
  readonly cols: number;
  readonly rows: number;
  readonly cells: readonly Cell[];
}

export interface Cell {
  readonly col: number;
  readonly row: number;
  /** A feature tile or terrain: 'woods', 'building', 'hill'. */
  readonly terrain?: string;
  readonly height?: number;
  readonly pieces: readonly Piece[];
  readonly markers: readonly Marker[];
  readonly highlight?: boolean;
}

/** A unit, a card, a counter; or, face down, a hidden card or stack with a count. */
export interface Piece {
  /** Unique in the scene, so links can name it. */
  readonly id: string;
  readonly label: string;
  readonly side?: Seat;
  /** Stats and details, one short line each: "Defense 5 · Endurance 14/14". */
  readonly details: readonly string[];
  readonly markers: readonly Marker[];
  /** Face down: only the back is seen; `count` says how many cards the stack holds. */
  readonly faceDown?: boolean;
  readonly count?: number;
  /** Part of the last move. */
  readonly highlight?: boolean;
}

/** A chit on a piece or a cell: damage, shaken, a card played on it. */
export interface Marker {
  readonly label: string;
  readonly tone: 'info' | 'good' | 'bad';
}

/** A line from one piece or cell to another: an attack, a line of sight. */
export interface Link {
  readonly from: LinkEnd;
  readonly to: LinkEnd;
  readonly kind: 'attack' | 'sight';
  readonly label?: string;
  readonly highlight?: boolean;
}

export type LinkEnd = { readonly piece: string } | { readonly region: string; readonly col: number; readonly row: number };

export interface Note {
  readonly text: string;
  readonly highlight?: boolean;
}

/** Columns are letters from A (after Z: AA, AB, …). */
export function colLetters(col: number): string {
  let s = '';
  for (let n = col + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

/** A cell's name as players say it: column letters, row number from 1 ("B3"). */
export const cellRef = (col: number, row: number): string => `${colLetters(col)}${row + 1}`;
