// Lists of games: your inbox (GET /v1/me/games) and the lobby (GET /v1/lobby).
import { listing } from '../../app/names.js';
import { clockBrief, durationInWords, type SeatClock } from '../../app/clocks.js';

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
