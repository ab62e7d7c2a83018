import type { EngineDescription, EventEnvelope, GameSummary, StandingOrder } from '../../domain/kernel/index.js';
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
  /** The caller's own standing orders, where the engine offers them. */
  readonly standingOrders?: readonly StandingOrder[];
}

const compact = (x: unknown, max = 160): string => {
  const s = JSON.stringify(x) ?? '';
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
};

export function formatEvent(e: EventEnvelope): string {
  const who = e.actor ? ` [${e.actor}]` : '';
  const v = e.visibility;
  const hidden =
    v.to === 'none' ? ' (hidden until the end)' : v.to === 'seats' ? ` (only ${v.seats.join(', ')})` : v.to === 'side' ? ` (only side ${v.side})` : '';
  return `#${String(e.seq).padStart(4)} ${e.type}${who}${hidden} ${compact(e.data)}`;
}

function indent(text: string, by = '  '): string {
  return text
    .split('\n')
    .map((l) => by + l)
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

export function formatGame(v: GameViewBody, me: string): string {
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
  // The prompts were printed just above; a view that repeats them needs not say them twice.
  const view = isRecord(v.view) && Array.isArray(v.view['pending']) ? Object.fromEntries(Object.entries(v.view).filter(([k]) => k !== 'pending')) : v.view;
  lines.push(`View${s.status === 'ended' ? ' (the game is over: everything is open, deck orders included)' : v.seat ? ` as ${v.seat}` : ' (spectator)'}:`);
  lines.push(indent(readableJson(view, 108)));
  if (v.legalCommands.length) {
    lines.push('Your legal commands:');
    lines.push(...formatLegal(v.legalCommands, v.view));
    lines.push(`Send one with:  npm run cli -- play ${s.gameId} <n>   (or your own JSON:  npm run cli -- do ${s.gameId} '<command>')`);
  }
  return lines.join('\n');
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
