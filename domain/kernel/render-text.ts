import {
  cellRef,
  colLetters,
  type Cell,
  type HexMap,
  type Link,
  type LinkEnd,
  type Marker,
  type Piece,
  type Region,
  type Scene,
  type SquareGrid,
} from './scene.js';

/**
 * A scene as plain text for a terminal: the same content as the SVG, line by line. Regions
 * drawn side by side in the picture come one after the other here; a map is drawn as a grid
 * of three-letter cells with a key below. A `*` marks what the last move touched.
 */
export function renderText(scene: Scene): string {
  const sideName = new Map(scene.sides.map((s) => [s.seat, s.name]));
  const pieceName = new Map<string, string>();
  const cellName = new Map<string, string>();
  const out: string[] = [scene.title, '='.repeat(Math.min(scene.title.length, 100)), ...scene.status];
  if (scene.scores.length) out.push(`Score: ${scene.scores.map((s) => `${s.label} ${s.value}`).join(' · ')}`);
  for (const row of scene.rows) {
    for (const region of row) {
      out.push('', `[${region.label}]`);
      out.push(...regionLines(region, sideName, pieceName, cellName));
    }
  }
  if (scene.links.length) {
    out.push('');
    for (const l of scene.links) out.push(linkLine(l, pieceName, cellName));
  }
  if (scene.notes.length) {
    out.push('');
    for (const n of scene.notes) out.push(`${n.highlight ? '* ' : '  '}${n.text}`);
  }
  return out.join('\n') + '\n';
}

const markerText = (ms: readonly Marker[]) => ms.map((m) => `[${m.label}]`).join(' ');

/** Text lines are wrapped at this width, so a picture reads in an ordinary terminal. */
const WIDTH = 100;

/** Words joined by " · ", wrapped to `width` columns after `indent`. */
function wrap(parts: readonly string[], indent: number): string[] {
  const lines: string[] = [];
  for (const part of parts) {
    const last = lines.length - 1;
    if (last >= 0 && indent + lines[last]!.length + 3 + part.length <= WIDTH) lines[last] += ` · ${part}`;
    else lines.push(part);
  }
  return lines.map((l) => ' '.repeat(indent) + l);
}

/** A piece: its name (and its side, when the region is not that side's), its markers, then its details indented below. */
function pieceLines(p: Piece, sideName: ReadonlyMap<string, string>, regionSide: string | undefined, indent: number): string[] {
  const side = p.side !== undefined && p.side !== regionSide && sideName.has(p.side) ? ` (${sideName.get(p.side)})` : '';
  const count = p.count !== undefined ? ` ×${p.count}` : '';
  if (p.faceDown) return [`${p.label}${count}${side}, face down`];
  const markers = p.markers.length ? ` ${markerText(p.markers)}` : '';
  return [`${p.highlight ? '* ' : ''}${p.label}${count}${side}${markers}`, ...wrap(p.details, indent + 4)];
}

function regionLines(region: Region, sideName: ReadonlyMap<string, string>, pieceName: Map<string, string>, cellName: Map<string, string>): string[] {
  switch (region.kind) {
    case 'area': {
      const width = Math.max(0, ...region.lanes.map((l) => l.label.length)) + 2;
      return region.lanes.flatMap((lane) => {
        const head = `  ${`${lane.label}:`.padEnd(width)} `;
        if (!lane.pieces.length) return [`${head}—`];
        return lane.pieces.flatMap((p, i) => {
          pieceName.set(p.id, p.label);
          const [first = '', ...rest] = pieceLines(p, sideName, region.side, head.length);
          return [`${i === 0 ? head : ' '.repeat(head.length)}${first}`, ...rest];
        });
      });
    }
    case 'grid':
    case 'hex':
      return mapLines(region, sideName, pieceName, cellName);
  }
}

/** Three letters for a cell: its first piece, else its terrain, else open ground. */
function cellCode(c: Cell | undefined): string {
  if (!c) return ' . ';
  const first = c.pieces[0];
  const word = first ? first.label : (c.terrain ?? '');
  const code = word.replace(/[^\p{L}\p{N}]/gu, '').slice(0, 2) || '..';
  return `${code.padEnd(2)}${c.pieces.length > 1 ? '+' : c.highlight ? '*' : ' '}`;
}

function mapLines(region: SquareGrid | HexMap, sideName: ReadonlyMap<string, string>, pieceName: Map<string, string>, cellName: Map<string, string>): string[] {
  const byPlace = new Map(region.cells.map((c) => [`${c.col},${c.row}`, c]));
  const head = '    ' + Array.from({ length: region.cols }, (_, c) => colLetters(c).padEnd(4)).join('');
  const lines = [head.trimEnd()];
  for (let r = 0; r < region.rows; r++) {
    const shift = region.kind === 'hex' && r % 2 === 1 ? '  ' : '';
    const cells = Array.from({ length: region.cols }, (_, c) => cellCode(byPlace.get(`${c},${r}`)) + ' ').join('');
    lines.push(`${String(r + 1).padStart(3)} ${shift}${cells}`.trimEnd());
  }
  const key = [...region.cells].sort((a, b) => a.row - b.row || a.col - b.col);
  for (const c of key) {
    const ref = cellRef(c.col, c.row);
    cellName.set(`${region.id}:${c.col},${c.row}`, `${region.label} ${ref}`);
    const ground = [c.terrain, c.height !== undefined ? `height ${c.height}` : undefined].filter((x) => x !== undefined).join(', ');
    const markers = c.markers.length ? ` ${markerText(c.markers)}` : '';
    lines.push(`  ${c.highlight ? '*' : ' '}${ref}${ground ? ` (${ground})` : ''}${markers}`);
    for (const p of c.pieces) {
      pieceName.set(p.id, `${p.label} at ${ref}`);
      lines.push(...pieceLines(p, sideName, undefined, 6).map((l, i) => (i === 0 ? `      ${l}` : l)));
    }
  }
  return lines;
}

function endName(e: LinkEnd, pieceName: ReadonlyMap<string, string>, cellName: ReadonlyMap<string, string>): string {
  if ('piece' in e) return pieceName.get(e.piece) ?? e.piece;
  return cellName.get(`${e.region}:${e.col},${e.row}`) ?? cellRef(e.col, e.row);
}

function linkLine(l: Link, pieceName: ReadonlyMap<string, string>, cellName: ReadonlyMap<string, string>): string {
  const arrow = l.kind === 'sight' ? '···' : '→';
  return `${l.highlight ? '* ' : '  '}${endName(l.from, pieceName, cellName)} ${arrow} ${endName(l.to, pieceName, cellName)}${l.label ? `: ${l.label}` : ''}`;
}
