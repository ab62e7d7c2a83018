import { describe, expect, it } from 'vitest';
import { cellRef, escapeXml, renderSvg, renderText, type Piece, type Scene } from '../../domain/kernel/index.js';
import { svgProblem } from '../support/svg.js';

/**
 * The kernel's renderers on scenes shaped like the games to come: card areas with hands face up
 * and face down (Spearpoint), the map expansion's 3×9 squares with feature tiles and a line of
 * sight, Front Line's two 10×6 battlefields side by side with heights, and Action Front!'s hexes
 * with markers. Whatever the strings, the SVG is well-formed and the text says the same things.
 */
const piece = (id: string, label: string, over: Partial<Piece> = {}): Piece => ({ id, label, side: 'us', details: [], markers: [], ...over });

const HOSTILE = `Tiger "88" <script>alert('x')</script> & Co \u0001\u0008\u000b\uFFFE \uD800 ok`;

const cards: Scene = {
  title: `Cards & more <seen by "us">`,
  status: ['Turn 3 · combat', HOSTILE],
  sides: [
    { seat: 'us', name: 'United States' },
    { seat: 'de', name: 'Germany' },
  ],
  scores: [
    { seat: 'us', label: 'United States', value: '12 VP' },
    { seat: 'de', label: 'Germany', value: '7 VP' },
  ],
  rows: [
    [
      {
        kind: 'area',
        id: 'battle',
        label: 'Battle area',
        side: 'us',
        lanes: [
          {
            label: 'Front',
            pieces: [piece('u1', HOSTILE, { details: ['Defense 5 · Endurance 14/14'], markers: [{ label: 'Shaken', tone: 'bad' }], highlight: true })],
          },
          { label: 'Rear', pieces: [] },
        ],
      },
    ],
    [
      {
        kind: 'area',
        id: 'hands',
        label: 'Hands',
        lanes: [
          { label: 'Yours', pieces: [piece('h1', 'Dig In', { details: ['Defense +2'] })] },
          { label: 'Theirs', pieces: [piece('h2', 'Unit cards', { side: 'de', faceDown: true, count: 5 })] },
        ],
      },
    ],
  ],
  links: [{ from: { piece: 'u1' }, to: { piece: 'h2' }, kind: 'attack', label: 't3-us-1: resolved', highlight: true }],
  notes: [{ text: 'Attack t3-us-1 hit', highlight: true }, { text: HOSTILE }],
};

const village: Scene = {
  title: 'Village map',
  status: [],
  sides: [
    { seat: 'us', name: 'US' },
    { seat: 'de', name: 'DE' },
  ],
  scores: [],
  rows: [
    [
      {
        kind: 'grid',
        id: 'map',
        label: 'Village, 3 × 9',
        cols: 9,
        rows: 3,
        cells: [
          { col: 0, row: 1, terrain: 'woods', pieces: [piece('a', 'Rifle Squad')], markers: [] },
          {
            col: 8,
            row: 1,
            terrain: 'building',
            pieces: [piece('b', 'MG-42 Team', { side: 'de' })],
            markers: [{ label: 'pinned', tone: 'bad' }],
            highlight: true,
          },
        ],
      },
    ],
  ],
  links: [{ from: { piece: 'a' }, to: { region: 'map', col: 8, row: 1 }, kind: 'sight', label: 'line of sight' }],
  notes: [],
};

const frontLine: Scene = {
  ...village,
  title: 'Front Line',
  rows: [
    (['north', 'south'] as const).map((id) => ({
      kind: 'grid' as const,
      id,
      label: `Battlefield ${id}`,
      cols: 10,
      rows: 6,
      cells: [{ col: 2, row: 3, height: 2, terrain: 'hill', pieces: [piece(`${id}-t`, 'Panzer IV', { side: 'de' })], markers: [] }],
    })),
  ],
  links: [],
};

const hexes: Scene = {
  ...village,
  title: 'Action Front!',
  rows: [
    [
      {
        kind: 'hex',
        id: 'hexmap',
        label: 'Hex map',
        cols: 12,
        rows: 8,
        cells: [
          { col: 3, row: 3, terrain: 'orchard', pieces: [piece('x', 'Sherman'), piece('y', 'Jeep')], markers: [{ label: 'smoke', tone: 'info' }] },
          { col: 4, row: 4, pieces: [], markers: [{ label: 'wreck', tone: 'bad' }] },
        ],
      },
    ],
  ],
  links: [{ from: { piece: 'x' }, to: { region: 'hexmap', col: 4, row: 4 }, kind: 'attack' }],
};

describe('renderSvg', () => {
  it.each([
    ['card areas', cards],
    ['a square map with a line of sight', village],
    ['two battlefields side by side', frontLine],
    ['a hex map with markers', hexes],
  ])('draws %s as a well-formed SVG document with an accessible title, in DejaVu Sans', async (_name, scene) => {
    const svg = renderSvg(scene);
    expect(await svgProblem(svg)).toBeUndefined();
    expect(svg).toMatch(
      /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="1000" height="\d+" viewBox="0 0 1000 \d+" role="img" aria-labelledby="scene-title scene-desc" font-family="DejaVu Sans">/,
    );
    expect(svg).toContain(`<title id="scene-title">${escapeXml(scene.title)}</title>`);
    expect(svg.match(/<svg/g)).toHaveLength(1);
  });

  it('escapes every text and drops characters XML cannot hold', () => {
    const svg = renderSvg(cards);
    expect(svg).not.toContain('<script>');
    expect(svg).toContain('&lt;script&gt;alert(&apos;x&apos;)&lt;/script&gt; &amp; Co');
    expect(svg).toContain('<title id="scene-title">Cards &amp; more &lt;seen by &quot;us&quot;&gt;</title>');
    // eslint-disable-next-line no-control-regex
    expect(svg).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/);
    expect(escapeXml('a\uD83D\uDE00b\uDC00')).toBe('a\uD83D\uDE00b');
  });

  it('draws a link between the pieces it names, and the last move in its highlight colour', () => {
    const svg = renderSvg(cards);
    expect(svg).toMatch(/<line [^>]*stroke="#d97706"[^>]*marker-end="url\(#arrow\)"/);
    expect(svg).toContain('t3-us-1: resolved');
    expect(renderSvg(village)).toMatch(/<line [^>]*stroke-dasharray="6 4"/);
  });

  it('is a pure function of the scene', () => {
    expect(renderSvg(hexes)).toBe(renderSvg(structuredClone(hexes)));
  });
});

describe('renderText', () => {
  it('lists areas lane by lane: faces with details, hidden cards as counts, the last move starred', () => {
    const text = renderText(cards);
    expect(text).toContain('Cards & more <seen by "us">');
    expect(text).toContain('Score: United States 12 VP · Germany 7 VP');
    expect(text).toMatch(/Front: +\* Tiger "88"/);
    expect(text).toContain('[Shaken]');
    expect(text).toMatch(/\n {8,}Defense 5 · Endurance 14\/14\n/);
    expect(text).toMatch(/Rear: +—/);
    expect(text).toContain('Unit cards ×5 (Germany), face down');
    expect(text).toMatch(/\* Tiger .* → Unit cards: t3-us-1: resolved/);
    expect(text).toContain('* Attack t3-us-1 hit');
  });

  it('draws a map as a grid of cells with a key, and names cells in links', () => {
    const text = renderText(village);
    const lines = text.split('\n');
    expect(lines).toContain('    A   B   C   D   E   F   G   H   I');
    expect(lines.find((l) => l.startsWith('  2 '))).toMatch(/^ {2}2 Ri {3}\. .*MG\*$/);
    expect(text).toContain(' A2 (woods)');
    expect(text).toContain('*I2 (building) [pinned]');
    expect(text).toContain('Rifle Squad at A2 ··· Village, 3 × 9 I2: line of sight');
    expect(renderText(frontLine)).toContain(' C4 (hill, height 2)');
    // Odd rows of a hex map are shifted by half a cell.
    const hexLines = renderText(hexes).split('\n');
    expect(hexLines.find((l) => l.startsWith('  4 '))).toMatch(/^ {2}4 {4}\. /);
    expect(renderText(hexes)).toMatch(/D4 \(orchard\) \[smoke\]\n +Sherman \(US\)\n +Jeep \(US\)/);
  });

  it('names cells as players do', () => {
    expect([cellRef(0, 0), cellRef(8, 2), cellRef(25, 9), cellRef(26, 0), cellRef(27, 1)]).toEqual(['A1', 'I3', 'Z10', 'AA1', 'AB2']);
  });
});
