import { readFileSync } from 'node:fs';
import type { ApiClient } from './client.js';
import { newCommandId } from './client.js';

/**
 * The terminal client's club and tournament commands (npm run cli -- club ... / tournament ...
 * / ratings / player): thin calls to the API, printed for people (or as JSON with --json).
 */
export interface ClubCliFlags {
  readonly description?: string | undefined;
  readonly code?: string | undefined;
  readonly role?: string | undefined;
  readonly club?: string | undefined;
  readonly format?: string | undefined;
  readonly rounds?: string | undefined;
  readonly cycles?: string | undefined;
  readonly options?: string | undefined;
  readonly data?: string | undefined;
  readonly time?: string | undefined;
  readonly unrated?: boolean | undefined;
  readonly rated?: boolean | undefined;
  readonly max?: string | undefined;
  readonly starts?: string | undefined;
  readonly status?: string | undefined;
  readonly vacation?: string | undefined;
  readonly reason?: string | undefined;
  readonly seat?: string | undefined;
  readonly json?: boolean | undefined;
}

export class ClubUsageError extends Error {}

export const CLUB_HELP = `  club create <name> [--description D] [--code JOINCODE]   found a club (you are its owner)
  club show <clubId>                  members, roles, settings, engine data
  club join <clubId> <joinCode>       join with the club's code
  club invite <clubId> <player> [--role director|member]   invite (directors; directors by the owner)
  club accept <clubId>                accept your invitation
  club role <clubId> <player> <owner|director|member>   change a role (the owner)
  club code <clubId> <joinCode|none>  set or clear the join code (directors)
  club settings <clubId> [--time per-move:DAYS | bank:DAYS+DAYS] [--vacation DAYS]
  club data <clubId> <engine> <name> <file.json>   store engine options under a name, e.g.
                                      {"catalog": {...}} for a Spearpoint card catalog (directors)
  club game <clubId> <engine> [--data NAME] [--options JSON] [--seat S] [--time per-move:DAYS] [--rated]
                                      create a game in the club: its engine data by name, its
                                      default clock unless --time; --rated: it counts for ratings
  club games <clubId>                 the club's games (members' and tournaments')
  tournament create <engine> <name> --format round-robin|swiss|single-elimination [--club C]
         [--rounds N] [--cycles 2] [--options JSON] [--data NAME] [--time per-move:DAYS]
         [--max N] [--starts ISO] [--unrated]
  tournament list [--club C] [--status open|running|finished]
  tournament join|start <id>          enter; start it (the director): round one is paired
  tournament schedule <id> <ISO|none> move or remove the scheduled start (the director)
  tournament withdraw <id> [player] [--reason R]
  tournament adjudicate <id> <round>.<board> <winner|draw> --reason R   decide a game (directors)
  tournament forfeit <id> <round>.<board> <loser> --reason R           a forfeit (directors)
  tournament show <id>                players, rounds, pairings with games, standings
  ratings <engine>                    the leaderboard (Glicko-2; provisional players marked)
  player <player>                     a player's ratings and their history`;

const enc = encodeURIComponent;

function need(v: string | undefined, what: string): string {
  if (v === undefined || v === '') throw new ClubUsageError(`missing <${what}>; see npm run cli -- help`);
  return v;
}

function num(v: string | undefined, what: string): number | undefined {
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v)) throw new ClubUsageError(`${what} must be a whole number, not ${v}`);
  return Number(v);
}

type Club = {
  clubId: string;
  name: string;
  description: string;
  members: { player: string; role: string }[];
  settings: Record<string, unknown>;
  engineData: { engine: string; name: string; hash: string }[];
};
type Tournament = {
  tournamentId: string;
  clubId: string | null;
  name: string;
  engine: string;
  format: { kind: string; rounds?: number; cycles?: number };
  status: string;
  startsAt?: string;
  cancelled?: string;
  players: { player: string; rating: number; seed?: number; withdrawn?: { round: number; reason: string } }[];
  rounds: {
    round: number;
    pairings: {
      pairingId: string;
      board: number;
      seats: [string, string];
      gameId?: string;
      result?: { points: [number, number]; how: string; reason?: string };
    }[];
    byes: { player: string; points: number }[];
  }[];
  standings: { rank: number; player: string; points: number; played: number; tiebreaks: Record<string, number> }[];
};

export function formatClub(c: Club): string {
  const lines = [`${c.name} (club ${c.clubId})`, ...(c.description ? [c.description] : []), '', 'Members:'];
  for (const m of c.members) lines.push(`  ${m.player}${m.role === 'member' ? '' : ` (${m.role})`}`);
  const s = c.settings;
  lines.push('', `Settings: ${Object.keys(s).length ? JSON.stringify(s) : 'none'}`);
  if (c.engineData.length) lines.push('Engine data:', ...c.engineData.map((d) => `  ${d.engine}/${d.name}  sha256 ${d.hash.slice(0, 16)}…`));
  return lines.join('\n');
}

const score = (n: number) => (n === 0.5 ? '½' : Number.isInteger(n) ? String(n) : `${Math.floor(n)}½`);

export function formatTournament(t: Tournament): string {
  const format =
    t.format.kind === 'swiss'
      ? `Swiss, ${t.format.rounds} rounds`
      : t.format.kind === 'round-robin'
        ? `round robin${t.format.cycles === 2 ? ' (double)' : ''}`
        : 'single elimination';
  const when = t.status === 'open' && t.startsAt ? `, starts ${t.startsAt}` : t.cancelled ? ` (${t.cancelled})` : '';
  const lines = [`${t.name} (tournament ${t.tournamentId}): ${t.engine}, ${format}, ${t.status}${when}${t.clubId ? `, club ${t.clubId}` : ''}`, ''];
  lines.push(
    `Players (${t.players.length}): ${t.players.map((p) => `${p.player}${p.seed ? ` #${p.seed}` : ''}${p.withdrawn ? ' (withdrawn)' : ''}`).join(', ')}`,
  );
  for (const r of t.rounds) {
    lines.push('', `Round ${r.round}:`);
    for (const p of r.pairings) {
      const res = p.result
        ? `${score(p.result.points[0])}-${score(p.result.points[1])}${p.result.how === 'played' ? '' : ` (${p.result.how}${p.result.reason ? `: ${p.result.reason}` : ''})`}`
        : 'playing';
      lines.push(`  board ${p.board}: ${p.seats[0]} v ${p.seats[1]}  ${res}${p.gameId ? `  game ${p.gameId}` : ''}`);
    }
    for (const b of r.byes) lines.push(`  bye: ${b.player} (${score(b.points)})`);
  }
  if (t.standings.length) {
    lines.push('', 'Standings:');
    for (const s of t.standings) {
      const tb = Object.entries(s.tiebreaks)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ');
      lines.push(`  ${String(s.rank).padStart(2)}. ${s.player.padEnd(16)} ${score(s.points).padStart(4)}  (${s.played} played${tb ? `; ${tb}` : ''})`);
    }
  }
  return lines.join('\n');
}

function timeOf(v: string): unknown {
  const perMove = /^per-move:(\d+(?:\.\d+)?)$/.exec(v);
  if (perMove) return { kind: 'per-move', days: Number(perMove[1]) };
  const bank = /^bank:(\d+(?:\.\d+)?)\+(\d+(?:\.\d+)?)$/.exec(v);
  if (bank) return { kind: 'bank', days: Number(bank[1]), incrementDays: Number(bank[2]) };
  throw new ClubUsageError(`--time is per-move:DAYS or bank:DAYS+DAYS, not ${v}`);
}

/** The pairing at `<round>.<board>` (as `tournament show` prints them), looked up in the tournament. */
async function pairingAt(api: ApiClient, path: string, at: string | undefined): Promise<string> {
  const m = /^(\d+)\.(\d+)$/.exec(need(at, 'round>.<board'));
  if (!m) throw new ClubUsageError(`a pairing is <round>.<board>, e.g. 2.1, not ${at}`);
  const t = await api.request<Tournament>('GET', path);
  const p = t.rounds.find((r) => r.round === Number(m[1]))?.pairings.find((x) => x.board === Number(m[2]));
  if (!p) throw new ClubUsageError(`${t.name} has no board ${m[2]} in round ${m[1]}`);
  return p.pairingId;
}

function json(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new ClubUsageError(`${what} is not valid JSON: ${(e as Error).message}`);
  }
}

export async function clubCommand(api: ApiClient, args: readonly string[], flags: ClubCliFlags): Promise<string> {
  const [sub, id, a, b, c] = args;
  const show = (v: Club) => (flags.json ? JSON.stringify(v, null, 2) : formatClub(v));
  const path = (rest = '') => `/v1/clubs/${enc(need(id, 'clubId'))}${rest}`;
  switch (sub) {
    case 'create':
      return show(
        await api.request<Club>('POST', '/v1/clubs', {
          name: need(id, 'name'),
          ...(flags.description !== undefined ? { description: flags.description } : {}),
          ...(flags.code !== undefined ? { joinCode: flags.code } : {}),
          commandId: newCommandId(),
        }),
      );
    case 'show':
      return show(await api.request<Club>('GET', path()));
    case 'join':
      return show(await api.request<Club>('POST', path('/join'), { joinCode: need(a, 'joinCode'), commandId: newCommandId() }));
    case 'invite':
      return show(await api.request<Club>('POST', path('/invitations'), { player: need(a, 'player'), ...(flags.role ? { role: flags.role } : {}) }));
    case 'accept':
      return show(await api.request<Club>('POST', path('/accept'), { commandId: newCommandId() }));
    case 'role':
      return show(await api.request<Club>('PUT', path(`/members/${enc(need(a, 'player'))}`), { role: need(b, 'role') }));
    case 'code':
      return show(await api.request<Club>('PUT', path('/join-code'), { joinCode: need(a, 'joinCode') === 'none' ? null : a }));
    case 'settings': {
      const settings = {
        ...(flags.time ? { defaultTimeControl: timeOf(flags.time) } : {}),
        ...(flags.vacation !== undefined ? { vacationDaysPerYear: num(flags.vacation, '--vacation') } : {}),
      };
      return show(await api.request<Club>('PUT', path('/settings'), { settings }));
    }
    case 'data': {
      const data = json(readFileSync(need(c, 'file.json'), 'utf8'), c!);
      return show(await api.request<Club>('PUT', path(`/engine-data/${enc(need(a, 'engine'))}/${enc(need(b, 'name'))}`), { data }));
    }
    case 'game': {
      const r = await api.request<{ gameId: string }>('POST', path('/games'), {
        engine: need(a, 'engine'),
        ...(flags.options ? { options: json(flags.options, '--options') } : {}),
        ...(flags.data ? { engineData: flags.data } : {}),
        ...(flags.seat ? { seat: flags.seat } : {}),
        ...(flags.time ? { timeControl: timeOf(flags.time) } : {}),
        ...(flags.rated ? { rated: true } : {}),
        commandId: newCommandId(),
      });
      return flags.json ? JSON.stringify(r, null, 2) : `Created game ${r.gameId} in club ${id}.\nOthers join with:  npm run cli -- join ${r.gameId}`;
    }
    case 'games': {
      const r = await api.request<{ games: { gameId: string; engine: string; createdBy: string; createdAt: string; tournamentId?: string }[] }>(
        'GET',
        path('/games'),
      );
      if (flags.json) return JSON.stringify(r, null, 2);
      return r.games.length
        ? r.games
            .map((g) => `${g.gameId}  ${g.engine}  by ${g.createdBy}  ${g.createdAt}${g.tournamentId ? `  (tournament ${g.tournamentId})` : ''}`)
            .join('\n')
        : 'The club has no games yet.';
    }
    default:
      throw new ClubUsageError('club create|show|join|invite|accept|role|code|settings|data|game|games ...; see npm run cli -- help');
  }
}

export async function tournamentCommand(api: ApiClient, args: readonly string[], flags: ClubCliFlags): Promise<string> {
  const [sub, id, a, b] = args;
  const show = (v: Tournament) => (flags.json ? JSON.stringify(v, null, 2) : formatTournament(v));
  const path = (rest = '') => `/v1/tournaments/${enc(need(id, 'id'))}${rest}`;
  switch (sub) {
    case 'create': {
      const format = need(flags.format, '--format round-robin|swiss|single-elimination');
      return show(
        await api.request<Tournament>('POST', '/v1/tournaments', {
          engine: need(id, 'engine'),
          name: need(a, 'name'),
          format,
          ...(flags.club ? { club: flags.club } : {}),
          ...(flags.rounds !== undefined ? { rounds: num(flags.rounds, '--rounds') } : {}),
          ...(flags.cycles !== undefined ? { cycles: num(flags.cycles, '--cycles') } : {}),
          ...(flags.options ? { options: json(flags.options, '--options') } : {}),
          ...(flags.data ? { engineData: flags.data } : {}),
          ...(flags.time ? { timeControl: timeOf(flags.time) } : {}),
          ...(flags.max !== undefined ? { maxPlayers: num(flags.max, '--max') } : {}),
          ...(flags.starts ? { startsAt: flags.starts } : {}),
          rated: !flags.unrated,
          commandId: newCommandId(),
        }),
      );
    }
    case 'list': {
      const q = new URLSearchParams({ ...(flags.club ? { club: flags.club } : {}), ...(flags.status ? { status: flags.status } : {}) });
      const r = await api.request<{ tournaments: { tournamentId: string; name: string; engine: string; format: string; status: string; players: number }[] }>(
        'GET',
        `/v1/tournaments${q.size ? `?${q}` : ''}`,
      );
      if (flags.json) return JSON.stringify(r, null, 2);
      return r.tournaments.length
        ? r.tournaments.map((t) => `${t.tournamentId}  ${t.name}  ${t.engine} ${t.format}  ${t.status}, ${t.players} players`).join('\n')
        : 'No tournaments.';
    }
    case 'show':
      return show(await api.request<Tournament>('GET', path()));
    case 'join':
      return show(await api.request<Tournament>('POST', path('/join'), { commandId: newCommandId() }));
    case 'start':
      return show(await api.request<Tournament>('POST', path('/start'), { commandId: newCommandId() }));
    case 'schedule': {
      const when = need(a, 'ISO|none');
      return show(await api.request<Tournament>('POST', path('/schedule'), { startsAt: when === 'none' ? null : when, commandId: newCommandId() }));
    }
    case 'withdraw':
      return show(
        await api.request<Tournament>('POST', path('/withdraw'), {
          ...(a ? { player: a } : {}),
          ...(flags.reason ? { reason: flags.reason } : {}),
          commandId: newCommandId(),
        }),
      );
    case 'adjudicate': {
      const pairingId = await pairingAt(api, path(), a);
      const winner = need(b, 'winner|draw');
      return show(
        await api.request<Tournament>('POST', path('/adjudicate'), {
          pairingId,
          winner: winner === 'draw' ? null : winner,
          reason: need(flags.reason, '--reason'),
          commandId: newCommandId(),
        }),
      );
    }
    case 'forfeit': {
      const pairingId = await pairingAt(api, path(), a);
      return show(
        await api.request<Tournament>('POST', path('/forfeit'), {
          pairingId,
          loser: need(b, 'loser'),
          reason: need(flags.reason, '--reason'),
          commandId: newCommandId(),
        }),
      );
    }
    default:
      throw new ClubUsageError('tournament create|list|show|join|start|schedule|withdraw|adjudicate|forfeit ...; see npm run cli -- help');
  }
}

export async function ratingsCommand(api: ApiClient, engine: string, asJson: boolean): Promise<string> {
  const r = await api.request<{
    engine: string;
    entries: { rank: number; player: string; rating: number; deviation: number; games: number; provisional: boolean }[];
  }>('GET', `/v1/ratings?engine=${enc(engine)}`);
  if (asJson) return JSON.stringify(r, null, 2);
  if (!r.entries.length) return `Nobody is rated in ${engine} yet.`;
  return [
    `${engine} ratings (Glicko-2; ? = provisional):`,
    ...r.entries.map(
      (e) =>
        `  ${String(e.rank).padStart(3)}. ${e.player.padEnd(16)} ${Math.round(e.rating)}${e.provisional ? '?' : ' '} ±${Math.round(e.deviation)}  ${e.games} games`,
    ),
  ].join('\n');
}

export async function playerCommand(api: ApiClient, player: string, asJson: boolean): Promise<string> {
  const r = await api.request<{
    player: string;
    ratings: {
      engine: string;
      rating: number;
      deviation: number;
      games: number;
      provisional: boolean;
      history: { gameId: string; at: string; rating: number }[];
    }[];
  }>('GET', `/v1/players/${enc(player)}`);
  if (asJson) return JSON.stringify(r, null, 2);
  if (!r.ratings.length) return `${player} has no ratings yet.`;
  const lines = [`${player}:`];
  for (const e of r.ratings) {
    lines.push(`  ${e.engine}: ${Math.round(e.rating)}${e.provisional ? ' (provisional)' : ''} ±${Math.round(e.deviation)}, ${e.games} games`);
    for (const h of e.history.slice(-10)) lines.push(`    ${h.at}  ${Math.round(h.rating)}  game ${h.gameId}`);
  }
  return lines.join('\n');
}
