// One game as the server sends it: the response shapes the client reads, the board as text, and
// \`show\` (seats, clocks, who must act, the board, what changed, the last turn, your choices).
import { renderText, wasCancelled, type EventEnvelope, type GameSummary, type Scene, type StandingOrder } from '../../../domain/kernel/index.js';
import { resultInWords, sideAndPlayer, sideName, type SeatLike } from '../../app/names.js';
import { clockInWords, type SeatClock } from '../../app/clocks.js';
import { describeEvent, lastTurn, sinceMyLastMove } from './events.js';
import { formatLegal } from './legal.js';
import { glossary } from './names.js';
import { indent, isRecord } from './text.js';

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
