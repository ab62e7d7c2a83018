import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DAY_MS } from '../../domain/kernel/index.js';
import { AppError, type Clock } from '../ports.js';
import type { ReadModelStore } from '../projections/read-model-store.js';
import { documentClient, isConditionFailure } from '../store/document-client.js';
import type { GameService } from './game-service.js';

/**
 * Vacation (issue 10): a player's yearly leave, during which their clocks stand still in every
 * game they play. The allowance (30 days a calendar year, UTC, unless the server sets
 * VACATION_DAYS, or more if a club of theirs allows more: clubVacationDays) is kept in one item per player, PLAYER#<p> / VACATION:
 * the year, the time used (a leave counts in full when it starts and gives back what is left
 * when the player returns early) and the leave under way. Each game records the leave in its
 * own log (Game.AwayStarted with its end, Game.AwayEnded on an early return), so the verifier
 * re-derives every deadline around it and opponents see it.
 */
export const DEFAULT_VACATION_DAYS = 30;
const RULE = 'Fieldpost platform';

export interface VacationRecord {
  readonly year: number;
  readonly usedMs: number;
  readonly current?: { readonly from: string; readonly until: string };
  /** Optimistic lock: each write expects the revision it read. */
  readonly rev: number;
}

export interface VacationStatus {
  readonly allowanceDays: number;
  readonly usedDays: number;
  readonly leftDays: number;
  readonly away: boolean;
  readonly from?: string;
  readonly until?: string;
  /** The games the last change was recorded in, and those where it was not (with why). */
  readonly games?: readonly { gameId: string; recorded: boolean; reason?: string }[];
}

export class DynamoVacationStore {
  private readonly doc;
  constructor(
    client: DynamoDBClient,
    private readonly tableName: string,
  ) {
    this.doc = documentClient(client);
  }
  private key = (player: string) => ({ pk: `PLAYER#${player}`, sk: 'VACATION' });
  async get(player: string): Promise<VacationRecord | undefined> {
    const r = await this.doc.send(new GetCommand({ TableName: this.tableName, Key: this.key(player), ConsistentRead: true }));
    if (!r.Item) return undefined;
    const { year, usedMs, current, rev } = r.Item as VacationRecord;
    return { year, usedMs, rev, ...(current ? { current: { from: current.from, until: current.until } } : {}) };
  }
  /** Writes the record if nobody changed it since `rev` was read; false when somebody did. */
  async put(player: string, rec: VacationRecord, readRev: number | undefined): Promise<boolean> {
    try {
      await this.doc.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...this.key(player), type: 'vacation', player, ...rec },
          ...(readRev === undefined
            ? { ConditionExpression: 'attribute_not_exists(pk)' }
            : { ConditionExpression: '#rev = :rev', ExpressionAttributeNames: { '#rev': 'rev' }, ExpressionAttributeValues: { ':rev': readRev } }),
        }),
      );
      return true;
    } catch (e) {
      if (isConditionFailure(e)) return false;
      throw e;
    }
  }
}

/**
 * The vacation allowances of the clubs a player belongs to (PLAYER#<p> / CLUB#<id> items, kept by
 * the club service); clubs that set none are left out.
 */
export function clubVacationDays(client: DynamoDBClient, tableName: string): (player: string) => Promise<number[]> {
  const doc = documentClient(client);
  return async (player) => {
    const out: number[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const r = await doc.send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :club)',
          ExpressionAttributeValues: { ':pk': `PLAYER#${player}`, ':club': 'CLUB#' },
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      for (const i of r.Items ?? []) if (typeof i['vacationDaysPerYear'] === 'number') out.push(i['vacationDaysPerYear']);
      start = r.LastEvaluatedKey;
    } while (start);
    return out;
  };
}

const yearOf = (iso: string) => new Date(iso).getUTCFullYear();
const days = (ms: number) => Math.round((ms / DAY_MS) * 100) / 100;

export function createVacationService(deps: {
  store: DynamoVacationStore;
  games: Pick<GameService, 'away'>;
  inbox: Pick<ReadModelStore, 'inbox'>;
  clock: Clock;
  allowanceDays?: number;
  /** The allowances of the player's clubs; the player gets the most generous of these and the server's. */
  clubDays?: (player: string) => Promise<readonly number[]>;
}) {
  const serverDays = deps.allowanceDays ?? DEFAULT_VACATION_DAYS;
  /** A player's yearly allowance: the most generous of the server's and their clubs' (a club cannot cut it below the server's). */
  const allowanceOf = async (player: string) => Math.max(serverDays, ...((await deps.clubDays?.(player)) ?? [])) * DAY_MS;

  /** The record as of now: a new year starts with nothing used, a leave whose end has passed is over. */
  function current(rec: VacationRecord | undefined, now: string): VacationRecord {
    const year = yearOf(now);
    let r: VacationRecord = rec ?? { year, usedMs: 0, rev: 0 };
    if (r.current && r.current.until <= now) r = { year: r.year, usedMs: r.usedMs, rev: r.rev };
    if (r.year !== year) r = { ...r, year, usedMs: 0 };
    return r;
  }

  const statusOf = (allowanceMs: number, r: VacationRecord, games?: VacationStatus['games']): VacationStatus => ({
    allowanceDays: days(allowanceMs),
    usedDays: days(r.usedMs),
    leftDays: days(Math.max(0, allowanceMs - r.usedMs)),
    away: r.current !== undefined,
    ...(r.current ? { from: r.current.from, until: r.current.until } : {}),
    ...(games ? { games } : {}),
  });

  /** Records the change in each running game of the player (a game that refuses is reported, not fatal). */
  async function inEveryGame(player: string, input: { away: boolean; until?: string; commandId: string }) {
    const games = (await deps.inbox.inbox(player)).filter((g) => g.status === 'active');
    const out: { gameId: string; recorded: boolean; reason?: string }[] = [];
    for (const g of games) {
      try {
        await deps.games.away(player, g.gameId, input);
        out.push({ gameId: g.gameId, recorded: true });
      } catch (e) {
        out.push({ gameId: g.gameId, recorded: false, reason: e instanceof AppError ? e.code : 'error' });
      }
    }
    return out;
  }

  return {
    async status(player: string): Promise<VacationStatus> {
      return statusOf(await allowanceOf(player), current(await deps.store.get(player), deps.clock.now()));
    },

    /** Starts a leave of `days` (default: all that is left of the allowance); 422 beyond the allowance. */
    async start(player: string, input: { days?: number }): Promise<VacationStatus> {
      const now = deps.clock.now();
      const stored = await deps.store.get(player);
      const r = current(stored, now);
      const allowanceMs = await allowanceOf(player);
      if (r.current) throw new AppError(422, 'vacation/already-away', `You are on vacation until ${r.current.until}: end it first (vacation off)`, RULE);
      const left = allowanceMs - r.usedMs;
      const wanted = input.days === undefined ? left : input.days * DAY_MS;
      if (left <= 0 || wanted > left)
        throw new AppError(
          422,
          'vacation/over-allowance',
          `That is more vacation than you have left this year: ${days(Math.max(0, left))} of ${days(allowanceMs)} days${input.days !== undefined ? `, not ${input.days}` : ''}`,
          RULE,
        );
      const until = new Date(Date.parse(now) + wanted).toISOString();
      const next: VacationRecord = { year: r.year, usedMs: r.usedMs + wanted, current: { from: now, until }, rev: r.rev + 1 };
      if (!(await deps.store.put(player, next, stored?.rev)))
        throw new AppError(409, 'vacation/conflict', 'Your vacation was changed at the same moment: look at it again', RULE);
      return statusOf(allowanceMs, next, await inEveryGame(player, { away: true, until, commandId: `vacation:${now}` }));
    },

    /** Ends the leave now; what was left of it goes back to the allowance. */
    async end(player: string): Promise<VacationStatus> {
      const now = deps.clock.now();
      const stored = await deps.store.get(player);
      const r = current(stored, now);
      if (!r.current) throw new AppError(422, 'vacation/not-away', 'You are not on vacation', RULE);
      const unused = Date.parse(r.current.until) - Date.parse(now);
      const next: VacationRecord = { year: r.year, usedMs: Math.max(0, r.usedMs - unused), rev: r.rev + 1 };
      if (!(await deps.store.put(player, next, stored?.rev)))
        throw new AppError(409, 'vacation/conflict', 'Your vacation was changed at the same moment: look at it again', RULE);
      return statusOf(await allowanceOf(player), next, await inEveryGame(player, { away: false, commandId: `vacation-end:${now}` }));
    },
  };
}
