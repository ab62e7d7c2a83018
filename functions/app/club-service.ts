import { createHash, randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { violation, zodSummary, type AnyEngine, type EngineCatalog } from '../../domain/kernel/index.js';
import {
  decideClub,
  engineDataNamed,
  evolveClub,
  initialClubState,
  type ClubCommand,
  type ClubCtx,
  type ClubEvent,
  type ClubState,
} from '../../domain/tournament/club.js';
import { clubView, type ClubView } from '../../domain/tournament/views.js';
import { AppError, type Clock } from '../ports.js';
import { gamePk } from '../store/dynamo-event-store.js';
import type { DynamoStreamStore } from '../store/stream-store.js';
import { fold, runCommand, type AggregateSpec } from './aggregate.js';
import { gameIdFor, type CommandResult, type GameService } from './game-service.js';

/**
 * Clubs over the stream store: one stream per club (`CLUB#<id>`), decided by the pure club
 * Decider, plus the club's game list (`CLUBGAMES#<id>`, one item per game a member created in
 * the club or a tournament of the club made). A member's club game takes the club's engine data
 * by name and the club's default time control.
 */
export const clubPk = (clubId: string) => `CLUB#${clubId}`;
export const clubGamesPk = (clubId: string) => `CLUBGAMES#${clubId}`;
/**
 * A game's link to what it counts for, written before the game exists so its end always finds
 * it: a tournament's pairing (`tournamentId`, `pairingId`) or, for a rated casual game, `rated`.
 */
export const gameLinkPk = (gameId: string) => `TGAME#${gameId}`;

/**
 * Tournament games are created with commandIds under this prefix, and a game's id follows from
 * its creator and the commandId: a player sending one could make their own next tournament game
 * beforehand, with a setup of their choosing. Players' creates may not use it.
 */
export const TOURNAMENT_GAME_COMMAND = 'tournament:';

export function refuseReservedCommandId(commandId: string): void {
  if (commandId.startsWith(TOURNAMENT_GAME_COMMAND))
    throw new AppError(
      400,
      'game/reserved-command-id',
      `A commandId starting with "${TOURNAMENT_GAME_COMMAND}" is the server's (tournament games); choose another`,
    );
}

/**
 * Marks a casual game as rated before it is created (its link first, so its end always finds
 * it; the tournaments reactor rates it then). Only two-player games are rated: otherwise 422
 * with `code`. An unknown engine or bad options are left to the game's creation to refuse, and
 * a game that exists already (a repeated create) stays as it was made.
 */
export async function markRated(
  store: Pick<DynamoStreamStore, 'doc' | 'tableName'>,
  engines: EngineCatalog,
  game: { readonly player: string; readonly engine: string; readonly options: unknown; readonly commandId: string; readonly clubId?: string },
  code: 'club/rated-needs-two' | 'game/rated-needs-two',
): Promise<void> {
  const engine = await engines.load(game.engine);
  const options = engine?.optionsSchema.safeParse(game.options ?? {});
  if (!engine || !options?.success) return;
  const seats = engine.seats(options.data).length;
  if (seats !== 2) throw new AppError(422, code, `Only two-player games are rated; this ${engine.title} game has ${seats} seats`);
  const gameId = gameIdFor(game.player, game.commandId);
  // A create repeated with its commandId answers with the game made the first time: a game made
  // casual is never turned into a rated one afterwards.
  // SECRET: written with every game's first command, whatever the layout of its events.
  const made = await store.doc.send(
    new GetCommand({ TableName: store.tableName, Key: { pk: gamePk(gameId), sk: 'SECRET' }, ProjectionExpression: 'pk', ConsistentRead: true }),
  );
  if (made.Item) return;
  await store.doc.send(
    new PutCommand({
      TableName: store.tableName,
      Item: { pk: gameLinkPk(gameId), sk: 'TGAME', gameId, rated: true, engine: game.engine, ...(game.clubId !== undefined ? { clubId: game.clubId } : {}) },
    }),
  );
}

const CLUB_SPEC: AggregateSpec<ClubState, ClubEvent> = { initial: initialClubState, evolve: evolveClub };

/** An id derived from who asked and the request's commandId, so a retried create lands on the same stream. */
export const derivedId = (kind: string, player: string, commandId: string) =>
  createHash('sha256').update(`${kind}\u0000${player}\u0000${commandId}`).digest('base64url').slice(0, 22);

export interface ClubGameEntry {
  readonly gameId: string;
  readonly engine: string;
  readonly createdBy: string;
  readonly createdAt: string;
  readonly tournamentId?: string;
  readonly rated?: boolean;
}

export interface ClubGameInput {
  readonly engine: string;
  readonly options?: unknown;
  /** The name of the club's engine data for this engine (options merged under the request's own). */
  readonly engineData?: string;
  readonly seat?: string;
  readonly reserve?: Record<string, string>;
  readonly timeControl?: unknown;
  readonly timeLimitHours?: number;
  /** A casual game that counts for the players' ratings when it ends (two-player games only). */
  readonly rated?: boolean;
  readonly commandId: string;
}

export interface ClubService {
  create(player: string, input: { name: string; description?: string; joinCode?: string; commandId?: string }): Promise<ClubView>;
  /** Any club command but CreateClub, as `player`. */
  command(player: string, clubId: string, command: Exclude<ClubCommand, { type: 'CreateClub' }>, commandId?: string): Promise<ClubView>;
  view(player: string, clubId: string): Promise<ClubView>;
  state(clubId: string): Promise<ClubState>;
  /** The options a club game or tournament is created with: the named engine data under the given options, validated by the engine. */
  gameOptions(club: ClubState | undefined, engine: string, options: unknown, engineData: string | undefined): Promise<Record<string, unknown>>;
  createGame(player: string, clubId: string, input: ClubGameInput): Promise<CommandResult & { clubId: string }>;
  /** Lists a game as the club's (a tournament's games are listed by the tournament reactor). */
  recordGame(clubId: string, entry: ClubGameEntry): Promise<void>;
  games(clubId: string): Promise<ClubGameEntry[]>;
}

export function createClubService(deps: { store: DynamoStreamStore; engines: EngineCatalog; clock: Clock; games: GameService }): ClubService {
  const { store, engines, clock } = deps;

  /** What a club command is decided with: the engine a StoreEngineData command names, loaded first (deciding is synchronous). */
  async function ctxFor(command: ClubCommand): Promise<ClubCtx> {
    const named: AnyEngine | undefined = command.type === 'StoreEngineData' ? await engines.load(command.engine) : undefined;
    return { validateEngineData: (engineId, data) => validateEngineData(engineId === named?.id ? named : undefined, engineId, data) };
  }

  function validateEngineData(engine: AnyEngine | undefined, engineId: string, data: unknown) {
    if (!engine) return violation('club/bad-engine-data', `There is no engine ${engineId}`);
    if (data === null || typeof data !== 'object' || Array.isArray(data))
      return violation('club/bad-engine-data', `Engine data is an object of ${engine.title} options, such as {"catalog": {...}}`);
    const r = engine.optionsSchema.safeParse(data);
    return r.success ? undefined : violation('club/bad-engine-data', `Not valid ${engine.title} options: ${zodSummary(r.error)}`);
  }

  async function state(clubId: string): Promise<ClubState> {
    return (await fold(store, clubPk(clubId), CLUB_SPEC)).state;
  }

  async function existing(clubId: string): Promise<ClubState> {
    const s = await state(clubId);
    if (!s.exists) throw new AppError(404, 'club/not-found', `There is no club ${clubId}`);
    return s;
  }

  const viewOf = (s: ClubState, player: string): ClubView => clubView(s, player)!;

  async function gameOptions(
    club: ClubState | undefined,
    engineId: string,
    options: unknown,
    engineData: string | undefined,
  ): Promise<Record<string, unknown>> {
    const engine = await engines.load(engineId);
    if (!engine) throw new AppError(400, 'game/unknown-engine', `There is no engine ${engineId}; GET /v1/engines lists them`);
    if (options !== undefined && (options === null || typeof options !== 'object' || Array.isArray(options)))
      throw new AppError(400, 'game/bad-options', 'options is an object of the engine’s options');
    let base: Record<string, unknown> = {};
    if (engineData !== undefined) {
      const named = club ? engineDataNamed(club, engineId, engineData) : undefined;
      if (!named) throw new AppError(404, 'club/no-such-engine-data', `The club has no ${engineId} data named ${engineData}`);
      base = { ...(named.data as Record<string, unknown>) };
    }
    const merged = { ...base, ...((options as Record<string, unknown> | undefined) ?? {}) };
    const r = engine.optionsSchema.safeParse(merged);
    if (!r.success) throw new AppError(400, 'game/bad-options', `Not valid ${engine.title} options: ${zodSummary(r.error)}`);
    return merged;
  }

  /**
   * PLAYER#<p> / CLUB#<id>: which clubs a player belongs to, with the club's vacation allowance,
   * so the vacation service finds a member's allowance in one Query (clubVacationDays). Kept
   * after each club command: members who came, went or whose club changed its allowance.
   */
  async function syncMemberships(clubId: string, before: ClubState | undefined, after: ClubState): Promise<void> {
    const days = after.settings.vacationDaysPerYear;
    const changedDays = before?.settings.vacationDaysPerYear !== days;
    for (const member of after.members.keys()) {
      if (!changedDays && before?.members.has(member)) continue;
      await store.doc.send(
        new PutCommand({
          TableName: store.tableName,
          Item: { pk: `PLAYER#${member}`, sk: `CLUB#${clubId}`, type: 'club-membership', clubId, ...(days !== undefined ? { vacationDaysPerYear: days } : {}) },
        }),
      );
    }
    for (const member of before?.members.keys() ?? []) {
      if (!after.members.has(member))
        await store.doc.send(new DeleteCommand({ TableName: store.tableName, Key: { pk: `PLAYER#${member}`, sk: `CLUB#${clubId}` } }));
    }
  }

  async function recordGame(clubId: string, entry: ClubGameEntry): Promise<void> {
    await store.doc.send(new PutCommand({ TableName: store.tableName, Item: { pk: clubGamesPk(clubId), sk: `GAME#${entry.gameId}`, ...entry } }));
  }

  return {
    async create(player, input) {
      const commandId = input.commandId ?? randomUUID();
      const clubId = derivedId('club', player, commandId);
      // Only a creation checks a command with zod here: the tournaments function, which creates no club, loads it never (issue 16).
      const { clubCommandSchema } = await import('../../domain/tournament/club-commands.js');
      const cmd = clubCommandSchema.parse({
        type: 'CreateClub',
        clubId,
        name: input.name,
        description: input.description ?? '',
        ...(input.joinCode !== undefined ? { joinCode: input.joinCode } : {}),
      });
      const ctx = await ctxFor(cmd);
      const r = await runCommand(store, clubPk(clubId), CLUB_SPEC, {
        commandId,
        actor: player,
        at: clock.now(),
        decide: (s) => decideClub(s, cmd, player, ctx),
      });
      await syncMemberships(clubId, undefined, r.state);
      return viewOf(r.state, player);
    },
    async command(player, clubId, command, commandId) {
      const before = await existing(clubId);
      const ctx = await ctxFor(command);
      const r = await runCommand(store, clubPk(clubId), CLUB_SPEC, {
        commandId: commandId ?? randomUUID(),
        actor: player,
        at: clock.now(),
        decide: (s) => decideClub(s, command, player, ctx),
      });
      await syncMemberships(clubId, before, r.state);
      return viewOf(r.state, player);
    },
    async view(player, clubId) {
      return viewOf(await existing(clubId), player);
    },
    state,
    gameOptions,
    async createGame(player, clubId, input) {
      refuseReservedCommandId(input.commandId);
      const club = await existing(clubId);
      if (!club.members.has(player)) throw new AppError(403, 'club/not-a-member', 'Only members create games in the club');
      const options = await gameOptions(club, input.engine, input.options, input.engineData);
      const time =
        input.timeControl !== undefined || input.timeLimitHours !== undefined
          ? {
              ...(input.timeControl !== undefined ? { timeControl: input.timeControl } : {}),
              ...(input.timeLimitHours !== undefined ? { timeLimitHours: input.timeLimitHours } : {}),
            }
          : clubTime(club);
      if (input.rated) await markRated(store, engines, { player, engine: input.engine, options, commandId: input.commandId, clubId }, 'club/rated-needs-two');
      const r = await deps.games.create(player, {
        engine: input.engine,
        options,
        commandId: input.commandId,
        ...(input.seat !== undefined ? { seat: input.seat } : {}),
        ...(input.reserve !== undefined ? { reserve: input.reserve } : {}),
        ...(input.rated ? { rated: true } : {}),
        ...time,
      });
      await recordGame(clubId, { gameId: r.gameId, engine: input.engine, createdBy: player, createdAt: clock.now(), ...(input.rated ? { rated: true } : {}) });
      return { ...r, clubId };
    },
    recordGame,
    async games(clubId) {
      await existing(clubId);
      const out: ClubGameEntry[] = [];
      let start: Record<string, unknown> | undefined;
      do {
        const page = await store.doc.send(
          new QueryCommand({
            TableName: store.tableName,
            KeyConditionExpression: 'pk = :pk',
            ExpressionAttributeValues: { ':pk': clubGamesPk(clubId) },
            ...(start ? { ExclusiveStartKey: start } : {}),
          }),
        );
        for (const i of page.Items ?? [])
          out.push({
            gameId: i['gameId'] as string,
            engine: i['engine'] as string,
            createdBy: i['createdBy'] as string,
            createdAt: i['createdAt'] as string,
            ...(typeof i['tournamentId'] === 'string' ? { tournamentId: i['tournamentId'] } : {}),
            ...(i['rated'] === true ? { rated: true } : {}),
          });
        start = page.LastEvaluatedKey;
      } while (start);
      return out.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
    },
  };
}

/** The club's default clock for a game that names none. */
export function clubTime(club: ClubState | undefined): { timeControl?: unknown; timeLimitHours?: number } {
  const s = club?.settings;
  if (s?.defaultTimeControl) return { timeControl: s.defaultTimeControl };
  if (s?.defaultTimeLimitHours !== undefined) return { timeLimitHours: s.defaultTimeLimitHours };
  return {};
}
