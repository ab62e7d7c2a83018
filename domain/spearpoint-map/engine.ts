import * as z from 'zod';
import { once } from '../kernel/once.js';
import { deckOf } from '../kernel/deck.js';
import type { GameEngine } from '../kernel/engine.js';
import { violation } from '../kernel/errors.js';
import { err, ok } from '../kernel/result.js';
import { HIDDEN, PUBLIC, onlySeats } from '../kernel/visibility.js';
import { BUILT_IN_CATALOG, indexCatalog } from '../frontline-general/data/catalog.js';
import type { Side } from '../frontline-general/data/schema.js';
import { damageEdge } from '../frontline-general/rules.js';
import { SCENARIO_IDS, SCENARIOS, type Scenario } from './data/scenarios.js';
import { DIRS, EDGE_COLOURS, TILE_KINDS, highlighted, tileSpec } from './data/tiles.js';
import { decide } from './decide.js';
import { evolve } from './evolve.js';
import { legalCommands, OPFIRE_TOPIC, pending } from './legal.js';
import { across, isSpace, mirror, onEdge, colOf } from './map.js';
import { commandSchema, SIDES, type Command, type Event, type Options, type State } from './model.js';
import { Out } from './out.js';
import { scene } from './scene.js';
import { beginTurn } from './turn.js';
import { finalTiles, view } from './view.js';

/**
 * Frontline General: Spearpoint 1943 with the Village and Defensive Line map expansion (003), as
 * a Fieldpost engine over the shared Frontline General core. Each turn: Initiative, Movement
 * (Move, opportunity-fire windows), Commitment (Commit, Fly, WithdrawAircraft, Recrew),
 * declaration (DeclareAttack, DeclareCloseAssault), resolution (ResolveAttack, alternating), Draw
 * (Draw, Discard); the active side ends its part of a phase with Done. RULINGS.md holds every reading.
 */

const cardsSchema = () => z.object({ cards: z.array(z.string().min(1).max(40)).min(1).max(60) }).strict();
const space = () => z.string().refine(isSpace, 'a map space A1..C9');
const edge = () => z.enum(['none', ...EDGE_COLOURS]);

/** Built on first use (a game's creation, the engine listing): a command never needs it (issue 16). */
export const optionsSchema = /* @__PURE__ */ once(() =>
  z
    .object({
      scenario: z.enum(SCENARIO_IDS).default('man-vs-beast'),
      /** The Expansion Standard Game: which side of the map (003 Setup 1a); other scenarios print theirs. */
      map: z.enum(['village', 'defensive-line']).optional(),
      /** Man vs. Beast, What Now, Sarge?: the German setup column (003 §IV). */
      germanColumn: z.union([z.literal(1), z.literal(9)]).default(9),
      /** A Fieldpost bound on game length (not 003's): the game ends on points after this turn. */
      maxTurns: z.number().int().min(1).max(60).default(20),
      /** Feature tiles in place of the scenario's representative layout. */
      tiles: z
        .array(
          z
            .object({
              space: space(),
              kind: z.enum(TILE_KINDS),
              intact: z.boolean().optional(),
              arrows: z.array(z.enum(DIRS)).min(1).max(4).optional(),
              /** Highlighted edges of the intact tile (003 §III Combat 8), side by side; a side left out is 'none'. */
              edges: z.object({ north: edge(), south: edge(), east: edge(), west: edge() }).partial().strict().optional(),
            })
            .strict(),
        )
        .max(27)
        .optional(),
      us: cardsSchema().optional(),
      de: cardsSchema().optional(),
      /** What Now, Sarge?: the two US Reserves Entry Points chosen for turn 3 (map edge(), 2+ columns from the German zone). */
      usEntry: z.array(space()).length(2).optional(),
      /** A club's role and calibre table for its own cards (data/roles.ts). */
      roles: z
        .array(
          z
            .object({
              card: z.string().min(1).max(40),
              role: z.enum(['rifle', 'mg', 'sniper', 'mortar', 'at-team', 'crew', 'tank', 'vehicle', 'gun', 'artillery', 'aircraft']),
              calibre: z.number().int().min(0).max(400),
            })
            .strict(),
        )
        .max(100)
        .optional(),
    })
    .strict()
    .superRefine((o, ctx) => {
      const sc = SCENARIOS.get(o.scenario)!;
      const idx = indexCatalog(BUILT_IN_CATALOG);
      for (const side of SIDES) {
        const cards = o[side]?.cards;
        if (!cards) continue;
        let total = 0;
        cards.forEach((c, i) => {
          if (!idx.hasUnit(c) || idx.unit(c).side !== side)
            ctx.addIssue({ code: 'custom', path: [side, 'cards', i], message: `${c} is not a ${side} unit card` });
          else total += idx.unit(c).cost;
        });
        if (total > sc.deckMax[side])
          ctx.addIssue({ code: 'custom', path: [side, 'cards'], message: `the deck totals ${total} points; ${sc.title} allows ${sc.deckMax[side]}` });
        if (sc.deckMin && total < sc.deckMin[side])
          ctx.addIssue({ code: 'custom', path: [side, 'cards'], message: `the deck totals ${total} points; ${sc.title} needs ${sc.deckMin[side]}` });
      }
      if (o.map && !sc.maps) ctx.addIssue({ code: 'custom', path: ['map'], message: `${sc.title} is played on its own map side` });
      if (o.tiles && new Set(o.tiles.map((t) => t.space)).size !== o.tiles.length)
        ctx.addIssue({ code: 'custom', path: ['tiles'], message: 'one tile per space' });
      (o.tiles ?? []).forEach((t, i) => {
        // RULINGS: the ruined side of a tile has no highlighted edges.
        if (t.edges && t.intact === false)
          ctx.addIssue({ code: 'custom', path: ['tiles', i, 'edges'], message: 'a ruined tile has no highlighted edges (give edges only to intact tiles)' });
        if (!t.arrows) return;
        if (!tileSpec(t.kind).arrows) ctx.addIssue({ code: 'custom', path: ['tiles', i, 'arrows'], message: `a ${t.kind} tile has no entry/exit arrows` });
        // 003 §II 8: at least one arrow must not face the map edge.
        else if (!t.arrows.some((d) => across(t.space, d) !== undefined))
          ctx.addIssue({ code: 'custom', path: ['tiles', i, 'arrows'], message: 'at least one entry/exit arrow must face into the map' });
      });
      if (o.usEntry) {
        const zone = o.germanColumn - 1;
        if (o.usEntry.some((sp) => !onEdge(sp) || Math.abs(colOf(sp) - zone) < 2))
          ctx.addIssue({ code: 'custom', path: ['usEntry'], message: 'entry points lie on a map edge(), at least 2 columns from the German zone' });
      }
    }),
);

/** The scenario as played: Man vs. Beast and What Now, Sarge? mirror their layout when Germany sets up in column 1. */
function effectiveScenario(o: Options): Scenario {
  const printed = SCENARIOS.get(o.scenario as Scenario['id'])!;
  const sc = printed.maps && o.map ? { ...printed, map: o.map, tiles: printed.maps[o.map] } : printed;
  const tiles = o.tiles ?? sc.tiles;
  if (!sc.mirrorable || o.germanColumn === 9) return { ...sc, tiles };
  const m = <P extends { at: string }>(p: P): P => ({ ...p, at: mirror(p.at) });
  return {
    ...sc,
    tiles: o.tiles ?? sc.tiles.map((t) => ({ ...t, space: mirror(t.space) })),
    start: { us: sc.start.us.map(m), de: sc.start.de.map(m) },
    entry: { us: sc.entry.us.map(mirror), de: sc.entry.de.map(mirror) },
  };
}

function initialState(o: Options, rulesVersion: number): State {
  const scenario = effectiveScenario(o);
  const catalog = BUILT_IN_CATALOG;
  const cards: Record<string, { card: string; owner: Side }> = {};
  const seat = (side: Side) => {
    const reg = (prefix: string, list: readonly string[]) =>
      list.map((card, i) => {
        const id = `${side}-${prefix}${String(i + 1).padStart(3, '0')}`;
        cards[id] = { card, owner: side };
        return id;
      });
    scenario.start[side].forEach((p, i) => {
      const id = `${side}-p${String(i + 1).padStart(2, '0')}`;
      cards[id] = { card: p.card, owner: side };
      if (p.crew) cards[`${id}c`] = { card: p.crew, owner: side };
    });
    for (const r of scenario.reinforcements ?? [])
      if (r.side === side)
        r.units.forEach((p, i) => {
          const id = `${side}-r${r.turn}-${i + 1}`;
          cards[id] = { card: p.card, owner: side };
          if (p.crew) cards[`${id}c`] = { card: p.crew, owner: side };
        });
    return {
      reserves: reg('', o[side]?.cards ?? scenario.decks[side]),
      support: reg('s', scenario.support?.[side] ?? []),
      hand: [],
      commands: [],
      score: 0,
      overrun: 0,
      drawn: false,
      exited: 0,
      initiativeBonus: 0,
    };
  };
  const removed = new Set(scenario.removeCommands ?? []);
  const zone = o.germanColumn;
  return {
    rulesVersion,
    catalog,
    roles: Object.fromEntries((o.roles ?? []).map((r) => [r.card, { role: r.role, calibre: r.calibre }])),
    scenario,
    options: o,
    cards,
    tiles: Object.fromEntries(
      scenario.tiles.map((t) => {
        const arrows = t.arrows ?? tileSpec(t.kind).arrows?.default;
        return [t.space, { kind: t.kind, intact: t.intact ?? true, ...(arrows ? { arrows } : {}), ...(t.edges ? { edges: highlighted(t.edges) } : {}) }];
      }),
    ),
    smoke: {},
    units: {},
    seats: { us: seat('us'), de: seat('de') },
    commandDeck: deckOf(catalog.commandCards.filter((c) => !removed.has(c.title)).map((c) => c.id)),
    damageDeck: deckOf(catalog.damageCards.map((c) => c.id)),
    started: false,
    turn: 0,
    phase: 'commitment',
    initiative: null,
    active: null,
    attacks: [],
    attackSeq: 0,
    opfire: null,
    opfireSeq: 0,
    opfired: [],
    sabotaged: [],
    crewWounds: {},
    declStep: 'support',
    lastAttack: null,
    weatherClear: !scenario.weather,
    usEntry: o.usEntry ?? (zone === 9 ? ['A1', 'C1'] : ['A9', 'C9']),
    entryChanged: false,
    convoy: {
      entered: 0,
      arrived: 0,
      destroyed: 0,
      pool: scenario.convoy ? Array.from({ length: scenario.convoy.turns.length * scenario.convoy.perTurn }, (_, i) => `convoy-${i + 1}`) : [],
    },
    cpDeadline: scenario.victory.kind === 'command-post' ? scenario.victory.turn : 0,
    result: null,
  };
}

const NAME = { us: 'United States', de: 'Germany' } as const;

export const spearpointMap: GameEngine<State, Command, Event, Options> = {
  id: 'spearpoint-1943-map',
  title: 'Frontline General: Spearpoint 1943 — Village and Defensive Line',
  version: 1,
  get optionsSchema() {
    return optionsSchema() as unknown as z.ZodType<Options>;
  },
  commandSchema,
  seats: () => SIDES.map((id) => ({ id, name: NAME[id] })),
  listing: {
    seats: [2],
    sides: SIDES.map((id) => ({ id, name: NAME[id] })),
    scenarios: { option: 'scenario', choices: [...SCENARIOS.values()].map((s) => ({ id: s.id, title: s.title, description: s.description })) },
  },
  initialState,
  setup(state, ctx) {
    // 003 §III Game Types and Setup (h, i; "standard starting hands" g): shuffle, place, deal.
    const out = new Out(state);
    for (const side of SIDES) {
      out.emit({ type: 'ReservesShuffled', seat: side, deck: 'reserves', order: ctx.rng.shuffle(state.seats[side].reserves) }, HIDDEN);
      if (state.seats[side].support.length)
        out.emit({ type: 'ReservesShuffled', seat: side, deck: 'support', order: ctx.rng.shuffle(state.seats[side].support) }, HIDDEN);
    }
    out.emit({ type: 'CommandDeckShuffled', order: ctx.rng.shuffle(state.commandDeck.draw) }, HIDDEN);
    out.emit({ type: 'DamageDeckShuffled', order: ctx.rng.shuffle(state.damageDeck.draw) }, HIDDEN);
    const sc = state.scenario;
    if (sc.convoy) out.emit({ type: 'CommandCardsRemoved', cards: out.s.commandDeck.draw.slice(0, sc.convoy.turns.length * sc.convoy.perTurn) }, HIDDEN);
    const byTitle = (title: string) => out.s.commandDeck.draw.find((c) => indexCatalog(state.catalog).command(c).title === title);
    const placedDamage = new Set<string>();
    for (const side of SIDES) {
      sc.start[side].forEach((p, i) => {
        const unit = `${side}-p${String(i + 1).padStart(2, '0')}`;
        let attach = p.with ?? [];
        if (p.withRoll !== undefined) {
          const die = ctx.rng.die(10);
          out.emit({ type: 'SetupRolled', unit, die, needed: p.withRoll, placed: die >= p.withRoll });
          if (die < p.withRoll) attach = [];
        }
        const attached = attach.flatMap((t) => byTitle(t) ?? []);
        const type = indexCatalog(state.catalog).unit(p.card).type;
        const damageCard = p.damaged
          ? (out.s.damageDeck.draw.find(
              (d) => !placedDamage.has(d) && p.damaged!.includes(indexCatalog(state.catalog).damage(d).effects[damageEdge(type)].name),
            ) ?? null)
          : null;
        if (damageCard) placedDamage.add(damageCard);
        out.emit({ type: 'UnitPlaced', unit, card: p.card, owner: side, crew: p.crew ? `${unit}c` : null, at: p.at, attached, damageCard });
      });
    }
    for (const side of SIDES) {
      const extra = (sc.extraCommands?.[side] ?? []).flatMap((t) => byTitle(t) ?? []);
      const commands = [...extra, ...out.s.commandDeck.draw.filter((c) => !extra.includes(c)).slice(0, sc.startingHand.commands)];
      const units = out.s.seats[side].reserves.slice(0, sc.startingHand.units);
      out.emit({ type: 'HandDealt', seat: side, units, commands }, onlySeats(side));
      out.emit({ type: 'HandCounted', seat: side, units: units.length, commands: commands.length }, PUBLIC);
    }
    beginTurn(out, ctx);
    return ok(out.list);
  },
  evolve,
  decide,
  view,
  pending,
  outcome(s) {
    if (!s.result) return undefined;
    return { winners: s.result.winners, reason: s.result.reason, score: { us: s.seats.us.score, de: s.seats.de.score } };
  },
  legalCommands,
  standingOrders: {
    rules: [
      { topic: OPFIRE_TOPIC, rule: 'always-fire', description: 'Take every opportunity fire, with the first unit able to fire' },
      { topic: OPFIRE_TOPIC, rule: 'never', description: 'Never take opportunity fire (pass at once)' },
    ],
    answer(s, seat, window, order) {
      if (window.topic !== OPFIRE_TOPIC || order.topic !== OPFIRE_TOPIC) return undefined;
      if (!s.opfire || s.opfire.seat !== seat) return { skip: 'no opportunity fire is yours to take' };
      if (order.rule === 'never') return { answer: { type: 'PassOpportunityFire' } };
      const unit = s.opfire.shooters[0];
      return unit === undefined ? { skip: 'no unit can fire' } : { answer: { type: 'OpportunityFire', unit } };
    },
  },
  scene,
  carryOver(finished, options) {
    // 003 §IV carry-over (l.991, 1060, 1268): the finished game's final tiles, with their arrows and edges, start the next scenario.
    if (options !== undefined && (typeof options !== 'object' || options === null || Array.isArray(options)))
      return err(violation('carry-over/bad-options', 'options must be an object', '003 §IV'));
    if (options !== undefined && Object.hasOwn(options, 'tiles'))
      return err(violation('carry-over/tiles-given', 'A carried-over game takes its tiles from the finished game: leave out `tiles`', '003 §IV'));
    return ok({ ...(options as object | undefined), tiles: finalTiles(finished) });
  },
};
