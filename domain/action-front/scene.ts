import type { Cell, Marker, Note, Piece, Scene } from '../kernel/scene.js';
import type { Viewer } from '../kernel/visibility.js';
import { allHexes, hillOf, terrainOf } from './hexmap.js';
import { SEATS, type State } from './model.js';
import { view } from './view.js';

/**
 * Action Front!'s picture for one viewer, built from `view(state, viewer)` only: the hex map
 * with its terrain and hills, the units with their steps and Suppressed / Dug In markers, the
 * Artillery and Air Support markers, the turn track, and the cards drawn by the last action.
 * The kernel draws hexes pointy-topped in rows, so the map is drawn turned a quarter: each
 * printed column is a row of the picture (column 01 at the top), and each cell names its hex.
 */
const PHASE: Readonly<Record<string, string>> = {
  registration: 'Artillery Registration: hexes written in secret',
  forces: 'Choosing forces in secret',
  setup: 'Set-up',
  indirect: 'Indirect Fire Phase',
  action: 'Action Phase',
  reinforce: 'Reinforcements',
  over: 'Game over',
};

export function scene(state: State, viewer: Viewer): Scene {
  const v = view(state, viewer);
  const name = (seat: string) => (seat === 'allies' || seat === 'axis' ? v.scenario.sides[seat].name : seat);
  const byHex = new Map<string, typeof v.units>();
  for (const u of v.units) if (u.hex !== null) byHex.set(u.hex, [...(byHex.get(u.hex) ?? []), u]);
  const cells: Cell[] = [];
  for (const hex of allHexes(state.map)) {
    const terrain = terrainOf(state.map, hex);
    const hill = hillOf(state.map, hex) !== undefined;
    const units = byHex.get(hex) ?? [];
    const markers = v.markers.filter((m) => m.hex === hex);
    if (terrain === 'clear' && !hill && !units.length && !markers.length) continue;
    const pieces: Piece[] = units.map((u) => {
      const chits: Marker[] = [];
      if (u.suppressed) chits.push({ label: 'Suppressed', tone: 'bad' });
      if (u.dugIn) chits.push({ label: 'Dug In', tone: 'good' });
      const c = u.counter;
      return {
        id: u.id,
        label: u.name,
        side: u.owner,
        details: [
          `${u.id} · ${u.steps} step${u.steps === 1 ? '' : 's'}${c.leaderBonus !== undefined ? ` · Leader +${c.leaderBonus}` : ''}`,
          `${c.hard}/${c.soft}${c.indirect ? ' (red)' : ''} · range ${c.range} · RoF ${c.rateOfFire} · training ${c.training}${c.armor !== undefined ? ` · armour ${c.armor}` : ''}`,
        ],
        markers: chits,
      };
    });
    cells.push({
      col: Number(hex.slice(2)) - 1,
      row: Number(hex.slice(0, 2)) - 1,
      ...(terrain !== 'clear' || hill ? { terrain: [hill ? 'hill' : undefined, terrain !== 'clear' ? terrain : undefined].filter(Boolean).join(', ') } : {}),
      pieces,
      markers: [
        { label: `hex ${hex}`, tone: 'info' },
        ...markers.map((m): Marker => ({ label: `${m.kind === 'air' ? 'Air Support' : 'Artillery'} marker (${name(m.owner)})`, tone: 'bad' })),
      ],
      ...(units.some((u) => u.actionsTaken.length > 0) ? { highlight: true } : {}),
    });
  }
  const status = [
    `${v.scenario.name} · turn ${Math.max(1, v.turn)} of ${v.scenario.turns} · ${PHASE[v.phase]}${v.phase !== 'over' ? ` · ${name(v.active)}` : ''}`,
  ];
  if (v.result) status.push(`Result: ${v.result.winners.length ? `won by ${v.result.winners.map(name).join(' and ')}` : 'a draw'} (${v.result.reason})`);
  for (const p of v.pending) status.push(`${viewer.kind === 'seat' && viewer.seat === p.seat ? 'Your move' : `Waiting for ${name(p.seat)}`}: ${p.prompt}`);
  const notes: Note[] = [
    { text: `Turn track: ${Array.from({ length: v.scenario.turns }, (_, i) => (i + 1 === v.turn ? `[${i + 1}]` : String(i + 1))).join(' ')}` },
    ...v.lastCards.map((d) => ({ text: `Drawn for ${d.purpose}: ${d.cards.join(' ')}`, highlight: true })),
    { text: `Deck: ${v.deck.draw} cards left, ${v.deck.discard} used this turn` },
    ...(v.scenario.visibility !== undefined ? [{ text: `Special rule: no line of sight beyond ${v.scenario.visibility} hexes` }] : []),
    ...(v.scenario.noDugInAtStart ? [{ text: 'Special rule: no unit sets up Dug In' }] : []),
    ...(v.scenario.emplaced?.length ? [{ text: `Special rule: emplaced, never move: ${v.scenario.emplaced.join(', ')}` }] : []),
    ...SEATS.flatMap((seat) =>
      v.scenario.sides[seat].support.flatMap((m) => (m.fromTurn !== undefined ? [{ text: `Special rule: ${m.name} from game turn ${m.fromTurn}` }] : [])),
    ),
    ...SEATS.map((seat) => ({
      text: `${name(seat)}: fire support ${
        v.missions[seat]
          .filter((m) => !m.used)
          .map((m) => m.name)
          .join(', ') || 'none left'
      }; waiting ${v.units.filter((u) => u.owner === seat && u.status === 'waiting').length}, eliminated ${v.units.filter((u) => u.owner === seat && u.status === 'eliminated').length}, exited ${v.exited[seat]}`,
    })),
  ];
  return {
    title: `Action Front! · ${viewer.kind === 'seat' ? `seen by ${name(viewer.seat)}` : viewer.kind === 'auditor' ? 'everything open' : 'spectator'}`,
    status,
    sides: SEATS.map((seat) => ({ seat, name: name(seat) })),
    scores: SEATS.map((seat) => ({ seat, label: name(seat), value: `${v.stepsLost[seat === 'allies' ? 'axis' : 'allies']} enemy steps eliminated` })),
    rows: [
      [
        {
          kind: 'hex',
          id: 'map',
          label: `${state.map.name} (turned: printed column 01 at the top, ${name(v.scenario.west)} edge)`,
          cols: state.map.rows,
          rows: state.map.cols,
          cells,
        },
      ],
    ],
    links: [],
    notes,
  };
}
