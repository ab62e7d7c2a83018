import type { EventEnvelope, GameSummary } from '../../domain/kernel/index.js';

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
    .map((l) => by + l)
    .join('\n');
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
    lines.push(`Waiting for ${p.seat}${p.player ? ` (${p.player})` : ''}: ${p.prompt}${p.kind !== 'move' ? ` [${p.kind}]` : ''}${mine ? '   ← YOUR MOVE' : ''}`);
  }
  lines.push(`View${v.seat ? ` as ${v.seat}` : ' (spectator)'}:`);
  lines.push(indent(JSON.stringify(v.view, null, 2)));
  if (v.legalCommands.length) {
    lines.push('Your legal commands:');
    v.legalCommands.forEach((c, i) => lines.push(`${String(i + 1).padStart(4)}. ${compact(c, 200)}`));
    lines.push(`Send one with:  npm run cli -- play ${s.gameId} <n>`);
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
    const note = yourMove ? 'YOUR MOVE' : g['invited'] === true ? `invited: npm run cli -- join ${String(g['gameId'])}` : outcome?.result ? `you ${outcome.result}` : '';
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
