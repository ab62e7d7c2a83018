import { scriptedRng, type Emitted } from '../../domain/kernel/index.js';
import { optionsSchema, spearpoint, type Command, type Event, type Line, type State, type UnitInPlay } from '../../domain/spearpoint/index.js';
import { newUnit } from '../../domain/spearpoint/evolve.js';
import type { RuleViolation } from '../../domain/kernel/errors.js';

type Side = 'us' | 'de';

export interface Placement {
  card: string;
  line?: Line;
  /** Crew it with the side's crew card (default), or leave it idle. */
  crew?: boolean;
  patch?: Partial<UnitInPlay>;
}

/**
 * Given: a battle area. Units get ids `${side}-t1`, `${side}-t2`… (their crews `…c`), the game is
 * at turn 1 in the given phase, both starting hands done, decks as a Standard game deals them,
 * under the engine's current rules version unless another is named.
 */
export function given(
  place: { us?: Placement[]; de?: Placement[] },
  phase: State['phase'] = 'declaration',
  options: object = {},
  rulesVersion: number = spearpoint.version,
): State {
  let s = spearpoint.initialState(optionsSchema().parse(options) as never, rulesVersion);
  const cards = { ...s.cards };
  const inPlay: Record<string, UnitInPlay> = {};
  for (const side of ['us', 'de'] as Side[]) {
    (place[side] ?? []).forEach((p, i) => {
      const id = `${side}-t${i + 1}`;
      cards[id] = { card: p.card, owner: side };
      s = { ...s, cards };
      const card = s.catalog.units.find((u) => u.id === p.card)!;
      let crew: string | null = null;
      if (card.crew !== 'none' && p.crew !== false) {
        crew = `${id}c`;
        cards[crew] = { card: s.catalog.units.find((u) => u.side === side && u.crewKind === card.crew)!.id, owner: side };
      }
      const line: Line = p.line ?? (card.line === 'none' ? 'air' : card.line === 'either' ? 'front' : card.line);
      inPlay[id] = { ...newUnit({ ...s, cards }, id, side, line, crew), ...p.patch };
    });
  }
  const seats = { us: { ...s.seats.us, handReady: true }, de: { ...s.seats.de, handReady: true } };
  return { ...s, cards, inPlay, seats, started: true, phase, turn: 1 };
}

/** Adds cards to a side's hand (units, with ids `${side}-h1`…) and command cards by id. */
export function withHand(s: State, side: Side, units: string[], commands: string[] = []): State {
  const cards = { ...s.cards };
  const ids = units.map((card, i) => {
    const id = `${side}-h${i + 1}`;
    cards[id] = { card, owner: side };
    return id;
  });
  return {
    ...s,
    cards,
    commandDeck: { ...s.commandDeck, draw: s.commandDeck.draw.filter((c) => !commands.includes(c)) },
    seats: { ...s.seats, [side]: { ...s.seats[side], hand: [...s.seats[side].hand, ...ids], commands: [...s.seats[side].commands, ...commands] } },
  };
}

export interface Then {
  s: State;
  events: Event[];
  emitted: Emitted<Event>[];
  error?: RuleViolation;
}

/** When: a seat sends a command with these dice (d10 faces, in order). */
export function when(s: State, seat: Side, command: Command, dice: number[] = [], shuffle?: <T>(xs: readonly T[]) => T[]): Then {
  const r = spearpoint.decide(s, command, seat, { rng: scriptedRng(dice, shuffle), now: '2026-01-01T00:00:00.000Z' });
  if (!r.ok) return { s, events: [], emitted: [], error: r.error };
  let next = s;
  for (const e of r.value) next = spearpoint.evolve(next, e.event);
  return { s: next, events: r.value.map((e) => e.event), emitted: [...r.value] };
}

/** When: both seats seal their orders (given as command lists); dice serve the reveal. */
export function bothSeal(s: State, us: Command[], de: Command[], dice: number[] = []): Then {
  let cur = s;
  const all: Emitted<Event>[] = [];
  for (const [seat, cmds] of [
    ['us', us],
    ['de', de],
  ] as const) {
    for (const c of cmds) {
      const r = when(cur, seat, c);
      if (r.error) return { s: cur, events: all.map((e) => e.event), emitted: all, error: r.error };
      cur = r.s;
      all.push(...r.emitted);
    }
  }
  const a = when(cur, 'us', { type: 'SealOrder' });
  if (a.error) return a;
  const b = when(a.s, 'de', { type: 'SealOrder' }, dice);
  if (b.error) return b;
  const emitted = [...all, ...a.emitted, ...b.emitted];
  return { s: b.s, events: emitted.map((e) => e.event), emitted };
}

export const ofType = <T extends Event['type']>(events: Event[], type: T) => events.filter((e): e is Extract<Event, { type: T }> => e.type === type);

/** The first command card id with this title. */
export const cardTitled = (s: State, title: string, nth = 0): string => s.catalog.commandCards.filter((c) => c.title === title)[nth]!.id;
