import {
  canonicalJson,
  renderText,
  type EngineDescription,
  type EventEnvelope,
  type GameSummary,
  type Scene,
  type StandingOrder,
} from '../../domain/kernel/index.js';
import type { Listing } from './config.js';
import { listing, resultInWords, sideAndPlayer, sideName, type SeatLike } from '../app/names.js';
import { clockBrief, clockInWords, durationInWords, type SeatClock } from '../app/clocks.js';
import { wasCancelled } from '../projections/project.js';

/** Response shapes the client reads (see functions/http/routes/games.ts). */
export interface CommandReply {
  readonly gameId: string;
  readonly version: number;
  readonly duplicate: boolean;
  readonly events: readonly EventEnvelope[];
  /** What the sender must do now (functions/app/game-service.ts NextStep); older servers send none. */
  readonly next?: { readonly status: string; readonly yours: readonly unknown[]; readonly waitingFor: readonly unknown[]; readonly text: string };
  readonly seats?: readonly SeatLike[];
}
export interface GameViewBody {
  readonly summary: GameSummary;
  readonly seat: string | null;
  readonly view: unknown;
  readonly legalCommands: readonly unknown[];
  readonly pending: GameSummary['pending'];
  /** Sealed orders: the draft this view includes, and which legal commands add a step to it or seal it. */
  readonly drafting?: { readonly steps: readonly unknown[]; readonly stepChoices: readonly number[]; readonly sealChoices: readonly number[] };
  /** The caller's own standing orders, where the engine offers them. */
  readonly standingOrders?: readonly StandingOrder[];
  /** The view as a picture, when the engine draws one (domain/kernel/scene.ts). */
  readonly scene?: Scene;
  /** Each seat's remaining time, at the server's time (a running game with a time control). */
  readonly clocks?: readonly SeatClock[];
}

const compact = (x: unknown, max = 160): string => {
  const s = JSON.stringify(x) ?? '';
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
};

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

function indent(text: string, by = '  '): string {
  return text
    .split('\n')
    .map((l) => (l ? by + l : l))
    .join('\n');
}

/** What a view says about one id: a title, and for a unit the weapon lines of its card. */
interface Named {
  readonly title: string;
  readonly weapons?: readonly string[];
}

const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const strs = (x: unknown): string[] | undefined => (Array.isArray(x) && x.every((v) => typeof v === 'string') ? (x as string[]) : undefined);
/** "75mm M3 Gun: inf 11, veh 10; DI 7" → "75mm M3 Gun". */
const weaponName = (line: string) => line.split(':')[0]!.trim();

/**
 * Names for the ids a view mentions, found by shape so it works for any engine: objects with
 * an `id` (or a `card`) and a `title` (units, cards in hand, cards on units), and attacks
 * (`id`, `attackers`, `target`), named after their units. Legal commands name ids only; this
 * lets the client say "us-014 = M4A1 Sherman" next to them.
 */
export function glossary(view: unknown): Map<string, Named> {
  const names = new Map<string, Named>();
  const attacks: Record<string, unknown>[] = [];
  const walk = (x: unknown): void => {
    if (Array.isArray(x)) return x.forEach(walk);
    if (!isRecord(x)) return;
    const key = typeof x['id'] === 'string' ? x['id'] : typeof x['card'] === 'string' ? x['card'] : undefined;
    if (key !== undefined && typeof x['title'] === 'string' && !names.has(key)) {
      const weapons = strs(x['weapons']);
      names.set(key, { title: x['title'], ...(weapons ? { weapons } : {}) });
    }
    if (typeof x['id'] === 'string' && strs(x['attackers']) && typeof x['target'] === 'string') attacks.push(x);
    Object.values(x).forEach(walk);
  };
  walk(view);
  const unit = (id: string) => `${names.get(id)?.title ?? '?'} (${id})`;
  for (const a of attacks) {
    const by = strs(a['attackers'])!;
    const weapons = Array.isArray(a['weapons']) ? (a['weapons'] as unknown[]).filter((w): w is number => typeof w === 'number') : [];
    const lines = names.get(by[0] ?? '')?.weapons ?? [];
    const using = weapons.length && by.length === 1 ? ` with ${weapons.map((w) => (lines[w] ? weaponName(lines[w]) : `weapon ${w}`)).join(' + ')}` : '';
    const title = `${a['closeAssault'] === true ? 'close assault: ' : ''}${by.map(unit).join(' + ')} → ${unit(a['target'] as string)}${using}${a['status'] === 'pending' || a['status'] === undefined ? '' : ` [${String(a['status'])}]`}`;
    names.set(a['id'] as string, { title });
  }
  return names;
}

/** One line that names what a command's ids stand for, or '' when the view names none of them. */
export function explainCommand(command: unknown, names: ReadonlyMap<string, Named>): string {
  if (!isRecord(command)) return '';
  const parts: string[] = [];
  for (const [k, v] of Object.entries(command)) {
    if (k === 'type') continue;
    if (typeof v === 'string' && names.has(v)) parts.push(`${v} = ${names.get(v)!.title}`);
    if (k === 'weapons' && Array.isArray(v) && typeof command['attacker'] === 'string') {
      const lines = names.get(command['attacker'])?.weapons;
      if (lines) parts.push(`weapons: ${v.map((w) => (typeof w === 'number' && lines[w] ? weaponName(lines[w]) : String(w))).join(' + ')}`);
    }
  }
  return parts.join(' · ');
}

/**
 * What each kind of command does, in a line (Spearpoint's, and the test fixtures'). A kind not
 * listed is named from its type ("DeclareAttack" → "Declare attack").
 */
const KIND_HELP: Readonly<Record<string, string>> = {
  PickStartingUnit: 'Pick a starting unit: one unit of this card from your deck into your starting hand',
  AutoPickHand: 'Let the server pick the rest of your starting hand (units that need no crew first)',
  CommitUnit: 'Commit a unit from your hand to the battle area (a step of your sealed order)',
  ReplaceCrew: 'Put a crew from your hand on a crewless unit in play (order step)',
  MoveCrew: 'Move a crew from one of your ground units to another (order step)',
  MoveLine: 'Move mobile artillery to the other line (order step)',
  PlayCommandCard: 'Play a Command card; its text is under your commands in show (order step)',
  DeclareAttack: 'Declare an attack: your unit fires at a target with one or two of its weapons (order step)',
  JoinCloseAssault: 'Join a close assault on an armored target; three or more infantry are needed (order step)',
  ClearOrder: 'Start your order over: drop every step of it',
  SealOrder: 'Seal your order (your draft goes with it); nobody sees it until every side has sealed',
  ResolveAttack: 'Resolve one of your declared attacks now',
  ChooseFriendlyFireVictim: "Friendly fire: choose which of the attacker's own units is hit",
  SetStandingOrders: 'Games created before rules version 4: leave a standing order for friendly fire (newer games use  npm run cli -- standing)',
  DrawCard: 'Draw one card',
  DrawCards: 'Take several draws in one move, in this order',
  DiscardUnit: 'Over the hand limit: put this unit under your Reserves deck',
  DiscardCommand: 'Over the hand limit: discard this Command card',
  Roll: 'Roll the die',
  PlayCard: 'Play your card',
};
const kindHelp = (type: string) => KIND_HELP[type] ?? type.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/ ([A-Z])/g, (_m, c: string) => ` ${c.toLowerCase()}`);

/** The fields that say whose command it is (the unit, card or attack it is about), most telling first. */
const SUBJECT_FIELDS = ['unit', 'attacker', 'attackId', 'card', 'from'];

/**
 * How each view object looks apart from its id: two units whose view is the same in everything
 * but the id (two fresh Rifle Squads in hand) are interchangeable, and so are the commands that
 * differ only by which of them they name.
 */
function lookalikes(view: unknown): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (x: unknown): void => {
    if (Array.isArray(x)) return x.forEach(walk);
    if (!isRecord(x)) return;
    if (typeof x['id'] === 'string' && typeof x['title'] === 'string' && !out.has(x['id'])) {
      const { id: _id, ...rest } = x;
      out.set(x['id'], canonicalJson(rest));
    }
    Object.values(x).forEach(walk);
  };
  walk(view);
  return out;
}

interface Entry {
  readonly n: number;
  readonly command: Record<string, unknown>;
  /** For each field naming an id: the ids of the same-looking commands hidden behind this one. */
  readonly alts: Map<string, Set<string>>;
}

/** One line of choices: what they share ("→ Tiger (de-001)"), then each choice with its number. */
export interface LegalRow {
  readonly lead: string;
  readonly options: readonly { readonly n: number; readonly text: string }[];
}
/** The choices about one unit, card or attack (header), or of a kind with no subject (header ''). */
export interface LegalGroup {
  readonly header: string;
  /** The subject is the whole choice: nothing more to pick ("3. Rifle Squad (us-002)"). */
  readonly subjectOnly: boolean;
  readonly rows: readonly LegalRow[];
}
/** Every legal command of one type, with a line saying what it does. */
export interface LegalKind {
  readonly type: string;
  readonly help: string;
  readonly groups: readonly LegalGroup[];
}

/**
 * The legal commands grouped by kind (a line saying what it does) and by the unit, card or
 * attack they are about, with their numbers (1-based places in the list). Commands that differ
 * only by naming identical-looking units are listed once ("us-001 or us-002: identical"). The
 * terminal prints it (formatLegal); the web client draws it as buttons.
 */
export function legalGroups(commands: readonly unknown[], view: unknown): LegalKind[] {
  const names = glossary(view);
  const looks = lookalikes(view);
  const equivalence = (c: unknown) => canonicalJson(c).replace(/"([^"\\]+)"/g, (m, id: string) => (looks.has(id) ? JSON.stringify(`≈${looks.get(id)!}`) : m));
  const kept = new Map<string, Entry>();
  const entries: Entry[] = [];
  commands.forEach((c, i) => {
    const command = isRecord(c) ? c : { type: String(c) };
    const key = equivalence(command);
    const same = kept.get(key);
    if (same) {
      for (const [k, v] of Object.entries(command)) {
        if (typeof v === 'string' && v !== same.command[k] && looks.has(v)) same.alts.set(k, (same.alts.get(k) ?? new Set()).add(v));
      }
      return;
    }
    const entry: Entry = { n: i + 1, command, alts: new Map() };
    kept.set(key, entry);
    entries.push(entry);
  });

  const name = (e: Entry, k: string): string => {
    const id = e.command[k] as string;
    const alts = [...(e.alts.get(k) ?? [])];
    const ids = alts.length ? `${id} or ${alts.join(', ')}: identical` : id;
    const title = names.get(id)?.title;
    return title ? `${title} (${ids})` : ids;
  };
  const weaponsOf = (e: Entry, v: unknown[]) => {
    const lines = typeof e.command['attacker'] === 'string' ? (names.get(e.command['attacker'])?.weapons ?? []) : [];
    return v.map((w) => (typeof w === 'number' && lines[w] ? weaponName(lines[w]) : `weapon ${String(w)}`)).join(' + ');
  };
  const phrase = (e: Entry, k: string): string => {
    const v = e.command[k];
    const id = typeof v === 'string' && (names.has(v) || e.alts.has(k)) ? name(e, k) : undefined;
    switch (k) {
      case 'target':
        return `→ ${id ?? String(v)}`;
      case 'weapons':
        return Array.isArray(v) ? `with ${weaponsOf(e, v)}` : `weapons ${JSON.stringify(v)}`;
      case 'crew':
        return `crewed by ${id ?? String(v)}`;
      case 'line':
        return `on the ${String(v)} line`;
      case 'initiativeBoost':
        return `discarding ${id ?? String(v)} for +1 Initiative`;
      case 'boostWith':
        return `discarding ${id ?? String(v)} for +1${typeof e.command['boostRoll'] === 'string' ? ` to the ${e.command['boostRoll']} roll` : ''}`;
      case 'boostRoll':
        return '';
      case 'from':
        return Array.isArray(v) ? v.join(', then ') : `from ${id ?? String(v)}`;
      case 'to':
        return `to ${id ?? String(v)}`;
      case 'keep':
        return v === true ? 'keeping the unit if captured' : '';
      case 'friendlyFire':
        return v === 'highest-cost' ? "always hit the attacker's most expensive unit" : `friendly fire: ${String(v)}`;
      default:
        return `${k}: ${id ?? compact(v, 60)}`;
    }
  };

  const byKind = new Map<string, Map<string, { header: string; options: { n: number; parts: string[] }[] }>>();
  for (const e of entries) {
    const type = String(e.command['type'] ?? '?');
    const subjectKey = SUBJECT_FIELDS.find((k) => typeof e.command[k] === 'string');
    const header = subjectKey ? (subjectKey === 'from' ? '' : name(e, subjectKey)) : '';
    const parts = Object.keys(e.command)
      .filter((k) => k !== 'type' && (k !== subjectKey || subjectKey === 'from'))
      .map((k) => phrase(e, k))
      .filter(Boolean);
    const kind = byKind.get(type) ?? new Map();
    byKind.set(type, kind);
    const group = kind.get(header) ?? { header, options: [] };
    kind.set(header, group);
    group.options.push({ n: e.n, parts });
  }

  return [...byKind].map(([type, groups]) => ({
    type,
    help: kindHelp(type),
    groups: [...groups.values()].map((g): LegalGroup => {
      if (g.header && g.options.every((o) => o.parts.length === 0))
        return { header: g.header, subjectOnly: true, rows: [{ lead: '', options: g.options.map((o) => ({ n: o.n, text: g.header })) }] };
      // Options that share their first words (an attack's target) share a line.
      const rows = new Map<string, { n: number; text: string }[]>();
      for (const o of g.options) {
        const [first = '', ...rest] = o.parts;
        const lead = rest.length ? first : '';
        const text = (rest.length ? rest : [first]).join(', ') || (g.header ? 'as it is' : type);
        rows.set(lead, [...(rows.get(lead) ?? []), { n: o.n, text }]);
      }
      return { header: g.header, subjectOnly: false, rows: [...rows].map(([lead, options]) => ({ lead, options })) };
    }),
  }));
}

/**
 * The legal commands grouped by kind (a line saying what it does) and by the unit, card or
 * attack they are about, one line each, with the numbers `play <n>` takes. Commands that differ
 * only by naming identical-looking units are listed once ("us-001 or us-002: identical").
 */
export function formatLegal(commands: readonly unknown[], view: unknown): string[] {
  const num = (n: number) => `${n}.`;
  const lines: string[] = [];
  for (const kind of legalGroups(commands, view)) {
    lines.push(`${kind.help}:`);
    for (const g of kind.groups) {
      if (g.subjectOnly) {
        lines.push(`    ${g.rows[0]!.options.map((o) => num(o.n)).join(' ')} ${g.header}`);
        continue;
      }
      const pad = g.header ? '      ' : '    ';
      if (g.header) lines.push(`    ${g.header}`);
      for (const row of g.rows) lines.push(`${pad}${row.lead ? `${row.lead}: ` : ''}${row.options.map((o) => `${num(o.n)} ${o.text}`.trim()).join('   ')}`);
    }
  }
  return lines;
}

/**
 * JSON for people: anything that fits on one line (width columns with its indentation) is
 * printed on one line, and short fields of a long object share lines, so a unit or a card
 * takes two or three lines instead of twenty.
 */
export function readableJson(x: unknown, width = 110, pad = ''): string {
  const flat = JSON.stringify(x) ?? 'null';
  if (pad.length + flat.length <= width || x === null || typeof x !== 'object') return flat;
  const inner = pad + '  ';
  const items = Array.isArray(x)
    ? x.map((v) => readableJson(v, width, inner))
    : Object.entries(x)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => `${JSON.stringify(k)}: ${readableJson(v, width, inner)}`);
  const lines: string[] = [];
  for (const item of items) {
    const last = lines.length - 1;
    const fits = !item.includes('\n') && last >= 0 && !lines[last]!.includes('\n') && inner.length + lines[last]!.length + 2 + item.length <= width;
    if (fits) lines[last] += `, ${item}`;
    else lines.push(item);
  }
  const [open, close] = Array.isArray(x) ? ['[', ']'] : ['{', '}'];
  return `${open}\n${lines.map((l) => inner + l).join(',\n')}\n${pad}${close}`;
}

/** The board as text, or (an engine that draws no picture) its view as readable JSON. */
export function formatBoard(v: GameViewBody): string {
  if (v.scene) return renderText(v.scene).trimEnd();
  // The prompts are printed with the game; a view that repeats them needs not say them twice.
  const view = isRecord(v.view) && Array.isArray(v.view['pending']) ? Object.fromEntries(Object.entries(v.view).filter(([k]) => k !== 'pending')) : v.view;
  return readableJson(view, 108);
}

/** `show`: the game, the board as you see it, what changed since your last move, the last turn, and your legal commands. */
export function formatGame(v: GameViewBody, me: string, events: readonly EventEnvelope[] = []): string {
  const s = v.summary;
  const cancelled = wasCancelled(s);
  const lines: string[] = [];
  lines.push(`${s.title} · game ${s.gameId} · ${cancelled ? 'cancelled' : s.status} · version ${s.version}`);
  lines.push('Seats:');
  for (const seat of s.seats) {
    const who = seat.player ? `${seat.player}${seat.joined ? '' : ' (invited)'}` : '(open)';
    lines.push(`  ${seat.name.padEnd(20)} ${who}${seat.player === me && seat.joined ? '   ← you' : ''}`);
  }
  if (s.outcome) {
    lines.push(`Result: ${resultInWords(s.outcome, s.seats, cancelled)}`);
  } else if (s.status === 'open') {
    lines.push('Waiting for every seat to join.');
  }
  if (v.clocks?.length) {
    lines.push('Clocks:');
    for (const c of v.clocks) lines.push(`  ${sideAndPlayer(s.seats, c.seat).padEnd(28)} ${clockInWords(c)}`);
  }
  for (const p of v.pending) {
    const mine = p.player === me && (v.seat === null || v.seat === p.seat);
    lines.push(
      `Waiting for ${sideAndPlayer(s.seats, p.seat)}: ${p.prompt}${p.kind !== 'move' ? ` [${p.kind}]` : ''}${p.deadline ? ` (until ${p.deadline})` : ''}${mine ? '   ← YOUR MOVE' : ''}`,
    );
  }
  lines.push('');
  lines.push(`Board${s.status === 'ended' ? ' (the game is over: everything is open)' : v.seat ? ` as ${sideName(s.seats, v.seat)}` : ' (spectator)'}:`);
  lines.push(indent(formatBoard(v)));
  const names = glossary(v.view);
  const changed = sinceMyLastMove(events, me);
  if (changed) {
    lines.push('', changed.title);
    lines.push(...changed.events.map((e) => `  ${describeEvent(e, names)}`));
  }
  const turn = lastTurn(events);
  if (turn) lines.push('', turn);
  if (v.legalCommands.length) {
    lines.push('', 'Your legal commands:');
    lines.push(...formatLegal(v.legalCommands, v.view));
    lines.push(`Send one with:  npm run cli -- play ${s.gameId} <n>   (or your own JSON:  npm run cli -- do ${s.gameId} '<command>')`);
  }
  return lines.join('\n');
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

/** The inbox read model (GET /v1/me/games): one line per game, your moves first. */
/** The inbox read model (GET /v1/me/games): two lines per game, your moves first. */
export function formatInbox(body: unknown, me: string): string {
  const list = Array.isArray(body) ? body : (body as { games?: unknown } | null)?.games;
  if (!Array.isArray(list)) return JSON.stringify(body, null, 2);
  if (list.length === 0) return 'No games yet. Create one with:  npm run cli -- create <engine>   (or see  npm run cli -- lobby)';
  const lines = list.flatMap((raw) => {
    const g = raw as Record<string, unknown>;
    type Asked = { seat?: string; name?: string; player?: string | null; prompt?: string; deadline?: string; leftMs?: number };
    const asked = (Array.isArray(g['whoseMove']) ? g['whoseMove'] : Array.isArray(g['pending']) ? g['pending'] : []) as Asked[];
    const mine = asked.filter((p) => p.player === me);
    const yourMove = g['yourMove'] === true || mine.length > 0;
    const outcome = g['outcome'] as { result?: string } | undefined;
    const side = (x: { name?: string; player?: string | null; seat?: string }) => `${x.name ?? x.seat ?? '?'} (${x.player ?? 'open seat'})`;
    const others = asked.filter((p) => p.player !== me);
    const note = yourMove
      ? 'YOUR MOVE'
      : g['invited'] === true
        ? `invited: npm run cli -- join ${String(g['gameId'])}`
        : outcome?.result
          ? outcome.result === 'cancelled'
            ? 'cancelled'
            : outcome.result === 'draw'
              ? 'a draw'
              : `you ${outcome.result}`
          : others.length
            ? `waiting for ${listing([...new Set(others.map(side))])}`
            : g['status'] === 'open'
              ? 'waiting for players to join'
              : '';
    const head = `${yourMove ? '*' : ' '} ${String(g['gameId'] ?? '?').padEnd(24)} ${String(g['title'] ?? g['engine'] ?? '').padEnd(28)} ${String(g['status'] ?? '').padEnd(7)} v${String(g['version'] ?? '?').padEnd(5)} ${note}`;
    // The second line: whom you play, against whom, what is asked now (the turn) and until when.
    const seats = (Array.isArray(g['seats']) ? g['seats'] : []) as { name?: string }[];
    const opponents = (Array.isArray(g['opponents']) ? g['opponents'] : []) as { name?: string; player?: string | null; seat?: string }[];
    const now = (mine.length ? mine : others)[0];
    const timed = (mine.length ? mine : others).find((p) => typeof p.deadline === 'string');
    const deadline = timed?.deadline;
    const clocks = (Array.isArray(g['clocks']) ? g['clocks'] : []) as SeatClock[];
    const details = [
      seats.length ? `you: ${listing(seats.map((x) => x.name ?? '?'))}` : '',
      opponents.length ? `vs ${listing(opponents.map(side))}` : '',
      now?.prompt ? `${mine.length ? 'asked of you' : 'asked'}: ${now.prompt}` : '',
      deadline
        ? `until ${deadline}${typeof timed?.leftMs === 'number' ? ` (${timed.leftMs > 0 ? `${durationInWords(timed.leftMs)} left` : 'out of time'})` : ''}`
        : g['status'] === 'active'
          ? 'no deadline'
          : '',
      clocks.length ? `clocks: ${clocks.map((c) => `${c.name}${c.player ? ` (${c.player})` : ''} ${clockBrief(c)}`).join(', ')}` : '',
    ].filter(Boolean);
    return details.length ? [head, `    ${details.join(' · ')}`] : [head];
  });
  const count = (body as { yourMoveCount?: number } | null)?.yourMoveCount;
  return [...lines, ...(typeof count === 'number' ? [`${count} game${count === 1 ? '' : 's'} waiting for your move.`] : [])].join('\n');
}

/** GET /v1/lobby: open games with free seats. */
export function formatLobby(body: unknown): string {
  const list = (body as { games?: unknown } | null)?.games;
  if (!Array.isArray(list)) return JSON.stringify(body, null, 2);
  if (list.length === 0) return 'No open games. Create one with:  npm run cli -- create <engine>';
  return list
    .map((raw) => {
      const g = raw as { gameId: string; title?: string; engine?: string; createdBy?: string; freeSeats?: { id: string; name: string }[]; rated?: boolean };
      const free = (g.freeSeats ?? []).map((s) => `${s.name} (--seat ${s.id})`).join(', ');
      const title = `${g.title ?? g.engine ?? ''}${g.rated ? ' (rated)' : ''}`;
      return `${g.gameId.padEnd(24)} ${title.padEnd(28)} by ${String(g.createdBy ?? '?').padEnd(12)} free: ${free}`;
    })
    .join('\n');
}

/**
 * `play <n>` means the n-th command of the list the player last saw (show or legal). If the
 * game has moved on since (their own earlier play, or the other seat) and the n-th command is
 * no longer the same, the reason to refuse: in Spearpoint every order step shortens the list,
 * and a number typed from an old listing would otherwise send something else.
 */
export function staleChoice(seen: Listing | undefined, now: Listing, n: number): string | undefined {
  if (!seen || seen.url !== now.url || seen.gameId !== now.gameId || seen.seat !== now.seat) return undefined;
  if (seen.version === now.version && (seen.draft ?? 0) === (now.draft ?? 0)) return undefined;
  const before = seen.commands[n - 1];
  const after = now.commands[n - 1];
  if (JSON.stringify(before) === JSON.stringify(after)) return undefined;
  return (
    (seen.version !== now.version
      ? `the game has moved on since you listed its commands (version ${seen.version} → ${now.version}): `
      : `your draft has changed since you listed the commands (${seen.draft ?? 0} → ${now.draft ?? 0} steps): `) +
    `${n} was ${JSON.stringify(before) ?? 'not listed'} and is now ${JSON.stringify(after) ?? 'not listed'}.\n` +
    `List them again with  npm run cli -- legal ${now.gameId}  (or send a command itself with  npm run cli -- do ${now.gameId} '<JSON>')`
  );
}

/** One engine of GET /v1/engines, as a player choosing a game reads it. */
export function formatEngine(e: EngineDescription): string {
  const lines = [`${e.title}  (create ${e.id})`, `  seats: ${e.seats.join(' or ')}; sides: ${e.sides.map((x) => `${x.name} (${x.id})`).join(', ')}`];
  if (e.scenarios) {
    lines.push(`  scenarios (--options '{"${e.scenarios.option}":"<id>"}'):`);
    for (const c of e.scenarios.choices) lines.push(`    ${c.id}: ${c.title}. ${c.description}`);
  }
  if (e.standingOrders.length) {
    lines.push('  standing orders:');
    for (const o of e.standingOrders) lines.push(`    {"topic":"${o.topic}","rule":"${o.rule}"}: ${o.description}`);
  }
  if (e.drafts) lines.push('  sealed orders are drafted privately on your computer and sent whole when sealed');
  return lines.join('\n');
}

/** A seat's standing orders and the ones its game offers. */
export function formatStandingOrders(mine: readonly StandingOrder[], offered: EngineDescription['standingOrders'], gameId: string): string {
  if (offered.length === 0) return 'This game offers no standing orders.';
  const lines = [mine.length ? 'Your standing orders, tried in this order:' : 'You have no standing orders: every question waits for you.'];
  for (const [i, o] of mine.entries()) {
    const rule = offered.find((r) => r.topic === o.topic && r.rule === o.rule);
    lines.push(`  ${i + 1}. ${o.topic}/${o.rule}${o.params !== undefined ? ` ${JSON.stringify(o.params)}` : ''}: ${rule?.description ?? ''}`);
  }
  lines.push('', 'Offered:');
  for (const r of offered) lines.push(`  {"topic":"${r.topic}","rule":"${r.rule}"}: ${r.description}`);
  lines.push('', `Set them (the list replaces the old one):  npm run cli -- standing ${gameId} --set '[{"topic":"...","rule":"..."}]'`);
  lines.push(`Clear them:  npm run cli -- standing ${gameId} --clear`);
  return lines.join('\n');
}

/** GET /v1/me/settings in words. */
export function formatSettings(
  s: {
    email: string | null;
    emailVerification?: { status: string; expiresAt?: string } | null;
    emailOff?: readonly string[];
    remindersOff?: readonly string[];
    digest?: { hour: number; timeZone: string } | null;
    webhooks: readonly { id: string; url: string; format: string; secretHint?: string; secret?: string; disabled?: { reason: string } }[];
  },
  me: string,
): string {
  const lines = [`Notifications for ${me}:`];
  const status = s.emailVerification?.status;
  const state =
    status === 'verified'
      ? 'confirmed'
      : status === 'pending'
        ? `waiting for confirmation: run  npm run cli -- verify-email <code>  with the code mailed to it (until ${s.emailVerification?.expiresAt})`
        : status
          ? `not confirmed (${status}): ask for a new code with POST /v1/me/email/resend`
          : '';
  lines.push(`  email:    ${s.email ? `${s.email}${state ? ` (${state})` : ''}` : 'none (set one with  npm run cli -- settings email <address>)'}`);
  if (s.email) {
    const off = s.emailOff ?? [];
    lines.push(
      `  mailed:   ${off.length ? `every notice but ${off.join(', ')} (turn one back on with  settings mail <kind> on)` : 'every notice (your move, started, ended, invited)'}`,
    );
  }
  const remindersOff = s.remindersOff ?? [];
  lines.push(
    `  reminders: ${remindersOff.length ? `all but ${remindersOff.join(', ')} (settings reminder <level> on)` : 'at 50% and 80% of your move time and when a day is left (settings reminder <level> off)'}`,
  );
  lines.push(
    `  digest:   ${s.digest ? `one mail a day at ${String(s.digest.hour).padStart(2, '0')}:00 ${s.digest.timeZone} listing your games on move, instead of each "your move" mail (settings digest off)` : 'off: a mail for each move (settings digest <hour> [--tz Zone])'}`,
  );
  if (!s.webhooks.length) lines.push('  webhooks: none (add one with  npm run cli -- settings add-webhook <url> --format json|discord|slack)');
  else {
    lines.push('  webhooks:');
    for (const w of s.webhooks)
      lines.push(
        `    ${w.id}  ${w.format.padEnd(7)} ${w.url}${w.secretHint ? `  (secret ${w.secretHint})` : ''}${w.disabled ? `  SWITCHED OFF: ${w.disabled.reason}` : ''}`,
      );
    lines.push('  remove one with  npm run cli -- settings remove-webhook <id>');
  }
  return lines.join('\n');
}
