import * as z from 'zod';
import { deckOf, peek } from '../kernel/deck.js';
import type { Emitted, GameEngine } from '../kernel/engine.js';
import { violation } from '../kernel/errors.js';
import { once } from '../kernel/once.js';
import { err, ok } from '../kernel/result.js';
import { HIDDEN, PUBLIC, onlySeats } from '../kernel/visibility.js';
import { BUILT_IN_CATALOG, BUILT_IN_CATALOG_V2, indexCatalog, loadCatalog } from '../frontline-general/data/catalog.js';
import { DEFAULT_PRESET, PRESET_DECKS } from './data/decks.js';
import type { Catalog, Side } from '../frontline-general/data/schema.js';
import { SITUATIONS, type Situation } from './data/situations.js';
import { decide } from './decide.js';
import { Out } from './out.js';
import { evolve } from './evolve.js';
import { FRIENDLY_FIRE_TOPIC, highestCostVictim } from './friendly-fire.js';
import { legalCommands, pending } from './legal.js';
import {
  commandSchema,
  isOpenOrder,
  ORDER_STEP_TYPES,
  SEATS,
  type Command,
  type OrderStepCommand,
  type DeckChoice,
  type Event,
  type Options,
  type PlacedUnit,
  type SeatState,
  type State,
} from './model.js';
import { COMMANDS_DEALT, commitLine, deckProblems, RULE } from './rules.js';
import { scene } from './scene.js';
import { view } from './view.js';

/**
 * Frontline General: Spearpoint 1943, the card game (rulebook 001), as a Fieldpost engine.
 *
 * Flow: setup shuffles the decks and deals 3 Command cards each; in the muster each side
 * picks its 4-unit starting hand privately: a sealed order of PickStartingUnit steps closed by
 * SealOrder, or AutoPickHand to fill the rest (rules version 2: each pick taken at once). Each turn:
 *   commitment   both sides build a sealed order step by step (CommitUnit, ReplaceCrew,
 *                MoveCrew, MoveLine, PlayCommandCard), then SealOrder; one public reveal.
 *   declaration  sealed again (DeclareAttack, JoinCloseAssault, declaration cards), SealOrder
 *                may discard a card for +1 Initiative; the reveal rolls Initiative.
 *   initiative   (version 3) after a tie, each side holding a card seals again, with a card
 *                for +1 on the re-roll or without (SealOrder {initiativeBoost?}).
 *   combat       the side whose choice it is sends ResolveAttack {attackId, boostWith?};
 *                a friendly-fire roll may wait for the other side's ChooseFriendlyFireVictim,
 *                from version 3 with a card for +1 on its Intensity. From version 4 that wait
 *                is a kernel decision window (topic 'friendly-fire-victim', blocking, default
 *                the highest-cost candidate) that lapses at its deadline and that the kernel
 *                standing order 'highest-cost' answers in the same append; versions 2 and 3 keep their
 *                own SetStandingOrders {friendlyFire}, answered inside the engine.
 *                The phase ends by itself when no attack is left.
 *   draw         each side sends DrawCard ×3 (command first), then discards to 7 units / 5 commands.
 *
 * Readings of the rulebook where it is silent (each documented where it is implemented, and
 * all of them in RULINGS.md beside this file):
 * special attack rolls (2-3, 18, 19-20) read the natural 2d10, a +1 card only helps reach the
 * attack value; an 18 doubles the Intensity with its bonuses, crew survival reads the base die
 * (for a close assault, the highest of its dice); a friendly-fire victim is a legal target of
 * the weapon that rolled, and its crew is never captured; a card discarded for +1 is discarded
 * just before the roll it improves (an Intensity +1 only if that shot hits the target, an
 * Initiative +1 only if Initiative is rolled); a close assault needs three able infantry when
 * it is resolved; a captured unit scores double whether or not its captor keeps it; with every
 * Damage card in use no card is drawn; the engine ends a game that could otherwise run forever
 * at the turn limit (`maxTurns`, default 40) or when neither side has a unit in play or in Reserves nor commits one in a turn (public facts only),
 * by the higher score (level scores: a draw, no winners).
 */
/** Named presets and situations, looked up by a player's string without reaching Object.prototype. */
const presetDeck = (name: string) => (Object.hasOwn(PRESET_DECKS, name) ? PRESET_DECKS[name] : undefined);
const situationById = (id: string) => (Object.hasOwn(SITUATIONS, id) ? SITUATIONS[id] : undefined);

const deckChoiceSchema = () => z.union([z.object({ preset: z.string() }).strict(), z.object({ cards: z.array(z.string()).min(1).max(80) }).strict()]);

const catalogFrom = (o: { catalog?: unknown }, rulesVersion: number): Catalog => {
  if (o.catalog === undefined) return rulesVersion < 3 ? BUILT_IN_CATALOG_V2 : BUILT_IN_CATALOG;
  const r = loadCatalog(o.catalog);
  if (!r.ok) throw new Error('catalog option was validated at creation');
  return r.value;
};

/**
 * A deck for a side: the chosen list, a named preset, or (nothing chosen) the side's default
 * preset trimmed or filled to the situation's point range: units taken in preset order with the
 * crew they need while they fit, then the cheapest crewless units until the minimum is met.
 */
export function resolveDeck(catalog: Catalog, situation: Situation, side: Side, choice: DeckChoice | undefined): string[] {
  if (choice && 'cards' in choice) return choice.cards;
  if (choice && 'preset' in choice) return [...(presetDeck(choice.preset)?.cards ?? [])];
  const { min, max } = situation.deckPoints[side];
  const units = catalog.units.filter((u) => u.side === side);
  const byId = new Map(units.map((u) => [u.id, u]));
  const preset = PRESET_DECKS[DEFAULT_PRESET[side]]!.cards;
  const source = preset.every((id) => byId.has(id)) ? preset.map((id) => byId.get(id)!) : units;
  const crewFor = (kind: string) => units.find((u) => u.type === 'crew' && u.crewKind === kind);
  const deck: string[] = [];
  let total = 0;
  for (const u of source) {
    if (u.type === 'crew') continue;
    const crew = u.crew === 'none' ? undefined : crewFor(u.crew);
    const cost = u.cost + (crew?.cost ?? 0);
    if (total + cost > max) continue;
    deck.push(u.id, ...(crew ? [crew.id] : []));
    total += cost;
  }
  const cheapest = units.filter((u) => u.type !== 'crew' && u.crew === 'none').sort((a, b) => a.cost - b.cost)[0];
  while (cheapest && total < min && total + cheapest.cost <= max) {
    deck.push(cheapest.id);
    total += cheapest.cost;
  }
  return deck;
}

/** Built on first use (a game's creation, the engine listing): a command never needs it (issue 16). */
export const optionsSchema = /* @__PURE__ */ once(() =>
  z
    .object({
      situation: z.string().default('standard'),
      us: deckChoiceSchema().optional(),
      de: deckChoiceSchema().optional(),
      maxTurns: z.number().int().min(1).max(500).default(40),
      /** A club's own catalog file (validated by loadCatalog); the representative built-in one otherwise. */
      catalog: z.unknown().optional(),
    })
    .strict()
    .superRefine((o, ctx) => {
      let catalog = BUILT_IN_CATALOG;
      if (o.catalog !== undefined) {
        const r = loadCatalog(o.catalog);
        if (!r.ok) {
          for (const e of r.error) ctx.addIssue({ code: 'custom', path: ['catalog', e.card, ...(e.field ? [e.field] : [])], message: e.message });
          return;
        }
        catalog = r.value;
      }
      const situation = situationById(o.situation);
      if (!situation) {
        ctx.addIssue({ code: 'custom', path: ['situation'], message: `unknown situation; choose one of ${Object.keys(SITUATIONS).join(', ')}` });
        return;
      }
      for (const side of SEATS) {
        const choice = o[side];
        if (choice && 'preset' in choice) {
          const p = presetDeck(choice.preset);
          if (!p || p.side !== side) {
            ctx.addIssue({
              code: 'custom',
              path: [side, 'preset'],
              message: `no ${side} preset "${choice.preset}"; choose one of ${Object.keys(PRESET_DECKS)
                .filter((k) => PRESET_DECKS[k]!.side === side)
                .join(', ')}`,
            });
            continue;
          }
        }
        const { min, max } = situation.deckPoints[side];
        for (const p of deckProblems(catalog.units, side, resolveDeck(catalog, situation, side, choice), min, max))
          ctx.addIssue({ code: 'custom', path: [side], message: p });
        const idx = indexCatalog(catalog);
        for (const placed of situation.startInPlay[side]) {
          if (!idx.hasUnit(placed.card) || (placed.crew && !idx.hasUnit(placed.crew)))
            ctx.addIssue({ code: 'custom', path: ['situation'], message: `the catalog lacks ${placed.card} needed by ${situation.title}` });
        }
      }
    }),
);

const emptySeat: SeatState = {
  reserves: [],
  hand: [],
  commands: [],
  order: [],
  sealed: false,
  handReady: false,
  drawsTaken: 0,
  drawDone: false,
  friendlyFire: 'ask',
  overrun: 0,
  score: 0,
  destroyedTypes: {},
  heldBoosts: [],
  lastCommitTurn: 0,
};

function initialState(o: Options, rulesVersion: number): State {
  const catalog = catalogFrom(o, rulesVersion);
  const situation = situationById(o.situation)!;
  const cards: Record<string, { card: string; owner: Side }> = {};
  const seats = { us: { ...emptySeat }, de: { ...emptySeat } };
  for (const side of SEATS) {
    const deck = resolveDeck(catalog, situation, side, o[side]);
    const ids = deck.map((card, i) => {
      const id = `${side}-${String(i + 1).padStart(3, '0')}`;
      cards[id] = { card, owner: side };
      return id;
    });
    seats[side] = { ...seats[side], reserves: ids };
    situation.startInPlay[side].forEach((p, i) => {
      cards[`${side}-s${String(i + 1).padStart(2, '0')}`] = { card: p.card, owner: side };
      if (p.crew) cards[`${side}-s${String(i + 1).padStart(2, '0')}c`] = { card: p.crew, owner: side };
    });
  }
  return {
    rulesVersion,
    catalog,
    situation,
    maxTurns: o.maxTurns,
    cards,
    started: false,
    phase: 'muster',
    turn: 0,
    seats,
    inPlay: {},
    commandDeck: deckOf(catalog.commandCards.map((c) => c.id)),
    damageDeck: deckOf(catalog.damageCards.map((c) => c.id)),
    effects: [],
    attacks: [],
    chooser: null,
    initiative: null,
    initiativeTies: [],
    friendlyFire: null,
    removed: [],
    result: null,
  };
}

/** A ClearOrder in a draft starts it over: only the steps after the last one count. */
const tidyDraft = (steps: readonly Command[]): Command[] => steps.slice(steps.map((c) => c.type).lastIndexOf('ClearOrder') + 1);

export const spearpoint: GameEngine<State, Command, Event, Options> = {
  id: 'spearpoint-1943',
  title: 'Frontline General: Spearpoint 1943',
  // 2: muster picks drawn with the secret dice, +1 cards held through a friendly-fire pause
  // (heldBoosts), the 'nothing left' end on public facts (lastCommitTurn).
  // 3 (RULINGS.md): mobile artillery is attacked with the artillery bonus of 2; no Damage card
  // kills the crew of a surviving unit (built-in catalog changed, the effect refused); a card
  // may be discarded for +1 before an Initiative re-roll and on a friendly-fire Intensity roll;
  // the starting hand is a sealed, draftable order. Version-2 games keep their rules (State.rulesVersion).
  // 4: the friendly-fire victim choice is a kernel decision window (default: the highest-cost
  // candidate) answered by the kernel's standing orders; SetStandingOrders is refused. The Command
  // and Damage decks became kernel Decks in the state, so snapshots of earlier versions are refolded.
  // Version-3 games keep SetStandingOrders and fold and verify as before.
  version: 4,
  olderVersions: [2, 3],
  // Fixed by initialState, changed by no event: each kept once per game, not in every snapshot.
  staticState: ['catalog', 'situation', 'cards'],
  get optionsSchema() {
    return optionsSchema() as unknown as z.ZodType<Options>;
  },
  commandSchema,
  seats: () => [
    { id: 'us', name: 'United States' },
    { id: 'de', name: 'Germany' },
  ],
  listing: {
    seats: [2],
    sides: [
      { id: 'us', name: 'United States' },
      { id: 'de', name: 'Germany' },
    ],
    scenarios: {
      option: 'situation',
      choices: Object.values(SITUATIONS).map((s) => ({
        id: s.id,
        title: s.title,
        description: s.objectives.us === s.objectives.de ? s.objectives.us : `United States: ${s.objectives.us} Germany: ${s.objectives.de}`,
      })),
    },
  },
  initialState,
  setup(state, ctx) {
    // Shuffle both Reserves decks, the Command deck and the Damage deck; deal 3 Command cards each (001 Setup).
    const out = new Out(state);
    for (const seat of SEATS) out.emit({ type: 'ReservesShuffled', seat, order: ctx.rng.shuffle(state.seats[seat].reserves) }, HIDDEN);
    out.emit({ type: 'CommandDeckShuffled', order: ctx.rng.shuffle(state.commandDeck.draw) }, HIDDEN);
    out.emit({ type: 'DamageDeckShuffled', order: ctx.rng.shuffle(state.damageDeck.draw) }, HIDDEN);
    for (const seat of SEATS) {
      out.emit({ type: 'CommandCardsDealt', seat, cards: peek(out.s.commandDeck, COMMANDS_DEALT) }, onlySeats(seat));
      out.emit({ type: 'CardsDealtCount', seat, commands: COMMANDS_DEALT });
    }
    for (const seat of SEATS) {
      const placed = state.situation.startInPlay[seat];
      if (!placed.length) continue;
      const units: PlacedUnit[] = placed.map((p, i) => {
        const id = `${seat}-s${String(i + 1).padStart(2, '0')}`;
        const line = p.line ?? commitLine(indexCatalog(state.catalog).unit(p.card), 'front') ?? 'front';
        return { unit: id, crew: p.crew ? `${id}c` : null, line };
      });
      out.emit({ type: 'SituationUnitsPlaced', seat, units }, PUBLIC);
    }
    if (out.s.seats.us.reserves.length === 0 && out.s.seats.de.reserves.length === 0)
      return err(violation('setup/empty-decks', 'Both Reserves decks are empty', RULE.setup));
    return ok(out.list as readonly Emitted<Event>[]);
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
  // Rules version 4: the friendly-fire victim choice is a decision window (friendly-fire.ts) that
  // a seat may answer in advance. Version 2 and 3 games never open it (their SetStandingOrders answers inside the engine).
  standingOrders: {
    rules: [
      {
        topic: FRIENDLY_FIRE_TOPIC,
        rule: 'highest-cost',
        description: 'When an enemy attack rolls friendly fire, it hits the enemy unit of highest cost it could legally target (without a card for +1)',
      },
    ],
    answer(s, seat, window, order) {
      if (window.topic !== FRIENDLY_FIRE_TOPIC || order.topic !== FRIENDLY_FIRE_TOPIC) return undefined;
      const ff = s.friendlyFire;
      if (!ff || ff.chooser !== seat) return { skip: 'no friendly-fire victim is yours to choose' };
      const unit = highestCostVictim(s, ff.candidates);
      return unit === undefined ? { skip: 'no unit can be hit' } : { answer: { type: 'ChooseFriendlyFireVictim', unit } };
    },
  },
  scene,
  drafts: {
    // The steps of a commitment or declaration order, and ClearOrder to start the draft over.
    isStep: (c) => ORDER_STEP_TYPES.has(c.type) || c.type === 'ClearOrder',
    tidy: tidyDraft,
    // SealOrder carries the (tidied) draft; an order given with steps of its own seals no draft.
    seal(finish, steps) {
      if ((finish.type !== 'SealOrder' && finish.type !== 'AutoPickHand') || finish.steps !== undefined) return undefined;
      return { ...finish, steps: steps.filter((c): c is OrderStepCommand => ORDER_STEP_TYPES.has(c.type)) };
    },
    // SealOrder {steps} replaces steps sent one by one before, so a draft is tried on an order without them.
    start(s, seat) {
      const side = SEATS.find((x) => x === seat);
      return side && isOpenOrder(s, side) ? evolve(s, { type: 'OrderCleared', seat: side }) : s;
    },
  },
};
