import type { Cell, Piece, Region, Scene } from '../kernel/scene.js';
import type { Viewer } from '../kernel/visibility.js';
import { indexCatalog } from '../frontline-general/data/catalog.js';
import { DIRS } from './data/tiles.js';
import { colOf, isSpace, rowOf } from './map.js';
import type { State } from './model.js';
import { tileEdges } from './rules.js';
import { view } from './view.js';

const NAME = { us: 'United States', de: 'Germany' } as const;

/** The picture: the 3×9 map with its tiles and units, both rear lines, aircraft, hands as the viewer may see them, and the last attack's line. Built from the view. */
export function scene(s: State, viewer: Viewer): Scene {
  const v = view(s, viewer);
  const piece = (u: (typeof v.units)[number]): Piece => ({
    id: u.id,
    label: u.title,
    side: u.side,
    details: [`Endurance ${u.endurance}`, ...(u.crew ? ['crewed'] : []), ...(u.path ? [`path ${u.path}`] : [])],
    markers: [
      ...(u.damageCard ? [{ label: 'damaged', tone: 'bad' as const }] : []),
      ...(u.shaken ? [{ label: 'shaken', tone: 'bad' as const }] : []),
      ...(u.immobilized ? [{ label: 'immobilized', tone: 'bad' as const }] : []),
    ],
    highlight: v.lastAttack !== null && (v.lastAttack.from === u.id || v.lastAttack.to === u.id),
  });
  const cells: Cell[] = [];
  const spaces = new Set([...Object.keys(v.tiles), ...Object.keys(v.smoke), ...v.units.filter((u) => isSpace(u.at)).map((u) => u.at)]);
  for (const sp of spaces) {
    const t = Object.hasOwn(v.tiles, sp) ? v.tiles[sp] : undefined;
    cells.push({
      col: colOf(sp),
      row: rowOf(sp),
      ...(t ? { terrain: `${t.kind}${t.intact ? '' : ' (ruined)'}` } : {}),
      pieces: v.units.filter((u) => u.at === sp).map(piece),
      markers: [
        ...(Object.hasOwn(v.smoke, sp) ? [{ label: `smoke ${v.smoke[sp]}`, tone: 'info' as const }] : []),
        ...(t?.arrows ? [{ label: `entry/exit ${t.arrows.join(', ')}`, tone: 'info' as const }] : []),
        ...DIRS.flatMap((d) => {
          const c = tileEdges(t)[d];
          return c ? [{ label: `${c} edge ${d}`, tone: c === 'red' ? ('bad' as const) : ('good' as const) }] : [];
        }),
      ],
    });
  }
  const grid: Region = {
    kind: 'grid',
    id: 'map',
    label: `${s.scenario.map === 'village' ? 'Village' : 'Defensive Line'} map (rows A–C, columns 1–9)`,
    cols: 9,
    rows: 3,
    cells,
  };
  const idx = indexCatalog(s.catalog);
  const side = (seat: 'us' | 'de'): Region => {
    const st = v.seats[seat]!;
    const hand =
      'hand' in st && st.hand
        ? st.hand.map((h): Piece => ({ id: `hand-${h.id}`, label: idx.unit(h.card).title, side: seat, details: [], markers: [] }))
        : [{ id: `hand-${seat}`, label: 'Unit cards', side: seat, details: [], markers: [], faceDown: true, count: st.handCount }];
    return {
      kind: 'area',
      id: `lines-${seat}`,
      label: NAME[seat],
      side: seat,
      lanes: [
        { label: 'Rear line', pieces: v.units.filter((u) => u.side === seat && u.at === 'rear').map(piece) },
        { label: 'Aircraft', pieces: v.units.filter((u) => u.side === seat && u.at === 'air').map(piece) },
        { label: 'Hand', pieces: hand },
        {
          label: 'Reserves',
          pieces: [{ id: `reserves-${seat}`, label: 'Reserves deck', side: seat, details: [], markers: [], faceDown: true, count: st.reserves + st.support }],
        },
      ],
    };
  };
  const la = v.lastAttack;
  const end = (id: string) =>
    id.startsWith('space:') || id.startsWith('feature:')
      ? { region: 'map', col: colOf(id.split(':')[1]!), row: rowOf(id.split(':')[1]!) }
      : { piece: id.startsWith('crew:') ? id.slice(5) : id };
  return {
    title: `${s.scenario.title} — ${viewer.kind === 'seat' ? `${viewer.seat} view` : viewer.kind}`,
    status: [`Turn ${v.turn}, ${v.phase}${v.active ? `, ${v.active} to act` : ''}`, ...(v.result ? [v.result.reason] : [])],
    sides: [
      { seat: 'us', name: NAME.us },
      { seat: 'de', name: NAME.de },
    ],
    scores: (['us', 'de'] as const).map((seat) => ({ seat, label: 'Points', value: String(v.seats[seat]!.score) })),
    rows: [[side('de')], [grid], [side('us')]],
    links: la && v.units.some((u) => u.id === la.from) ? [{ from: end(la.from), to: end(la.to), kind: 'sight', label: 'last attack', highlight: true }] : [],
    notes: [{ text: `Command deck ${v.commandDeck.draw}, Damage deck ${v.damageDeck.draw}` }],
  };
}
