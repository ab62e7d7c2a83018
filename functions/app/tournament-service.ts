import { randomUUID } from 'node:crypto';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { EngineCatalog, TimeControl } from '../../domain/kernel/index.js';
import type { ClubState } from '../../domain/tournament/club.js';
import { decideRatings, evolveRatings, initialRatingsState, type RatingCommand, type RatingEvent, type RatingsState } from '../../domain/tournament/ratings.js';
import { decideTournament } from '../../domain/tournament/decide-tournament.js';
import {
  evolveTournament,
  initialTournamentState,
  type Actor,
  type Format,
  type TournamentCommand,
  type TournamentEvent,
  type TournamentState,
} from '../../domain/tournament/tournament.js';
import { leaderboardView, ratingView, tournamentView, type RatingView, type TournamentView } from '../../domain/tournament/views.js';
import { ratingOf } from '../../domain/tournament/ratings.js';
import { AppError, type Clock } from '../ports.js';
import type { DynamoStreamStore } from '../store/stream-store.js';
import { fold, runCommand, type AggregateSpec, type Outcome } from './aggregate.js';
import { clubTime, derivedId, type ClubService } from './club-service.js';

/**
 * Tournaments and ratings over the stream store: one stream per tournament
 * (`TOURNAMENT#<id>`) and one per engine's ratings (`RATINGS#<engine>`), decided by the pure
 * Deciders in domain/tournament. Every append also rewrites the tournament's line in the
 * listing (`TOURNAMENTS`, sk `T#<id>`), in the same transaction.
 */
export const tournamentPk = (id: string) => `TOURNAMENT#${id}`;
export const ratingsPk = (engine: string) => `RATINGS#${engine}`;
/** The listing's partition (functions/deadlines/schedules.ts reads its lines from the stream for tournaments' starts). */
export const LIST_PK = 'TOURNAMENTS';

const T_SPEC: AggregateSpec<TournamentState, TournamentEvent> = { initial: initialTournamentState, evolve: evolveTournament };
const R_SPEC: AggregateSpec<RatingsState, RatingEvent> = { initial: initialRatingsState, evolve: evolveRatings };

export interface TournamentListEntry {
  readonly tournamentId: string;
  readonly clubId: string | null;
  readonly name: string;
  readonly engine: string;
  readonly format: Format['kind'];
  readonly status: 'open' | 'running' | 'finished' | 'cancelled';
  readonly players: number;
  /** An open tournament's scheduled start (the local deadline sweep reads it). */
  readonly startsAt?: string;
}

export interface CreateTournamentInput {
  readonly club?: string;
  readonly name: string;
  readonly engine: string;
  readonly options?: unknown;
  readonly engineData?: string;
  readonly format: Format['kind'];
  readonly rounds?: number;
  readonly cycles?: 1 | 2;
  readonly timeControl?: TimeControl;
  readonly rated?: boolean;
  readonly maxPlayers?: number;
  readonly startsAt?: string;
  readonly commandId?: string;
}

export interface TournamentService {
  create(player: string, input: CreateTournamentInput): Promise<TournamentView>;
  /** A command from a signed-in player (join, withdraw, start, adjudicate, forfeit). */
  command(player: string, tournamentId: string, command: TournamentCommand, commandId?: string): Promise<TournamentView>;
  /** A command from the system (BindGame, RecordResult, Forfeit on time), idempotent by its commandId. */
  system(tournamentId: string, command: TournamentCommand, commandId: string): Promise<Outcome<TournamentState, TournamentEvent>>;
  state(tournamentId: string): Promise<TournamentState>;
  view(tournamentId: string): Promise<TournamentView>;
  list(filter: { club?: string; status?: string }): Promise<TournamentListEntry[]>;
  /** Rates a finished game (idempotent: a game is rated once). */
  rate(command: RatingCommand): Promise<void>;
  ratings(engine: string): Promise<RatingsState>;
  player(player: string): Promise<{ player: string; ratings: RatingView[] }>;
  leaderboard(engine: string): Promise<ReturnType<typeof leaderboardView>>;
}

export function createTournamentService(deps: { store: DynamoStreamStore; engines: EngineCatalog; clock: Clock; clubs: ClubService }): TournamentService {
  const { store, engines, clock, clubs } = deps;

  const listItem = (s: TournamentState): Record<string, unknown> => ({
    pk: LIST_PK,
    sk: `T#${s.tournamentId}`,
    tournamentId: s.tournamentId,
    ...(s.clubId !== null ? { clubId: s.clubId } : {}),
    name: s.name,
    engine: s.engine,
    format: s.format.kind,
    tstatus: s.status,
    players: s.players.size,
    ...(s.startsAt !== undefined ? { startsAt: s.startsAt } : {}),
  });

  /** A scheduled start must lie ahead: one in the past would start (or cancel) the tournament at once. */
  function inFuture(startsAt: string): void {
    if (!(Date.parse(startsAt) > Date.parse(clock.now())))
      throw new AppError(422, 'tournament/starts-in-past', `startsAt ${startsAt} is not in the future (now ${clock.now()})`);
  }

  async function state(tournamentId: string): Promise<TournamentState> {
    return (await fold(store, tournamentPk(tournamentId), T_SPEC)).state;
  }

  async function existing(tournamentId: string): Promise<TournamentState> {
    const s = await state(tournamentId);
    if (s.status === 'none') throw new AppError(404, 'tournament/not-found', `There is no tournament ${tournamentId}`);
    return s;
  }

  /** A user's standing for a tournament: their role in its club, or, in a tournament without a club, its creator directs and everyone else may enter. */
  async function actorFor(player: string, s: TournamentState): Promise<Actor> {
    if (s.clubId === null) return { kind: 'user', userId: player, clubRole: s.createdBy === player ? 'owner' : 'member' };
    const role = (await clubs.state(s.clubId)).members.get(player);
    return { kind: 'user', userId: player, ...(role ? { clubRole: role } : {}) };
  }

  async function ratings(engine: string): Promise<RatingsState> {
    return (await fold(store, ratingsPk(engine), R_SPEC)).state;
  }

  const run = (tournamentId: string, actor: Actor, command: TournamentCommand, commandId: string) =>
    runCommand(store, tournamentPk(tournamentId), T_SPEC, {
      commandId,
      actor: actor.kind === 'user' ? actor.userId : null,
      at: clock.now(),
      decide: (s) => decideTournament(s, command, actor),
      index: (after) => [listItem(after)],
    });

  return {
    async create(player, input) {
      let club: ClubState | undefined;
      if (input.club !== undefined) {
        club = await clubs.state(input.club);
        if (!club.exists) throw new AppError(404, 'club/not-found', `There is no club ${input.club}`);
      }
      const options = await clubs.gameOptions(club, input.engine, input.options, input.engineData);
      const engine = (await engines.load(input.engine))!;
      const seats = engine.seats(engine.optionsSchema.parse(options));
      if (seats.length !== 2)
        throw new AppError(
          422,
          'tournament/two-seats-only',
          `${engine.title} with these options has ${seats.length} seats; tournaments pair two players a game`,
        );
      const format: Format =
        input.format === 'swiss'
          ? { kind: 'swiss', rounds: input.rounds ?? 0 }
          : input.format === 'round-robin'
            ? { kind: 'round-robin', cycles: input.cycles ?? 1 }
            : { kind: 'single-elimination' };
      if (format.kind === 'swiss' && input.rounds === undefined)
        throw new AppError(400, 'tournament/rounds-required', 'A Swiss tournament needs its number of rounds');
      if (input.startsAt !== undefined) inFuture(input.startsAt);
      const time = input.timeControl !== undefined ? { timeControl: input.timeControl } : clubTime(club);
      const commandId = input.commandId ?? randomUUID();
      const tournamentId = derivedId('tournament', player, commandId);
      // Only a creation checks a command with zod: the tournaments function, which creates none, loads it never (issue 16).
      const { tournamentCommandSchema } = await import('../../domain/tournament/tournament-commands.js');
      const parsed = tournamentCommandSchema.safeParse({
        type: 'CreateTournament',
        tournamentId,
        clubId: input.club ?? null,
        name: input.name,
        engine: input.engine,
        format,
        rated: input.rated ?? true,
        ...(input.maxPlayers !== undefined ? { maxPlayers: input.maxPlayers } : {}),
        ...(Object.keys(options).length ? { gameOptions: options } : {}),
        ...time,
        ...(input.startsAt !== undefined ? { startsAt: input.startsAt } : {}),
      });
      if (!parsed.success) throw new AppError(400, 'tournament/bad-request', parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
      const actor: Actor = club
        ? { kind: 'user', userId: player, ...(club.members.get(player) ? { clubRole: club.members.get(player)! } : {}) }
        : { kind: 'user', userId: player, clubRole: 'owner' };
      const r = await run(tournamentId, actor, parsed.data, commandId);
      return tournamentView(r.state)!;
    },
    async command(player, tournamentId, command, commandId) {
      const s = await existing(tournamentId);
      const actor = await actorFor(player, s);
      if (command.type === 'RescheduleStart' && command.startsAt !== null) inFuture(command.startsAt);
      // A player's rating at entry comes from the ratings, never from the request.
      const cmd: TournamentCommand =
        command.type === 'JoinTournament' ? { ...command, rating: ratingOf(await ratings(s.engine), s.engine, command.player).rating } : command;
      const r = await run(tournamentId, actor, cmd, commandId ?? randomUUID());
      return tournamentView(r.state)!;
    },
    system: (tournamentId, command, commandId) => run(tournamentId, { kind: 'system' }, command, commandId),
    state,
    async view(tournamentId) {
      return tournamentView(await existing(tournamentId))!;
    },
    async list(filter) {
      const out: TournamentListEntry[] = [];
      let start: Record<string, unknown> | undefined;
      do {
        const page = await store.doc.send(
          new QueryCommand({
            TableName: store.tableName,
            KeyConditionExpression: 'pk = :pk',
            ExpressionAttributeValues: { ':pk': LIST_PK },
            ...(start ? { ExclusiveStartKey: start } : {}),
          }),
        );
        for (const i of page.Items ?? [])
          out.push({
            tournamentId: i['tournamentId'] as string,
            clubId: typeof i['clubId'] === 'string' ? i['clubId'] : null,
            name: i['name'] as string,
            engine: i['engine'] as string,
            format: i['format'] as Format['kind'],
            status: i['tstatus'] as TournamentListEntry['status'],
            players: i['players'] as number,
            ...(typeof i['startsAt'] === 'string' ? { startsAt: i['startsAt'] } : {}),
          });
        start = page.LastEvaluatedKey;
      } while (start);
      return out.filter((t) => (filter.club === undefined || t.clubId === filter.club) && (filter.status === undefined || t.status === filter.status));
    },
    async rate(command) {
      await runCommand(store, ratingsPk(command.engine), R_SPEC, {
        commandId: `rate:${command.gameId}`,
        actor: null,
        at: command.at,
        decide: (s) => {
          const r = decideRatings(s, command);
          // Rated already (a stream record delivered twice): nothing to do.
          return !r.ok && r.error.code === 'rating/already-rated' ? { ok: true, value: [] } : r;
        },
      });
    },
    ratings,
    async player(player) {
      const out: RatingView[] = [];
      for (const engine of engines.ids()) {
        const s = await ratings(engine);
        if (s.engines.get(engine)?.has(player)) out.push(ratingView(s, engine, player));
      }
      return { player, ratings: out };
    },
    async leaderboard(engine) {
      if (!engines.ids().includes(engine)) throw new AppError(404, 'engine/not-found', `There is no engine ${engine}`);
      return leaderboardView(await ratings(engine), engine);
    },
  };
}
