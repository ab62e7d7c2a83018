import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { wasCancelled, type EngineCatalog, type GameSummary } from '../../domain/kernel/index.js';
import { gamesWanted, type PairingState, type TournamentEvent, type TournamentState } from '../../domain/tournament/tournament.js';
import type { Notice, NotifyJob } from '../notify/decide.js';
import type { NotifyQueue } from '../notify/queue.js';
import { fromWireImage, headChange, isHeadRecord, type StreamRecordLike } from '../projections/stream-image.js';
import { AppError, type Clock } from '../ports.js';
import { DynamoStreamStore, type StoredEvent } from '../store/stream-store.js';
import { createClubService, gameLinkPk, TOURNAMENT_GAME_COMMAND, type ClubService } from './club-service.js';
import { gameIdFor, type GameService } from './game-service.js';
import { createTournamentService, tournamentPk, type TournamentService } from './tournament-service.js';
import { fold } from './aggregate.js';
import { evolveTournament, initialTournamentState } from '../../domain/tournament/tournament.js';

/**
 * What happens around a tournament, driven by the table's stream (the local poller, or the
 * tournaments function's batches in AWS, functions/handlers/tournaments.ts); every step is idempotent, so a record delivered twice
 * changes nothing:
 *
 * - a tournament's append that leaves pairings without a game (GameWanted): each game is created
 *   with the tournament's engine, options and clock, the first player seated on the first side
 *   and the second on the second, bound to its pairing (BindGame), and both players are told
 *   (mail and webhook) whom they play and on which side;
 * - a cancellation at the scheduled start (too few players): the director and the entrants are told why;
 * - a withdrawal: the director is told, and the withdrawn player's game in progress is resigned
 *   (the pairing was already forfeited);
 * - a tournament game's end: a rated game is rated, then its result goes to the tournament
 *   (RecordResult; a time-out is a Forfeit with its reason, and the director is told).
 */

export interface TournamentWorld {
  readonly store: DynamoStreamStore;
  readonly clubs: ClubService;
  readonly tournaments: TournamentService;
}

/** Clubs, tournaments and ratings on the one table, next to the game service. */
export function createTournamentWorld(opts: {
  client: DynamoDBClient;
  tableName: string;
  engines: EngineCatalog;
  clock: Clock;
  games: GameService;
}): TournamentWorld {
  const store = new DynamoStreamStore(opts.client, opts.tableName);
  const clubs = createClubService({ store, engines: opts.engines, clock: opts.clock, games: opts.games });
  const tournaments = createTournamentService({ store, engines: opts.engines, clock: opts.clock, clubs });
  return { store, clubs, tournaments };
}

export interface ReactorDeps {
  readonly world: TournamentWorld;
  readonly games: GameService;
  readonly engines: EngineCatalog;
  readonly queue: NotifyQueue;
  readonly clock: Clock;
  readonly log?: (msg: string) => void;
}

const keyOf = (r: StreamRecordLike) => {
  const k = r.dynamodb?.Keys as Record<string, { S?: string }> | undefined;
  return { pk: k?.['pk']?.S ?? '', sk: k?.['sk']?.S ?? '' };
};

/** One batch of stream records; failures are reported per record, like the projector's. */
export async function processTournamentRecords(
  records: readonly StreamRecordLike[],
  deps: ReactorDeps,
): Promise<{ batchItemFailures: { itemIdentifier: string }[] }> {
  const failures: { itemIdentifier: string }[] = [];
  for (const r of records) {
    const { pk, sk } = keyOf(r);
    // A game's head is a HEAD# item in the append layout; a tournament's is its HEAD.
    if ((sk !== 'HEAD' && !isHeadRecord(r)) || !r.dynamodb?.NewImage) continue;
    try {
      if (pk.startsWith('TOURNAMENT#')) {
        const old = r.dynamodb.OldImage ? (fromWireImage(r.dynamodb.OldImage)['version'] as number) : 0;
        await reactToTournament(deps, pk.slice('TOURNAMENT#'.length), old);
      } else if (pk.startsWith('GAME#')) {
        const change = headChange(r);
        if (change && change.next.status === 'ended' && change.old?.status !== 'ended') await gameEnded(deps, change.next);
      }
    } catch (e) {
      failures.push({ itemIdentifier: r.dynamodb?.SequenceNumber ?? r.eventID ?? '' });
      deps.log?.(`[tournaments] ${pk}: ${(e as Error).message}`);
    }
  }
  return { batchItemFailures: failures };
}

/** Ignores the refusals a repeated or overtaken system command meets (a result already in, a game already bound). */
async function tolerant(p: Promise<unknown>): Promise<void> {
  try {
    await p;
  } catch (e) {
    if (e instanceof AppError && ['tournament/result-known', 'tournament/already-bound', 'tournament/finished', 'game/not-active'].includes(e.code)) return;
    throw e;
  }
}

export async function reactToTournament(deps: ReactorDeps, tournamentId: string, oldVersion: number): Promise<void> {
  const { world } = deps;
  const f = await fold(world.store, tournamentPk(tournamentId), { initial: initialTournamentState, evolve: evolveTournament });
  const s = f.state;
  const fresh = f.events.filter((e) => e.seq > oldVersion);
  // A round's games are made side by side; their BindGame commands race on the stream and retry.
  await Promise.all(gamesWanted(s).map((p) => makeGame(deps, s, p)));
  for (const e of fresh) await afterEvent(deps, s, e, { version: f.version, hash: f.hash });
}

async function afterEvent(deps: ReactorDeps, s: TournamentState, e: StoredEvent<TournamentEvent>, at: { version: number; hash: string }): Promise<void> {
  const ev = e.event;
  if (ev.type === 'PlayerWithdrew') {
    await deps.queue.enqueue([
      directorNotice(s, {
        key: `${s.tournamentId}#withdrawal#${ev.player}`,
        about: 'withdrawal',
        round: ev.round,
        gameId: '',
        version: at.version,
        hash: at.hash,
        at: e.at,
        text: `${ev.player} withdrew from ${s.name}${ev.round ? ` in round ${ev.round}` : ' before the start'} (${ev.reason}).`,
      }),
    ]);
  }
  // Called off at its scheduled start: the director and whoever entered hear why.
  if (ev.type === 'TournamentCancelled') {
    const told = new Set([s.createdBy, ...s.players.keys()]);
    await deps.queue.enqueue(
      [...told].map((player) =>
        tournamentNotice(s, player, {
          key: `${s.tournamentId}#cancelled#${player}`,
          about: 'cancelled',
          gameId: '',
          version: at.version,
          hash: at.hash,
          at: e.at,
          text: `${s.name} was cancelled at its scheduled start: ${ev.reason}.`,
        }),
      ),
    );
  }
  // A pairing forfeited because its player withdrew: its game, if it runs, is resigned for them.
  if (ev.type === 'ResultRecorded' && ev.how === 'forfeit' && ev.reason?.startsWith('withdrew')) {
    const p = s.pairings.get(ev.pairingId)!;
    const loser = p.seats.find((x) => x !== ev.winner) ?? p.seats[0];
    if (p.gameId !== undefined) await tolerant(deps.games.resign(loser, p.gameId, { commandId: `withdrawn:${p.pairingId}` }));
  }
}

interface NoticeInput {
  readonly key: string;
  readonly about: 'time-out' | 'withdrawal' | 'cancelled';
  readonly round?: number;
  readonly gameId: string;
  readonly version: number;
  readonly hash: string;
  readonly at: string;
  readonly text: string;
  readonly title?: string;
}

const directorNotice = (s: TournamentState, n: NoticeInput): NotifyJob => tournamentNotice(s, s.createdBy, { ...n, key: `${n.key}#director` });

/** A notice about the tournament itself (not a pairing) to one player. */
function tournamentNotice(s: TournamentState, player: string, n: NoticeInput): NotifyJob {
  const notice: Notice = {
    key: n.key,
    kind: 'tournament',
    gameId: n.gameId,
    title: n.title ?? s.name,
    engine: s.engine,
    player,
    seats: [],
    asked: [],
    opponents: [],
    version: n.version,
    hash: n.hash,
    at: n.at,
    tournament: { tournamentId: s.tournamentId, name: s.name, ...(n.round ? { round: n.round } : {}), about: n.about, text: n.text },
  };
  return { notice };
}

/** Creates the pairing's game (or finds it, after a crash), binds it and tells both players. */
async function makeGame(deps: ReactorDeps, s: TournamentState, p: PairingState): Promise<void> {
  const { games, world } = deps;
  const engine = (await deps.engines.load(s.engine))!;
  const options = s.gameOptions ?? {};
  const seatIds = engine.seats(engine.optionsSchema.parse(options)).map((x) => x.id);
  const [first, second] = [seatIds[0]!, seatIds[1]!];
  const [p0, p1] = p.seats;
  const commandId = `${TOURNAMENT_GAME_COMMAND}${p.pairingId}`;
  const gameId = gameIdFor(p0, commandId);
  // The link first: whenever the game exists, its end finds its tournament.
  await world.store.doc.send(
    new PutCommand({
      TableName: world.store.tableName,
      Item: { pk: gameLinkPk(gameId), sk: 'TGAME', gameId, tournamentId: s.tournamentId, pairingId: p.pairingId },
    }),
  );
  const time = s.timeControl !== undefined ? { timeControl: s.timeControl } : s.timeLimitHours !== undefined ? { timeLimitHours: s.timeLimitHours } : {};
  await games.create(p0, { engine: s.engine, options, seat: first, reserve: { [second]: p1 }, commandId, ...(s.rated ? { rated: true } : {}), ...time });
  await games.join(p1, gameId, { seat: second, commandId: `${commandId}:join` });
  if (s.clubId !== null)
    await world.clubs.recordGame(s.clubId, { gameId, engine: s.engine, createdBy: p0, createdAt: deps.clock.now(), tournamentId: s.tournamentId });
  await tolerant(world.tournaments.system(s.tournamentId, { type: 'BindGame', pairingId: p.pairingId, gameId }, `bind:${p.pairingId}`));
  const { summary } = await games.view(null, gameId);
  const jobs: NotifyJob[] = [0, 1].map((i) => {
    const me = summary.seats[i]!;
    const other = summary.seats[1 - i]!;
    const player = p.seats[i]!;
    const notice: Notice = {
      key: `${gameId}#tournament#paired#${player}`,
      kind: 'tournament',
      gameId,
      title: summary.title,
      engine: s.engine,
      player,
      seats: [me.id],
      sides: [me.name],
      asked: [],
      opponents: [{ seat: other.id, name: other.name, player: other.player }],
      version: summary.version,
      hash: summary.hash,
      at: summary.updatedAt,
      tournament: {
        tournamentId: s.tournamentId,
        name: s.name,
        round: p.round,
        about: 'paired',
        text: `round ${p.round} of ${s.name}, board ${p.board}: you play ${me.name} against ${other.player} (${other.name}) in game ${gameId}.`,
      },
    };
    return { notice };
  });
  await deps.queue.enqueue(jobs);
}

/** A tournament game ended: its result (or forfeit on time) goes to the tournament, and a rated game is rated. */
export async function gameEnded(deps: ReactorDeps, summary: GameSummary): Promise<void> {
  const { world } = deps;
  const link = (
    await world.store.doc.send(new GetCommand({ TableName: world.store.tableName, Key: { pk: gameLinkPk(summary.gameId), sk: 'TGAME' }, ConsistentRead: true }))
  ).Item;
  if (!link || wasCancelled(summary)) return;
  if (typeof link['tournamentId'] !== 'string') {
    if (link['rated'] === true) await rateCasual(deps, summary);
    return;
  }
  const tournamentId = link['tournamentId'];
  const pairingId = link['pairingId'] as string;
  const s = await world.tournaments.state(tournamentId);
  const pairing = s.pairings.get(pairingId);
  if (!pairing) return;
  const playerOf = (seat: string) => summary.seats.find((x) => x.id === seat)?.player ?? null;
  const winners = summary.outcome?.winners ?? [];
  const winner = winners.length === 1 ? playerOf(winners[0]!) : null;
  // Rated before the result goes in: the result may finish the tournament, and a finished tournament's
  // ratings are final (rating is idempotent by game, so a record delivered again rates nothing twice).
  if (s.rated) {
    await world.tournaments.rate({
      type: 'RateGame',
      engine: s.engine,
      gameId: summary.gameId,
      players: [pairing.seats[0], pairing.seats[1]],
      winner,
      at: summary.updatedAt,
    });
  }
  const last = await deps.games.events(null, summary.gameId, { after: Math.max(0, summary.version - 3) });
  const timedOut = last.events.find((e) => e.type === 'Game.TimedOut');
  if (timedOut) {
    const lateSeats = ((timedOut.data as { seats?: string[] }).seats ?? []).map(playerOf).filter((x): x is string => x !== null);
    const loser = lateSeats[0] ?? pairing.seats.find((x) => x !== winner)!;
    const reason = `time-out: ${summary.outcome?.reason ?? 'ran out of time'}`;
    await tolerant(world.tournaments.system(tournamentId, { type: 'Forfeit', pairingId, loser, reason }, `result:${summary.gameId}`));
    const opponent = pairing.seats.find((x) => x !== loser)!;
    await deps.queue.enqueue([
      directorNotice(s, {
        key: `${summary.gameId}#time-out`,
        about: 'time-out',
        round: pairing.round,
        gameId: summary.gameId,
        title: summary.title,
        version: summary.version,
        hash: summary.hash,
        at: summary.updatedAt,
        text: `${loser} ran out of time against ${opponent} in round ${pairing.round}, board ${pairing.board} of ${s.name} (game ${summary.gameId}); the game is forfeited (${reason}).`,
      }),
    ]);
  } else {
    await tolerant(world.tournaments.system(tournamentId, { type: 'RecordResult', gameId: summary.gameId, winner }, `result:${summary.gameId}`));
  }
}

/** A rated casual game (a club game created with `rated`) ended: both players' ratings for its engine move. */
async function rateCasual(deps: ReactorDeps, summary: GameSummary): Promise<void> {
  const players = summary.seats.map((x) => x.player);
  const [a, b] = players;
  if (players.length !== 2 || a === null || a === undefined || b === null || b === undefined || a === b) return;
  const winners = summary.outcome?.winners ?? [];
  const winner = winners.length === 1 ? (summary.seats.find((x) => x.id === winners[0])?.player ?? null) : null;
  await deps.world.tournaments.rate({ type: 'RateGame', engine: summary.engine, gameId: summary.gameId, players: [a, b], winner, at: summary.updatedAt });
}
