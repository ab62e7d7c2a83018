import {
  cellRef,
  colLetters,
  type CardArea,
  type Cell,
  type HexMap,
  type LinkEnd,
  type Marker,
  type Piece,
  type Region,
  type Scene,
  type SquareGrid,
} from './scene.js';

/**
 * A scene as one SVG document: well-formed XML whatever the strings in it (every text is
 * escaped, characters XML cannot hold are dropped), one font family ('DejaVu Sans', which the
 * mail rasterizer loads from a file, so the picture looks the same everywhere), a <title> and a
 * <desc> for screen readers. Text is never wrapped by SVG, so long labels are cut to the width
 * they are given, estimated from the font's average advance.
 */
export const SCENE_FONT = 'DejaVu Sans';

const WIDTH = 1000;
const MARGIN = 16;
const GAP = 12;
const CARD_W = 184;
const PAD = 10;
/** Average advance of DejaVu Sans and DejaVu Sans Bold, in ems: wide enough that estimated text rarely overflows. */
const EM_ADVANCE = 0.58;
const EM_ADVANCE_BOLD = 0.68;

const SIDE_COLOURS = ['#2f6690', '#8c2f1e', '#4d7c0f', '#6d28d9'] as const;
const TONE = { info: '#4b5563', good: '#15803d', bad: '#b91c1c' } as const;
const TERRAIN_COLOURS = ['#d9e4c8', '#c8d8e4', '#e4d7c8', '#d4c8e4', '#c8e4dc', '#e4e0c8'] as const;
const HIGHLIGHT = '#d97706';
/** A face-down card is a flat slate grey: a hatched pattern looked the same at mail size and cost the rasterizer more. */
const CARD_BACK = '#5b6371';

/** Characters XML 1.0 cannot contain, even escaped: C0 controls but tab/LF/CR, lone surrogates, U+FFFE/U+FFFF. */
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text for an SVG element or a quoted attribute. */
export function escapeXml(s: string): string {
  return s.replace(NOT_XML, '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}

/** `s` cut with an ellipsis to about `width` pixels at `size`. */
function fit(s: string, width: number, size: number, bold = false): string {
  const max = Math.max(1, Math.floor(width / (size * (bold ? EM_ADVANCE_BOLD : EM_ADVANCE))));
  const chars = [...s];
  return chars.length <= max ? s : `${chars.slice(0, max - 1).join('')}…`;
}

const textWidth = (s: string, size: number, bold = false) => [...s].length * size * (bold ? EM_ADVANCE_BOLD : EM_ADVANCE);
const n = (x: number) => String(Math.round(x * 10) / 10);

function text(x: number, y: number, s: string, o: { size?: number; bold?: boolean; fill?: string; anchor?: 'middle' | 'end'; width?: number } = {}): string {
  const size = o.size ?? 13;
  const shown = o.width === undefined ? s : fit(s, o.width, size, o.bold);
  return `<text x="${n(x)}" y="${n(y)}" font-size="${size}"${o.bold ? ' font-weight="bold"' : ''}${o.fill ? ` fill="${o.fill}"` : ''}${
    o.anchor ? ` text-anchor="${o.anchor}"` : ''
  }>${escapeXml(shown)}</text>`;
}

interface Drawn {
  readonly svg: string;
  readonly height: number;
}

/** Where pieces and cells were drawn, for the links. */
type Anchors = Map<string, { x: number; y: number }>;
const cellKey = (region: string, col: number, row: number) => `cell:${region}:${col},${row}`;

class Painter {
  readonly anchors: Anchors = new Map();
  private readonly colour: ReadonlyMap<string, string>;
  constructor(scene: Scene) {
    this.colour = new Map(scene.sides.map((s, i) => [s.seat, SIDE_COLOURS[i % SIDE_COLOURS.length]!]));
  }

  sideColour(seat: string | undefined): string {
    return (seat !== undefined ? this.colour.get(seat) : undefined) ?? '#374151';
  }

  markers(ms: readonly Marker[], x: number, y: number, width: number): Drawn {
    const parts = ms.map((m, i) => {
      const label = fit(m.label, width - 8, 11);
      const w = Math.min(width, textWidth(label, 11) + 8);
      const top = y + i * 16;
      return `<rect x="${n(x)}" y="${n(top)}" width="${n(w)}" height="14" rx="3" fill="${TONE[m.tone]}"/>${text(x + 4, top + 11, label, { size: 11, fill: '#ffffff' })}`;
    });
    return { svg: parts.join(''), height: ms.length * 16 };
  }

  /** A card wrapped in a group that names its piece, so the web client can make it clickable. */
  card(p: Piece, x: number, y: number): Drawn {
    const drawn = this.cardBody(p, x, y);
    return { height: drawn.height, svg: `<g data-piece="${escapeXml(p.id)}">${drawn.svg}</g>` };
  }

  private cardBody(p: Piece, x: number, y: number): Drawn {
    const height = p.faceDown ? 56 : 26 + p.details.length * 15 + p.markers.length * 16 + 6;
    const colour = this.sideColour(p.side);
    this.anchors.set(p.id, { x: x + CARD_W / 2, y: y + height / 2 });
    const stroke = p.highlight ? `stroke="${HIGHLIGHT}" stroke-width="3"` : `stroke="${colour}" stroke-width="1.5"`;
    if (p.faceDown) {
      const count = p.count !== undefined ? `×${p.count}` : '';
      return {
        height,
        svg:
          `<rect x="${n(x)}" y="${n(y)}" width="${CARD_W}" height="${height}" rx="6" fill="${CARD_BACK}" ${stroke}/>` +
          `<rect x="${n(x + 6)}" y="${n(y + 8)}" width="${CARD_W - 12}" height="20" rx="3" fill="#ffffff" fill-opacity="0.9"/>` +
          text(x + 10, y + 22, p.label, { size: 12, bold: true, width: CARD_W - 20 }) +
          (count ? text(x + CARD_W / 2, y + 47, count, { size: 14, bold: true, fill: '#ffffff', anchor: 'middle' }) : ''),
      };
    }
    const title = p.count !== undefined ? `${p.label} ×${p.count}` : p.label;
    const details = p.details.map((d, i) => text(x + 8, y + 38 + i * 15, d, { size: 11, fill: '#1f2937', width: CARD_W - 14 })).join('');
    const markers = this.markers(p.markers, x + 6, y + 28 + p.details.length * 15, CARD_W - 12);
    return {
      height,
      svg:
        `<rect x="${n(x)}" y="${n(y)}" width="${CARD_W}" height="${height}" rx="6" fill="#ffffff" ${stroke}/>` +
        `<rect x="${n(x)}" y="${n(y)}" width="${CARD_W}" height="22" rx="6" fill="${colour}"/>` +
        text(x + 8, y + 15, title, { size: 12, bold: true, fill: '#ffffff', width: CARD_W - 14 }) +
        details +
        markers.svg,
    };
  }

  area(r: CardArea, x: number, y: number, width: number): Drawn {
    const perRow = Math.max(1, Math.floor((width - 2 * PAD + GAP) / (CARD_W + GAP)));
    let dy = 30;
    const parts: string[] = [];
    for (const lane of r.lanes) {
      parts.push(text(x + PAD, y + dy + 12, lane.label, { size: 12, bold: true, fill: '#374151', width: width - 2 * PAD }));
      dy += 18;
      if (!lane.pieces.length) {
        parts.push(text(x + PAD + 4, y + dy + 12, '—', { size: 12, fill: '#9ca3af' }));
        dy += 22;
        continue;
      }
      for (let i = 0; i < lane.pieces.length; i += perRow) {
        let rowHeight = 0;
        lane.pieces.slice(i, i + perRow).forEach((p, j) => {
          const c = this.card(p, x + PAD + j * (CARD_W + GAP), y + dy);
          parts.push(c.svg);
          rowHeight = Math.max(rowHeight, c.height);
        });
        dy += rowHeight + 8;
      }
    }
    return { svg: parts.join(''), height: dy + 4 };
  }

  /** A cell's contents: terrain and height as a word and a number, pieces as side-coloured chips, markers below. */
  cellContents(region: string, c: Cell, cx: number, cy: number, size: number): string {
    this.anchors.set(cellKey(region, c.col, c.row), { x: cx, y: cy });
    const parts: string[] = [];
    if (c.height !== undefined) parts.push(text(cx + size / 2 - 3, cy - size / 2 + 11, String(c.height), { size: 10, anchor: 'end', fill: '#374151' }));
    if (c.terrain) parts.push(text(cx, cy + size / 2 - 4, c.terrain, { size: 9, anchor: 'middle', fill: '#374151', width: size - 4 }));
    c.pieces.slice(0, 3).forEach((p, i) => {
      const w = size * 0.7;
      const top = cy - size / 2 + 6 + i * 14;
      this.anchors.set(p.id, { x: cx, y: top + 6 });
      parts.push(
        `<rect x="${n(cx - w / 2)}" y="${n(top)}" width="${n(w)}" height="12" rx="2" fill="${this.sideColour(p.side)}"${p.highlight ? ` stroke="${HIGHLIGHT}" stroke-width="2"` : ''}/>` +
          text(cx, top + 10, p.label, { size: 9, anchor: 'middle', fill: '#ffffff', width: w - 2 }),
      );
    });
    if (c.markers.length)
      parts.push(text(cx, cy + size / 2 - 14, c.markers.map((m) => m.label).join(' '), { size: 9, anchor: 'middle', fill: TONE.bad, width: size - 4 }));
    return parts.join('');
  }

  /** Under a map, each occupied cell with its pieces in full: a chip in a cell has room for a few letters only. */
  mapKey(r: SquareGrid | HexMap, x: number, y: number, width: number): Drawn {
    const lines = [...r.cells]
      .sort((a, b) => a.row - b.row || a.col - b.col)
      .flatMap((c) =>
        c.pieces.map((p) => {
          const about = [...p.details, ...p.markers.map((m) => m.label)].join(' · ');
          return `${cellRef(c.col, c.row)}  ${p.label}${about ? ` — ${about}` : ''}`;
        }),
      );
    return { svg: lines.map((l, i) => text(x, y + 12 + i * 15, l, { size: 11, width })).join(''), height: lines.length * 15 };
  }

  grid(r: SquareGrid, x: number, y: number, width: number): Drawn {
    const size = Math.max(24, Math.min(64, Math.floor((width - 2 * PAD - 18) / Math.max(1, r.cols))));
    const left = x + PAD + 18;
    const top = y + 44;
    const byPlace = new Map(r.cells.map((c) => [`${c.col},${c.row}`, c]));
    const parts: string[] = [];
    for (let c = 0; c < r.cols; c++) parts.push(text(left + c * size + size / 2, top - 4, colLetters(c), { size: 10, anchor: 'middle' }));
    for (let row = 0; row < r.rows; row++) {
      parts.push(text(left - 4, top + row * size + size / 2 + 4, String(row + 1), { size: 10, anchor: 'end' }));
      for (let c = 0; c < r.cols; c++) {
        const cell = byPlace.get(`${c},${row}`);
        const cx = left + c * size + size / 2;
        const cy = top + row * size + size / 2;
        const stroke = cell?.highlight ? `stroke="${HIGHLIGHT}" stroke-width="3"` : 'stroke="#6b7280" stroke-width="1"';
        parts.push(`<rect x="${n(cx - size / 2)}" y="${n(cy - size / 2)}" width="${size}" height="${size}" fill="${terrainColour(cell?.terrain)}" ${stroke}/>`);
        if (cell) parts.push(this.cellContents(r.id, cell, cx, cy, size));
        else this.anchors.set(cellKey(r.id, c, row), { x: cx, y: cy });
      }
    }
    const key = this.mapKey(r, x + PAD, top + r.rows * size + 6, width - 2 * PAD);
    return { svg: parts.join('') + key.svg, height: 44 + r.rows * size + 10 + key.height };
  }

  hexes(r: HexMap, x: number, y: number, width: number): Drawn {
    // Pointy-top hexes: a hex is √3·R wide, rows are 1.5·R apart, odd rows shift by half a hex.
    const radius = Math.max(14, Math.min(36, (width - 2 * PAD - 18) / (Math.sqrt(3) * (r.cols + 0.5))));
    const w = Math.sqrt(3) * radius;
    const left = x + PAD + 18;
    const top = y + 44;
    const byPlace = new Map(r.cells.map((c) => [`${c.col},${c.row}`, c]));
    const parts: string[] = [];
    for (let row = 0; row < r.rows; row++) {
      parts.push(text(left - 4, top + radius + row * 1.5 * radius + 4, String(row + 1), { size: 10, anchor: 'end' }));
      for (let c = 0; c < r.cols; c++) {
        const cell = byPlace.get(`${c},${row}`);
        const cx = left + w / 2 + c * w + (row % 2 === 1 ? w / 2 : 0);
        const cy = top + radius + row * 1.5 * radius;
        const corners = [0, 1, 2, 3, 4, 5].map((k) => {
          const a = (Math.PI / 180) * (60 * k - 30);
          return `${n(cx + radius * Math.cos(a))},${n(cy + radius * Math.sin(a))}`;
        });
        const stroke = cell?.highlight ? `stroke="${HIGHLIGHT}" stroke-width="3"` : 'stroke="#6b7280" stroke-width="1"';
        parts.push(`<polygon points="${corners.join(' ')}" fill="${terrainColour(cell?.terrain)}" ${stroke}/>`);
        if (cell) parts.push(this.cellContents(r.id, cell, cx, cy, radius * 1.5));
        else this.anchors.set(cellKey(r.id, c, row), { x: cx, y: cy });
      }
    }
    for (let c = 0; c < r.cols; c++) parts.push(text(left + w / 2 + c * w, top - 4, colLetters(c), { size: 10, anchor: 'middle' }));
    const mapHeight = radius * (1.5 * r.rows + 0.5);
    const key = this.mapKey(r, x + PAD, top + mapHeight + 6, width - 2 * PAD);
    return { svg: parts.join('') + key.svg, height: 44 + mapHeight + 10 + key.height };
  }

  region(r: Region, x: number, y: number, width: number): Drawn {
    const body = r.kind === 'area' ? this.area(r, x, y, width) : r.kind === 'grid' ? this.grid(r, x, y, width) : this.hexes(r, x, y, width);
    const colour = r.kind === 'area' ? this.sideColour(r.side) : '#374151';
    return {
      height: body.height,
      svg:
        `<g><rect x="${n(x)}" y="${n(y)}" width="${n(width)}" height="${n(body.height)}" rx="8" fill="#f9fafb" stroke="${colour}" stroke-width="1.5"/>` +
        text(x + PAD, y + 20, r.label, { size: 14, bold: true, fill: colour, width: width - 2 * PAD }) +
        body.svg +
        '</g>',
    };
  }
}

/** Terrain names get a fixed tint each (by a hash of the name), open ground stays white. */
function terrainColour(terrain: string | undefined): string {
  if (!terrain) return '#ffffff';
  let h = 0;
  for (const ch of terrain) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return TERRAIN_COLOURS[h % TERRAIN_COLOURS.length]!;
}

function anchorOf(e: LinkEnd, anchors: Anchors) {
  return 'piece' in e ? anchors.get(e.piece) : anchors.get(cellKey(e.region, e.col, e.row));
}

/**
 * Drawn for the mail picture too, so the SVG avoids what costs a rasterizer most: translucency
 * is fill-opacity or stroke-opacity on the one shape (an `opacity` makes resvg draw the shape
 * on a layer of its own and composite it), and the arrowhead is not clipped to its box.
 */
export function renderSvg(scene: Scene): string {
  const p = new Painter(scene);
  const parts: string[] = [];
  let y = MARGIN;
  parts.push(text(MARGIN, y + 18, scene.title, { size: 20, bold: true, width: WIDTH - 2 * MARGIN }));
  y += 28;
  for (const line of scene.status) {
    parts.push(text(MARGIN, y + 14, line, { size: 13, width: WIDTH - 2 * MARGIN }));
    y += 18;
  }
  if (scene.scores.length) {
    let x = MARGIN;
    y += 4;
    for (const s of scene.scores) {
      const label = `${s.label}: ${s.value}`;
      const w = Math.min(WIDTH - MARGIN - x, textWidth(label, 13, true) + 16);
      if (w < 40) break;
      parts.push(`<rect x="${n(x)}" y="${n(y)}" width="${n(w)}" height="22" rx="11" fill="${p.sideColour(s.seat)}"/>`);
      parts.push(text(x + 8, y + 15, label, { size: 13, bold: true, fill: '#ffffff', width: w - 12 }));
      x += w + 8;
    }
    y += 30;
  }
  for (const row of scene.rows) {
    if (!row.length) continue;
    const width = (WIDTH - 2 * MARGIN - GAP * (row.length - 1)) / row.length;
    const drawn = row.map((r, i) => p.region(r, MARGIN + i * (width + GAP), y, width));
    parts.push(...drawn.map((d) => d.svg));
    y += Math.max(...drawn.map((d) => d.height)) + GAP;
  }
  for (const l of scene.links) {
    const a = anchorOf(l.from, p.anchors);
    const b = anchorOf(l.to, p.anchors);
    if (!a || !b) continue;
    const colour = l.highlight ? HIGHLIGHT : l.kind === 'sight' ? '#1d4ed8' : '#111827';
    const dash = l.kind === 'sight' ? ' stroke-dasharray="6 4"' : '';
    parts.push(
      `<line x1="${n(a.x)}" y1="${n(a.y)}" x2="${n(b.x)}" y2="${n(b.y)}" stroke="${colour}" stroke-width="${l.highlight ? 3 : 2}" stroke-opacity="0.8"${dash}${
        l.kind === 'attack' ? ' marker-end="url(#arrow)"' : ''
      }/>`,
    );
    if (l.label) {
      const label = fit(l.label, 220, 11);
      const mx = (a.x + b.x) / 2;
      const my = (a.y + b.y) / 2;
      parts.push(
        `<rect x="${n(mx - textWidth(label, 11) / 2 - 4)}" y="${n(my - 10)}" width="${n(textWidth(label, 11) + 8)}" height="15" rx="3" fill="#ffffff" fill-opacity="0.9"/>`,
      );
      parts.push(text(mx, my + 1, label, { size: 11, anchor: 'middle', fill: colour }));
    }
  }
  for (const note of scene.notes) {
    parts.push(text(MARGIN, y + 14, `${note.highlight ? '▸ ' : ''}${note.text}`, { size: 12, bold: note.highlight === true, width: WIDTH - 2 * MARGIN }));
    y += 17;
  }
  const height = Math.ceil(y + MARGIN);
  const desc = [...scene.status, ...scene.scores.map((s) => `${s.label}: ${s.value}`)].join('. ');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-labelledby="scene-title scene-desc" font-family="${SCENE_FONT}">` +
    `<title id="scene-title">${escapeXml(scene.title)}</title><desc id="scene-desc">${escapeXml(desc)}</desc>` +
    '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse" overflow="visible"><path d="M0,0L10,5L0,10z" fill="#111827" fill-opacity="0.8"/></marker></defs>' +
    `<rect width="${WIDTH}" height="${height}" fill="#ffffff"/>` +
    parts.join('') +
    '</svg>'
  );
}
