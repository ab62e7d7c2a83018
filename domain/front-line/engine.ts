import * as z from 'zod';
import type { GameEngine, Outcome as KernelOutcome, SeatSpec } from '../kernel/engine.js';
import { ok } from '../kernel/result.js';
import type { Cell, Piece, Region, Scene } from '../kernel/scene.js';
import type { Seat, Viewer } from '../kernel/visibility.js';
import {
  boardOf,
  COLS,
  controllerOf,
  heightOf,
  occupationPoints,
  ROWS,
  sqName,
  terrainOf,
  cityAt,
  distance,
  seatState,
  unitById,
  shootersAt,
} from './board.js';
import { BATTLEFIELDS, KINDS, MONTHS, PLACED, RANGE, RECOMMENDED_GREEN, RESERVE, RESULTS_TABLE, SUPPLY_CARDS, type Kind } from './data.js';
import { decide } from './decide.js';
import { evolve } from './evolve.js';
import { legalCommands, mover, pending } from './legal.js';
import {
  commandSchema,
  COLORS,
  optionsSchema,
  otherColor,
  type Color,
  type Command,
  type Event,
  type Options,
  type SeatState,
  type State,
  type Unit,
} from './model.js';

/**
 * Front Line (rulebook 002) as a Fieldpost engine, `front-line`.
 *
 * Set-up (hidden until both finish) → a die picks who decides the first player → 4 rounds
 * (September–December) of 3 turns a player: each turn one supply stack, Regular actions and
 * Missions paid from it, Leadership tasks. Questions put to a seat during an attack (Rally, the
 * Edge, a Tank's die, Retreat or Hold, the retreat square, Displacement, Rally's reward) and
 * after supply use (Opportunity Fire) and Send Support are kernel decision windows when they go
 * to a seat whose turn it is not, with standing orders. RULINGS.md lists every reading.
 */

const TWO: readonly SeatSpec[] = [
  { id: 'green', name: 'Green', side: 'green' },
  { id: 'red', name: 'Red', side: 'red' },
];
/** Allies (002 p.E): turns pass red, green, red, green; seats 1 fight on the first battlefield, seats 2 on the second. */
const FOUR: readonly SeatSpec[] = [
  { id: 'red1', name: 'Red (first battlefield)', side: 'red' },
  { id: 'green1', name: 'Green (first battlefield)', side: 'green' },
  { id: 'red2', name: 'Red (second battlefield)', side: 'red' },
  { id: 'green2', name: 'Green (second battlefield)', side: 'green' },
];

const seatsFor = (o: Options) => (o.allies ? FOUR : TWO);

function initialState(o: Options, rulesVersion: number): State {
  const specs = seatsFor(o);
  const seats: SeatState[] = specs.map((x) => {
    const color = x.side as Color;
    const board = o.allies ? Number(x.id.slice(-1)) - 1 : 0;
    const stack = { n: 0, max: 0, fallen: false, used: true };
    return {
      id: x.id,
      color,
      board,
      card: o.supply[color] ?? 'balanced',
      stacks: { air: stack, capital: stack, industry: stack },
      leadership: 'available',
      setupDone: false,
    };
  });
  const units: Unit[] = [];
  for (const seat of seats)
    for (const kind of KINDS)
      for (let i = 1; i <= PLACED[kind] + RESERVE[kind]; i++)
        units.push({ id: `${seat.id}-${kind}-${i}`, kind, color: seat.color, home: seat.board, sq: null, active: true });
  const boards = o.allies ? 2 : 1;
  return {
    rulesVersion,
    battlefield: o.battlefield,
    allies: o.allies,
    amphibious: o.allies || o.amphibious,
    rows: o.layout ?? BATTLEFIELDS[o.battlefield].rows,
    recommended: o.recommended ?? (o.battlefield === 'main' && !o.layout ? RECOMMENDED_GREEN : null),
    table: o.resultsTable ?? RESULTS_TABLE,
    cards: { ...SUPPLY_CARDS, ...(o.supplyValues ?? {}) } as State['cards'],
    boards,
    seats,
    units,
    fallen: [],
    edge: Array.from({ length: boards }, () => ({ holder: null, on: false })),
    phase: 'setup',
    decider: null,
    order: specs.map((x) => x.id),
    first: 0,
    round: 0,
    turn: 0,
    chosen: null,
    acted: [],
    supportUsed: false,
    attack: null,
    question: null,
    qseq: 0,
    last: [],
    result: null,
  };
}

/** What a viewer sees: everything is open except, during set-up, where the other seats placed their units (002 p.1; RULINGS). */
export function view(s: State, viewer: Viewer) {
  const me = viewer.kind === 'seat' ? viewer.seat : undefined;
  const hidden = (u: Unit) => s.phase === 'setup' && viewer.kind !== 'auditor' && s.seats.find((x) => x.color === u.color && x.board === u.home)!.id !== me;
  return {
    battlefield: s.battlefield,
    title: BATTLEFIELDS[s.battlefield].title,
    allies: s.allies,
    amphibious: s.amphibious,
    rows: s.rows,
    boards: s.boards,
    phase: s.phase,
    round: s.round,
    month: s.round > 0 ? MONTHS[s.round - 1]! : null,
    turn: s.turn,
    mover: s.phase === 'play' ? mover(s) : null,
    decider: s.decider,
    seats: s.seats.map((x) => ({
      id: x.id,
      color: x.color,
      board: x.board,
      supplyCard: x.card,
      stacks: x.stacks,
      leadership: x.leadership,
      setupDone: x.setupDone,
      reserve: Object.fromEntries(
        KINDS.map((k) => [k, s.units.filter((u) => u.color === x.color && u.home === x.board && u.kind === k && u.sq === null && s.phase !== 'setup').length]),
      ),
    })),
    units: s.units.map((u) => ({
      id: u.id,
      kind: u.kind,
      color: u.color,
      home: u.home,
      square: hidden(u) ? null : u.sq,
      active: u.active,
      range: RANGE[u.kind],
    })),
    fallen: s.fallen,
    edge: s.edge,
    chosen: s.chosen,
    acted: s.acted,
    attack: s.attack,
    question: s.question,
    last: s.last,
    occupationPoints: { green: occupationPoints(s, 'green'), red: occupationPoints(s, 'red') },
    result: s.result,
  };
}
type View = ReturnType<typeof view>;

const LETTER: Readonly<Record<Kind, string>> = { infantry: 'Inf', tank: 'Tank', artillery: 'Art' };

/** The picture (002 p.B, p.6): each battlefield's grid with heights, terrain and cities, units with their face, supply, the Edge, round and turn, the last action highlighted. */
export function scene(s: State, viewer: Viewer): Scene {
  const v: View = view(s, viewer);
  const grids: Region[] = [];
  for (let b = 0; b < v.boards; b++) {
    const cells: Cell[] = [];
    for (let row = 0; row < ROWS; row++)
      for (let col = 0; col < COLS; col++) {
        const name = sqName(b, col, row);
        const t = terrainOf(s, name);
        const city = cityAt(s, name);
        const pieces: Piece[] = v.units
          .filter((u) => u.square === name)
          .map((u) => ({
            id: u.id,
            label: `${LETTER[u.kind]} R${u.range}`,
            side: controllerOf(s, unitById(s, u.id)!).id,
            details: [u.active ? 'active' : 'disrupted'],
            markers: u.active ? [] : [{ label: 'Disrupted', tone: 'bad' as const }],
            ...(v.last.includes(name) ? { highlight: true } : {}),
          }));
        const markers = city
          ? [
              {
                label: `${city.owner} ${city.type}${v.fallen.includes(name) ? ' (Fallen)' : ''}`,
                tone: v.fallen.includes(name) ? ('bad' as const) : ('info' as const),
              },
            ]
          : [];
        if (t.terrain === 'purple') markers.push({ label: '#1 hex', tone: 'info' });
        cells.push({ col, row, terrain: t.terrain, height: heightOf(s, name), pieces, markers, ...(v.last.includes(name) ? { highlight: true } : {}) });
      }
    grids.push({
      kind: 'grid',
      id: `battlefield-${b + 1}`,
      label: `${v.title}${v.boards > 1 ? ` (${b === 0 ? 'first' : 'second'} battlefield)` : ''}`,
      cols: COLS,
      rows: ROWS,
      cells,
    });
  }
  const stackLine = (x: View['seats'][number]) =>
    (['air', 'capital', 'industry'] as const)
      .map((k) => `${k} ${x.stacks[k].used ? 'used' : `${x.stacks[k].n}${x.stacks[k].fallen ? ' (Fallen)' : ''}`}`)
      .join(', ');
  const status = [
    v.phase === 'setup'
      ? 'Set-up'
      : v.phase === 'first'
        ? `Choosing the first player (${v.decider})`
        : v.phase === 'over'
          ? `Game over: ${v.result?.reason ?? ''}`
          : `${v.month}, turn ${v.turn + 1}: ${v.mover} to move`,
  ];
  if (v.question) status.push(`Asked of ${v.question.seat}: ${v.question.topic}`);
  return {
    title: `Front Line · ${v.title} · ${viewer.kind === 'seat' ? `seen by ${viewer.seat}` : viewer.kind}`,
    status,
    sides: v.seats.map((x) => ({ seat: x.id, name: `${x.color}${v.allies ? ` ${x.board + 1}` : ''}` })),
    scores: v.seats.map((x) => ({ seat: x.id, label: `${x.id} OP`, value: String(v.occupationPoints[x.color]) })),
    rows: [grids],
    links: v.attack
      ? [
          {
            from: { piece: v.attack.attacker },
            to: {
              region: `battlefield-${boardOf(s, v.attack.target) + 1}`,
              col: (v.attack.target.charCodeAt(0) - 65) % COLS,
              row: Number(v.attack.target.slice(1)) - 1,
            },
            kind: 'attack',
            highlight: true,
          },
        ]
      : [],
    notes: [
      ...v.seats.map((x) => ({
        text: `${x.id}: supply ${stackLine(x)}; Leadership ${x.leadership}; reserve ${KINDS.map((k) => `${x.reserve[k]} ${k}`).join(', ')}`,
      })),
      ...v.edge.map((e, b) => ({
        text: `Edge${v.boards > 1 ? ` (battlefield ${b + 1})` : ''}: ${e.holder ? `held by ${e.holder}, ${e.on ? 'ON' : 'OFF'}` : 'beside the Edge Is Off area'}`,
      })),
      ...(v.chosen
        ? [{ text: `Stack in use: ${v.chosen.stack}, ${v.chosen.n} chit(s) left${v.chosen.fallen ? ' (Fallen: Regular actions only)' : ''}`, highlight: true }]
        : []),
    ],
  };
}

const sideOf = (s: State, seat: Seat): Color | undefined => seatState(s, seat)?.color;

const SUPPLY_ACTIONS = ['Move', 'AmphibiousMove', 'Attack', 'Build', 'Paratroop', 'Regroup'] as const;
/** A shooter for a standing order: one rolling both dice first, then the longest range, then by id. */
function bestShooter(s: State, color: Color, square: string): Unit | undefined {
  return shootersAt(s, color, square).sort(
    (a, b) => heightOf(s, b.sq!) - heightOf(s, square) - (heightOf(s, a.sq!) - heightOf(s, square)) || RANGE[b.kind] - RANGE[a.kind] || (a.id < b.id ? -1 : 1),
  )[0];
}

export const frontLine: GameEngine<State, Command, Event, Options> = {
  id: 'front-line',
  title: 'Front Line',
  version: 1,
  get optionsSchema() {
    return optionsSchema() as unknown as z.ZodType<Options>;
  },
  commandSchema,
  seats: (o) => seatsFor(o),
  listing: {
    seats: [2, 4],
    sides: [
      { id: 'green', name: 'Green' },
      { id: 'red', name: 'Red' },
    ],
    scenarios: {
      option: 'battlefield',
      choices: Object.entries(BATTLEFIELDS).map(([id, b]) => ({
        id,
        title: b.title,
        description: `${b.edition} battlefield${id === 'lake-nogo' ? ' with eight impassable water squares' : ''} (representative layout)`,
      })),
    },
  },
  initialState,
  setup: () => ok([]),
  evolve,
  decide,
  view,
  pending,
  outcome(s): KernelOutcome | undefined {
    if (!s.result) return undefined;
    const score = Object.fromEntries(s.seats.map((x) => [x.id, s.result!.op[x.color]]));
    return { winners: s.seats.filter((x) => x.color === s.result!.winners).map((x) => x.id), reason: s.result.reason, score };
  },
  legalCommands,
  /**
   * Resignation and time-out (RULINGS): the side of a seat that resigns or runs out of time loses,
   * in the Allies game too, since only that player may give orders on its battlefield and the
   * two allies win or lose together (002 p.E).
   */
  concede(s, seats, reason) {
    const losing = new Set(seats.map((x) => sideOf(s, x)));
    const winners = COLORS.filter((c) => !losing.has(c));
    const win = winners.length === 1 ? winners[0]! : null;
    return {
      winners: s.seats.filter((x) => x.color === win).map((x) => x.id),
      reason: `${seats.join(', ')} ${reason === 'resigned' ? 'resigned' : 'ran out of time'}: ${win ? `the ${otherColor(win)} side loses` : 'both sides concede'}`,
    };
  },
  standingOrders: {
    rules: [
      { topic: 'opportunity-fire', rule: 'never', description: 'Never Opportunity Fire (keep Leadership for other tasks)' },
      {
        topic: 'opportunity-fire',
        rule: 'always',
        description: 'Opportunity Fire at every enemy unit that uses supply within range, with the best-placed unit',
      },
      {
        topic: 'opportunity-fire',
        rule: 'when',
        description:
          'Opportunity Fire when the enemy unit did this action (e.g. Paratroop) and/or ended next to one of my units of this kind (e.g. artillery); otherwise this order does not answer',
        params: z.object({ action: z.enum(SUPPLY_ACTIONS).optional(), nextTo: z.enum(KINDS as [Kind, ...Kind[]]).optional() }).strict(),
      },
      { topic: 'rally', rule: 'always', description: 'Rally every unit attacked with supply while Leadership is Available' },
      { topic: 'rally', rule: 'never', description: 'Never Rally' },
      { topic: 'edge', rule: 'never', description: 'Never re-roll with the Edge on the opponent’s turn' },
      { topic: 'rout', rule: 'hold', description: 'A routed unit holds (is disrupted) rather than retreat' },
      { topic: 'rout', rule: 'retreat', description: 'A routed unit retreats when it can' },
      { topic: 'displace', rule: 'never', description: 'Opportunity fire never displaces into the emptied square unless it must' },
      { topic: 'send-support', rule: 'decline', description: 'Decline support from the ally' },
    ],
    answer(s, seat, window, order) {
      const q = s.question;
      if (!q || q.id !== window.id || q.seat !== seat || order.topic !== q.topic) return undefined;
      switch (`${q.topic}/${order.rule}`) {
        case 'opportunity-fire/never':
        case 'edge/never':
        case 'displace/never':
        case 'send-support/decline':
        case 'rally/never':
          return { answer: { type: 'Pass' } };
        case 'rally/always':
          return { answer: { type: 'Rally' } };
        case 'rout/hold':
          return { answer: { type: 'Hold' } };
        case 'rout/retreat':
          return { answer: { type: 'Retreat' } };
        case 'opportunity-fire/always':
        case 'opportunity-fire/when': {
          const trigger = unitById(s, q.unit!);
          const color = sideOf(s, seat)!;
          if (!trigger?.sq) return { skip: 'the unit is gone' };
          const p = (order.params ?? {}) as { action?: string; nextTo?: Kind };
          if (p.action !== undefined && p.action !== q.action) return undefined;
          if (p.nextTo !== undefined && !s.units.some((u) => u.color === color && u.kind === p.nextTo && u.sq && distance(s, u.sq, trigger.sq!) === 1))
            return undefined;
          const shooter = bestShooter(s, color, trigger.sq);
          return shooter ? { answer: { type: 'OpportunityFire', unit: shooter.id } } : { skip: 'no unit in range' };
        }
        default:
          return undefined;
      }
    },
  },
  scene,
};
