// Events in words: a line of the log, whose they are, what changed since your last move, and a
// summary of the last whole turn.
import type { EventEnvelope } from '../../../domain/kernel/index.js';
import { sideAndPlayer, sideName, type SeatLike } from '../../app/names.js';
import type { Named } from './names.js';
import { compact, isRecord } from './text.js';

/** Fields that name what an event is about, most telling first: its seat, then its unit or card. */
const OWNER_FIELDS = ['seat', 'unit', 'target', 'card', 'crew', 'attacker', 'attackId'];

/**
 * Whose unit, card or order an event is about: its `seat`, else the seat an id in it belongs to
 * ("de-004" is Germany's unit, attack "t1-de-2" Germany's). Not who sent the command: when the
 * United States destroys a German unit, the event is about Germany's unit. Platform events
 * (Game.*) without a seat are about their sender's seat.
 */
export function ownerOf(e: Pick<EventEnvelope, 'type' | 'data' | 'actor'>, seats: readonly SeatLike[]): string | undefined {
  const data = isRecord(e.data) ? e.data : {};
  const ids = seats.map((s) => s.id);
  const seatIn = (v: unknown): string | undefined => {
    if (typeof v !== 'string') return undefined;
    if (ids.includes(v)) return v;
    return ids.find((id) => v.startsWith(`${id}-`)) ?? ids.find((id) => v.split('-').includes(id));
  };
  const keys = [...OWNER_FIELDS.filter((k) => k in data), ...Object.keys(data).filter((k) => !OWNER_FIELDS.includes(k))];
  // Only ids in the event's own fields: a seat named deep inside (an order, a list) is no owner.
  for (const k of keys) {
    const owner = k === 'seat' ? (ids.includes(data[k] as string) ? (data[k] as string) : undefined) : seatIn(data[k]);
    if (owner) return owner;
  }
  return e.type.includes('.') && e.actor ? e.actor : undefined;
}

/** One line of the event log; with the game's seats, the owner is named by side and player. */
export function formatEvent(e: EventEnvelope, seats: readonly SeatLike[] = []): string {
  const owner = ownerOf(e, seats.length ? seats : e.actor ? [{ id: e.actor, name: e.actor, player: null }] : []);
  const name = (id: string) => (seats.some((s) => s.id === id) ? sideAndPlayer(seats, id) : id);
  const who = owner ? ` [${name(owner)}]` : '';
  const hidden =
    e.visibility.to === 'none'
      ? ' (hidden until the end)'
      : e.visibility.to === 'seats'
        ? ` (only ${e.visibility.seats.map((id) => (seats.length ? sideName(seats, id) : id)).join(', ')})`
        : '';
  return `#${String(e.seq).padStart(4)} ${e.type}${who}${hidden} ${compact(e.data)}`;
}

/** At most this many events are listed under "since your last move"; the rest are counted. */
const CHANGES_SHOWN = 40;

/**
 * The events after the last one your own command produced (the feed holds only those you may
 * see). Undefined when nothing happened since; without a move of yours in `events`, all of them.
 */
export function sinceMyLastMove(events: readonly EventEnvelope[], me: string): { title: string; events: EventEnvelope[] } | undefined {
  const mine = events.map((e) => e.player === me).lastIndexOf(true);
  const after = events.slice(mine + 1);
  if (!after.length) return undefined;
  const shown = after.slice(-CHANGES_SHOWN);
  const skipped = after.length - shown.length;
  const since = mine >= 0 ? `since your last move (#${events[mine]!.seq})` : `in the last ${after.length} events`;
  return { title: `What changed ${since}:${skipped ? ` (the first ${skipped} not listed: npm run cli -- events)` : ''}`, events: shown };
}

/** "AttackRolled" → "Attack rolled". */
const words = (type: string) =>
  type
    .replace(/^Game\./, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/ ([A-Z])(?=[a-z])/g, (_m, c: string) => ` ${c.toLowerCase()}`);

/** One event as a sentence-like line: its type in words, who caused it, its fields, with the ids the view names. */
export function describeEvent(e: EventEnvelope, names: ReadonlyMap<string, Named>): string {
  const value = (x: unknown): string => {
    if (typeof x === 'string') return names.has(x) ? `${names.get(x)!.title} (${x})` : x;
    if (Array.isArray(x)) return x.every((i) => typeof i !== 'object' || i === null) ? x.map(value).join(' ') : compact(x, 80);
    return compact(x, 80);
  };
  const data = isRecord(e.data)
    ? Object.entries(e.data)
        .filter(([k]) => k !== 'seat')
        .map(([k, v]) => `${k} ${value(v)}`)
        .join(', ')
    : '';
  return `#${e.seq} ${words(e.type)}${e.actor ? ` [${e.actor}]` : isRecord(e.data) && typeof e.data['seat'] === 'string' ? ` [${e.data['seat']}]` : ''}${data ? `: ${data}` : ''}`;
}

/**
 * Events that only move the game along (phases beginning and ending, orders being built and
 * sealed, draws being counted): left out of the turn summary, which is about what happened.
 */
const BOOKKEEPING = /(Began|Ended|Counted|Finalized|StepAdded|Sealed|Cleared|Finished|Set|Held)$/;

/**
 * The last whole turn in `events`, counted by kind ("Attack rolled ×6 (hit 2, miss 4)"). A turn
 * starts at an engine event named TurnBegan (Spearpoint's, with its number); a game without
 * one has no turn summary.
 */
export function lastTurn(events: readonly EventEnvelope[]): string | undefined {
  const starts = events.flatMap((e, i) => (e.type === 'TurnBegan' ? [i] : []));
  if (starts.length < 2) return undefined;
  const from = starts[starts.length - 2]!;
  const turn = events.slice(from, starts[starts.length - 1]);
  const number = isRecord(turn[0]!.data) && typeof turn[0]!.data['turn'] === 'number' ? ` ${turn[0]!.data['turn']}` : '';
  const counts = new Map<string, { n: number; results: Map<string, number> }>();
  for (const e of turn.slice(1)) {
    if (e.type.includes('.') || BOOKKEEPING.test(e.type)) continue;
    const c = counts.get(e.type) ?? { n: 0, results: new Map<string, number>() };
    c.n++;
    const result = isRecord(e.data) ? e.data['result'] : undefined;
    if (typeof result === 'string') c.results.set(result, (c.results.get(result) ?? 0) + 1);
    counts.set(e.type, c);
  }
  const parts = [...counts].map(
    ([type, c]) => `${words(type)}${c.n > 1 ? ` ×${c.n}` : ''}${c.results.size ? ` (${[...c.results].map(([r, k]) => `${r} ${k}`).join(', ')})` : ''}`,
  );
  return `Last turn${number}: ${parts.join('; ') || 'nothing you could see'}.`;
}
