import { TransactionCanceledException, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { GameSummary } from '../../domain/kernel/index.js';
import {
  gameSk,
  inboxPk,
  LOBBY_PK,
  projectFrom,
  projectGame,
  summaryPk,
  SUMMARY_SK,
  type GameProjection,
  type InboxModel,
  type LobbyModel,
  type SummaryModel,
} from './project.js';

/** Whether the read models of `prev` put the game in the lobby (so a lobby item may be there to move or remove). */
const mayBeInLobby = (prev: SummaryModel | undefined): boolean => prev !== undefined && projectGame(undefined, prev.summary).lobby !== undefined;

/**
 * PAGE ITEMS. The inbox and lobby are listed in an order no GAME#<gameId> key has ("your
 * move" first, longest waiting first, then most recently changed; the lobby newest first), so
 * each GAME# item has a twin in the same partition whose sort key is that order:
 *   INBOX#<player>  PAGE#0#<since>#<gameId>             your move, oldest first
 *                   PAGE#1#<updatedAt, digits 9-d>#<gameId>  the rest, newest change first
 *   LOBBY           PAGE#<createdAt, digits 9-d>#<gameId>    newest game first
 * A page is then one Query with Limit and ExclusiveStartKey. The twin is a full copy (type
 * 'inbox-page' / 'lobby-page'), written just before its GAME# item (ReadModelStore.write). Ties fall to the gameId, as they did when the whole list
 * was sorted in memory after a Query in GAME#<gameId> order.
 */
export const PAGE_PREFIX = 'PAGE#';
/** Complementing every digit reverses the order of timestamps written in one format (ISO-8601). */
const descending = (t: string) => t.replace(/[0-9]/g, (d) => String(9 - Number(d)));
export const inboxPageSk = (i: Pick<InboxModel, 'yourMove' | 'since' | 'updatedAt' | 'gameId'>): string =>
  i.yourMove ? `${PAGE_PREFIX}0#${i.since}#${i.gameId}` : `${PAGE_PREFIX}1#${descending(i.updatedAt)}#${i.gameId}`;
export const lobbyPageSk = (l: Pick<LobbyModel, 'createdAt' | 'gameId'>): string => `${PAGE_PREFIX}${descending(l.createdAt)}#${l.gameId}`;
/** The key range of each inbox listing: everything, your move only, or the others only. */
export const inboxPagePrefix = (yourMove?: boolean): string => (yourMove === undefined ? PAGE_PREFIX : `${PAGE_PREFIX}${yourMove ? 0 : 1}#`);

/** Every `pk|sk` a projection puts in the table (the rebuild keeps these and sweeps the rest). */
export function projectionKeys(p: GameProjection): string[] {
  const keys = [`${p.summary.pk}|${p.summary.sk}`];
  for (const i of p.inbox) keys.push(`${i.pk}|${i.sk}`, `${i.pk}|${inboxPageSk(i)}`);
  if (p.lobby) keys.push(`${p.lobby.pk}|${p.lobby.sk}`, `${p.lobby.pk}|${lobbyPageSk(p.lobby)}`);
  return keys;
}

/** One page of a listing, in list order; `next` is the sort key to start after, if more may follow. */
export interface Page<T> {
  readonly items: T[];
  readonly next?: string;
}

/** Where the current page items of a game are, read just before replacing them. */
interface CurrentPages {
  readonly inbox: ReadonlyMap<string, string>;
  readonly lobby?: string;
}

/** A filtered listing may read past many non-matching items; a request stops after this many Queries. */
const MAX_QUERIES_PER_PAGE = 8;

export const documentClient = (client: DynamoDBClient) => DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });

export type ApplyResult = 'applied' | 'stale';

/**
 * The read models on the one table. A game's items are written one by one, each only over an
 * older version of itself, and its SUMMARY item last, gated on the version read before: a
 * record applied twice or out of order changes nothing (the gate refuses it), and a write cut
 * short is finished by the retry. Inbox, lobby and summary may disagree for the moments of one
 * write (they are eventually consistent read models).
 */
export class ReadModelStore {
  private readonly doc: DynamoDBDocumentClient;
  constructor(
    client: DynamoDBClient,
    readonly tableName: string,
  ) {
    this.doc = documentClient(client);
  }

  async getSummary(gameId: string): Promise<SummaryModel | undefined> {
    const r = await this.doc.send(new GetCommand({ TableName: this.tableName, Key: { pk: summaryPk(gameId), sk: SUMMARY_SK }, ConsistentRead: true }));
    return r.Item as SummaryModel | undefined;
  }

  /**
   * Applies a HEAD summary if it is newer than what the read models hold. `before` are the
   * summaries of the same game the stream carried just before it (oldest first): they are folded
   * in memory (since-when of each pending seat, players who left) and the items written once,
   * so a batch with many moves of one game costs one write of its read models, not one per move.
   */
  async apply(next: GameSummary, before: readonly GameSummary[] = []): Promise<ApplyResult> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const prev = await this.getSummary(next.gameId);
      if (prev && prev.version >= next.version) return 'stale';
      const projection = projectFrom(
        prev,
        [...before, next].filter((s) => !prev || s.version > prev.version),
      )!;
      try {
        await this.write(projection, prev, await this.currentPages(projection, prev));
        return 'applied';
      } catch (e) {
        // Someone else moved the summary between our read and write: read again and decide.
        if (!isConditionFailure(e)) throw e;
      }
    }
    throw new Error(`read models of ${next.gameId} kept changing under the projector`);
  }

  /**
   * Writes a rebuilt projection unless the table already holds a newer one (the live stream
   * may have moved on while the rebuild ran). Returns 'stale' when it kept the newer one, and
   * throws when it lost every race to the live projector (the rebuild reports the game failed).
   */
  async put(projection: GameProjection): Promise<ApplyResult> {
    // Gated on the exact summary read (not just "not newer"), so the page items read with it
    // are still the ones in the table when the transaction replaces them.
    for (let attempt = 0; attempt < 5; attempt++) {
      const prev = await this.getSummary(projection.summary.gameId);
      if (prev && prev.version > projection.summary.version) return 'stale';
      try {
        await this.write(projection, prev, await this.currentPages(projection, prev));
        return 'applied';
      } catch (e) {
        if (!isConditionFailure(e)) throw e;
      }
    }
    // Not 'stale': nothing newer was seen, the live projector just kept writing first.
    throw new Error(`game ${projection.summary.gameId}: the live projector kept changing its read models during 5 attempts; run the rebuild again`);
  }

  /**
   * The page items the table holds now for the players and lobby entry a projection touches,
   * read from their GAME# items (ConsistentRead). Reading, rather than recomputing from the
   * previous summary, keeps a twin written by older code from being left behind. Any change
   * after this read also changes the SUMMARY version, which the write is gated on.
   */
  private async currentPages(p: GameProjection, prev: SummaryModel | undefined): Promise<CurrentPages> {
    const gameId = p.summary.gameId;
    const players = [...p.inbox.map((i) => i.player), ...p.dropInbox];
    const get = async (pk: string) =>
      (
        await this.doc.send(
          new GetCommand({
            TableName: this.tableName,
            Key: { pk, sk: gameSk(gameId) },
            ConsistentRead: true,
            ProjectionExpression: 'gameId, yourMove, #since, updatedAt, createdAt',
            ExpressionAttributeNames: { '#since': 'since' },
          }),
        )
      ).Item;
    const [lobby, ...inbox] = await Promise.all([p.lobby || mayBeInLobby(prev) ? get(LOBBY_PK) : undefined, ...players.map((player) => get(inboxPk(player)))]);
    const pages = new Map<string, string>();
    players.forEach((player, n) => {
      const item = inbox[n];
      if (item) pages.set(player, inboxPageSk(item as unknown as InboxModel));
    });
    return { inbox: pages, ...(lobby ? { lobby: lobbyPageSk(lobby as unknown as LobbyModel) } : {}) };
  }

  /**
   * The projection's items, each its own conditional write (no transaction: half the write
   * units). Each item carries the summary version it was projected from and is written only if
   * the table holds no newer one, so a repeated or late write changes nothing; the SUMMARY item
   * is written last, gated on the version read, so a write cut short is redone whole by the
   * record's retry. Order keeps a listing free of duplicates across a crash: old page twins go
   * first (the GAME# items still point at them until then), then the new twins, then the GAME#
   * items, then the summary. A game that was not and is not in the lobby touches no lobby item.
   */
  private async write(p: GameProjection, prev: SummaryModel | undefined, current: CurrentPages): Promise<void> {
    const T = this.tableName;
    const v = p.summary.version;
    const notNewer = { ConditionExpression: 'attribute_not_exists(pk) OR version <= :v', ExpressionAttributeValues: { ':v': v } };
    const put = (Item: object) => ignoreNewer(this.doc.send(new PutCommand({ TableName: T, Item: Item as Record<string, unknown>, ...notNewer })));
    const del = (pk: string, sk: string) =>
      ignoreNewer(
        this.doc.send(new DeleteCommand({ TableName: T, Key: { pk, sk }, ConditionExpression: 'version <= :v', ExpressionAttributeValues: { ':v': v } })),
      );
    const first: Promise<void>[] = [];
    const then: (() => Promise<void>)[] = [];
    const dropPage = (pk: string, old: string | undefined, kept?: string) => {
      if (old !== undefined && old !== kept) first.push(del(pk, old));
    };
    for (const i of p.inbox) {
      const page = inboxPageSk(i);
      dropPage(i.pk, current.inbox.get(i.player), page);
      first.push(put({ ...i, sk: page, type: 'inbox-page' }));
      then.push(() => put(i));
    }
    for (const player of p.dropInbox) {
      dropPage(inboxPk(player), current.inbox.get(player));
      then.push(() => del(inboxPk(player), gameSk(p.summary.gameId)));
    }
    if (p.lobby) {
      const lobby = p.lobby;
      const page = lobbyPageSk(lobby);
      dropPage(LOBBY_PK, current.lobby, page);
      first.push(put({ ...lobby, sk: page, type: 'lobby-page' }));
      then.push(() => put(lobby));
    } else if (current.lobby !== undefined) {
      dropPage(LOBBY_PK, current.lobby);
      then.push(() => del(LOBBY_PK, gameSk(p.summary.gameId)));
    }
    await Promise.all(first);
    await Promise.all(then.map((w) => w()));
    const gate = prev
      ? { ConditionExpression: 'version = :prev', ExpressionAttributeValues: { ':prev': prev.version } }
      : { ConditionExpression: 'attribute_not_exists(pk)' };
    await this.doc.send(new PutCommand({ TableName: T, Item: p.summary, ...gate }));
  }

  /** Whether a PAGE# item is the twin its partition's GAME# item has now (the rebuild's sweep asks). */
  async pageIsCurrent(pk: string, sk: string, gameId: string): Promise<boolean> {
    const r = await this.doc.send(new GetCommand({ TableName: this.tableName, Key: { pk, sk: gameSk(gameId) }, ConsistentRead: true }));
    if (!r.Item) return false;
    return (pk === LOBBY_PK ? lobbyPageSk(r.Item as LobbyModel) : inboxPageSk(r.Item as InboxModel)) === sk;
  }

  /** A player's games, all of them, in GAME#<gameId> order (the HTTP listing pages instead: inboxPage). */
  async inbox(player: string): Promise<InboxModel[]> {
    return (await this.queryAll(inboxPk(player), 'GAME#')) as unknown as InboxModel[];
  }

  async lobby(): Promise<LobbyModel[]> {
    return (await this.queryAll(LOBBY_PK, 'GAME#')) as unknown as LobbyModel[];
  }

  /**
   * One page of a player's games in list order: "your move" first (longest waiting first),
   * then the rest, most recently changed first. `after` is the `next` of the page before.
   */
  async inboxPage(
    player: string,
    opts: { limit: number; after?: string | undefined; yourMove?: boolean | undefined; status?: string | undefined },
  ): Promise<Page<InboxModel>> {
    const filter =
      opts.status === undefined ? undefined : { expression: '#status = :status', names: { '#status': 'status' }, values: { ':status': opts.status } };
    return (await this.page(inboxPk(player), inboxPagePrefix(opts.yourMove), opts.limit, opts.after, filter)) as unknown as Page<InboxModel>;
  }

  /** How many of a player's games wait for their move (one COUNT Query over the PAGE#0# range). */
  async yourMoveCount(player: string, status?: string): Promise<number> {
    let n = 0;
    let start: Record<string, unknown> | undefined;
    do {
      const r = await this.doc.send(
        new QueryCommand({
          TableName: this.tableName,
          Select: 'COUNT',
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ...(status === undefined
            ? { ExpressionAttributeValues: { ':pk': inboxPk(player), ':prefix': inboxPagePrefix(true) } }
            : {
                FilterExpression: '#status = :status',
                ExpressionAttributeNames: { '#status': 'status' },
                ExpressionAttributeValues: { ':pk': inboxPk(player), ':prefix': inboxPagePrefix(true), ':status': status },
              }),
          ExclusiveStartKey: start,
        }),
      );
      n += r.Count ?? 0;
      start = r.LastEvaluatedKey;
    } while (start);
    return n;
  }

  /** One page of the open games, newest first. */
  async lobbyPage(opts: { limit: number; after?: string | undefined; engine?: string | undefined }): Promise<Page<LobbyModel>> {
    const filter =
      opts.engine === undefined ? undefined : { expression: '#engine = :engine', names: { '#engine': 'engine' }, values: { ':engine': opts.engine } };
    return (await this.page(LOBBY_PK, PAGE_PREFIX, opts.limit, opts.after, filter)) as unknown as Page<LobbyModel>;
  }

  /**
   * Up to `limit` items of one partition's key range, after `after`. It asks for one item
   * more than the page holds, so an unfiltered page is one Query that also knows whether
   * another page follows (no empty last page). A filter is applied after DynamoDB's Limit, so
   * a filtered page may take more Queries; it stops after MAX_QUERIES_PER_PAGE and hands back
   * a shorter page with a cursor where it stopped.
   */
  private async page(
    pk: string,
    prefix: string,
    limit: number,
    after: string | undefined,
    filter?: { expression: string; names: Record<string, string>; values: Record<string, unknown> },
  ): Promise<Page<Record<string, unknown>>> {
    if (after !== undefined && !after.startsWith(prefix)) throw new Error(`page cursor ${after} is outside ${prefix}`);
    const items: Record<string, unknown>[] = [];
    let start: Record<string, unknown> | undefined = after === undefined ? undefined : { pk, sk: after };
    for (let queries = 1; ; queries++) {
      const want = limit + 1 - items.length;
      const input: QueryCommandInput = {
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix, ...filter?.values },
        ...(filter ? { FilterExpression: filter.expression, ExpressionAttributeNames: filter.names } : {}),
        // Filtered: read a few pages' worth per Query, since many items may not match.
        Limit: filter ? Math.max(want, 4 * (limit + 1)) : want,
        ...(start ? { ExclusiveStartKey: start } : {}),
      };
      const r = await this.doc.send(new QueryCommand(input));
      items.push(...((r.Items ?? []) as Record<string, unknown>[]));
      start = r.LastEvaluatedKey;
      if (items.length > limit) return { items: items.slice(0, limit), next: String(items[limit - 1]!['sk']) };
      if (!start) return { items };
      if (queries >= MAX_QUERIES_PER_PAGE) return { items, next: String(start['sk']) };
    }
  }

  private async queryAll(pk: string, prefix: string): Promise<Record<string, unknown>[]> {
    const out: Record<string, unknown>[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const r = await this.doc.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix },
          ExclusiveStartKey: start,
        }),
      );
      out.push(...((r.Items ?? []) as Record<string, unknown>[]));
      start = r.LastEvaluatedKey;
    } while (start);
    return out;
  }
}

/** A conditional write whose condition failed found a newer projection there (or nothing to delete): nothing to do. */
async function ignoreNewer(write: Promise<unknown>): Promise<void> {
  try {
    await write;
  } catch (e) {
    if (!isConditionFailure(e)) throw e;
  }
}

export function isConditionFailure(e: unknown): boolean {
  if (e instanceof TransactionCanceledException) return (e.CancellationReasons ?? []).some((r) => r.Code === 'ConditionalCheckFailed');
  return (e as { name?: string } | null)?.name === 'ConditionalCheckFailedException';
}
