import { renderText, type EventEnvelope, type GameSummary, type Scene } from '../../domain/kernel/index.js';
import type { Listing } from './config.js';

/** Response shapes the client reads (see functions/http/routes/games.ts). */
export interface CommandReply {
  readonly gameId: string;
  readonly version: number;
  readonly duplicate: boolean;
  readonly events: readonly EventEnvelope[];
}
export interface GameViewBody {
  readonly summary: GameSummary;
  readonly seat: string | null;
  readonly view: unknown;
  readonly legalCommands: readonly unknown[];
  readonly pending: GameSummary['pending'];
  /** Sealed orders: the draft this view includes, and which legal commands add a step to it or seal it. */
  readonly drafting?: { readonly steps: readonly unknown[]; readonly stepChoices: readonly number[]; readonly sealChoices: readonly number[] };
  /** The view as a picture, when the engine draws one (domain/kernel/scene.ts). */
  readonly scene?: Scene;
}

const compact = (x: unknown, max = 160): string => {
  const s = JSON.stringify(x) ?? '';
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
};

export function formatEvent(e: EventEnvelope): string {
  const who = e.actor ? ` [${e.actor}]` : '';
  const hidden = e.visibility.to === 'none' ? ' (hidden until the end)' : e.visibility.to === 'seats' ? ` (only ${e.visibility.seats.join(', ')})` : '';
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

/** Numbered legal commands, each with a second line naming its ids when the view knows them. */
export function formatLegal(commands: readonly unknown[], view: unknown): string[] {
  const names = glossary(view);
  return commands.flatMap((c, i) => {
    const why = explainCommand(c, names);
    return [`${String(i + 1).padStart(4)}. ${compact(c, 200)}`, ...(why ? [`        ${why}`] : [])];
  });
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
  const lines: string[] = [];
  lines.push(`${s.title} · game ${s.gameId} · ${s.status} · version ${s.version}`);
  lines.push('Seats:');
  for (const seat of s.seats) {
    const who = seat.player ? `${seat.player}${seat.joined ? '' : ' (invited)'}` : '(open)';
    lines.push(`  ${seat.id.padEnd(8)} ${seat.name.padEnd(20)} ${who}${seat.player === me && seat.joined ? '   ← you' : ''}`);
  }
  if (s.outcome) {
    lines.push(`Result: ${s.outcome.winners.length ? `won by ${s.outcome.winners.join(', ')}` : 'no winner'} (${s.outcome.reason})`);
  } else if (s.status === 'open') {
    lines.push('Waiting for every seat to join.');
  }
  for (const p of v.pending) {
    const mine = p.player === me && (v.seat === null || v.seat === p.seat);
    lines.push(
      `Waiting for ${p.seat}${p.player ? ` (${p.player})` : ''}: ${p.prompt}${p.kind !== 'move' ? ` [${p.kind}]` : ''}${p.deadline ? ` (until ${p.deadline})` : ''}${mine ? '   ← YOUR MOVE' : ''}`,
    );
  }
  lines.push('');
  lines.push(`Board${s.status === 'ended' ? ' (the game is over: everything is open)' : v.seat ? ` as ${v.seat}` : ' (spectator)'}:`);
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
export function formatInbox(body: unknown, me: string): string {
  const list = Array.isArray(body) ? body : (body as { games?: unknown } | null)?.games;
  if (!Array.isArray(list)) return JSON.stringify(body, null, 2);
  if (list.length === 0) return 'No games yet. Create one with:  npm run cli -- create <engine>   (or see  npm run cli -- lobby)';
  const lines = list.map((raw) => {
    const g = raw as Record<string, unknown>;
    const pending = Array.isArray(g['pending']) ? (g['pending'] as { player?: string }[]) : [];
    const yourMove = g['yourMove'] === true || pending.some((p) => p.player === me);
    const outcome = g['outcome'] as { result?: string } | undefined;
    const note = yourMove
      ? 'YOUR MOVE'
      : g['invited'] === true
        ? `invited: npm run cli -- join ${String(g['gameId'])}`
        : outcome?.result
          ? `you ${outcome.result}`
          : '';
    return `${yourMove ? '*' : ' '} ${String(g['gameId'] ?? '?').padEnd(24)} ${String(g['title'] ?? g['engine'] ?? '').padEnd(28)} ${String(g['status'] ?? '').padEnd(7)} v${String(g['version'] ?? '?').padEnd(5)} ${note}`;
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
      const g = raw as { gameId: string; title?: string; engine?: string; createdBy?: string; freeSeats?: { id: string; name: string }[] };
      const free = (g.freeSeats ?? []).map((s) => `${s.id} (${s.name})`).join(', ');
      return `${g.gameId.padEnd(24)} ${String(g.title ?? g.engine ?? '').padEnd(28)} by ${String(g.createdBy ?? '?').padEnd(12)} free: ${free}`;
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
