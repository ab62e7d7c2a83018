import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, type DynamoDBDocumentClient, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { GameSummary } from '../../domain/kernel/index.js';
import { documentClient, isConditionFailure } from '../store/document-client.js';
import { ACTIVE_PREFIX, gameSk, inboxPageSk, inboxPk, LOBBY_PK, lobbyPageSk, PAGE_PREFIX, summaryPk, SUMMARY_SK } from './keys.js';
import { projectRun, sameContent, type Entry, type GameProjection, type InboxModel, type LobbyModel, type SummaryModel } from './project.js';

/** Inbox entries in list order: by listing key (keys.ts inboxPageSk). */
const inListOrder = (items: InboxModel[]): InboxModel[] =>
  items
    .map((i) => ({ i, key: inboxPageSk(i) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map((x) => x.i);
/** The key range of each inbox listing: everything, your move only, or the others only. */
export const inboxPagePrefix = (yourMove?: boolean): string => (yourMove === undefined ? PAGE_PREFIX : `${PAGE_PREFIX}${yourMove ? 0 : 1}#`);

/** Every `pk|sk` a projection puts in the table (the rebuild keeps these and sweeps the rest). */
export function projectionKeys(p: GameProjection): string[] {
  return [p.summary, ...p.inbox, ...(p.lobby ? [p.lobby] : [])].map((i) => `${i.pk}|${i.sk}`);
}

/** The partition an entry is in. */
const entryPk = (e: Pick<Entry, 'player'>): string => (e.player === undefined ? LOBBY_PK : inboxPk(e.player));

/** One page of a listing, in list order; `next` is the sort key to start after, if more may follow. */
export interface Page<T> {
  readonly items: T[];
  readonly next?: string;
}

/** A filtered listing may read past many non-matching items; a request stops after this many Queries. */
const MAX_QUERIES_PER_PAGE = 8;

export type ApplyResult = 'applied' | 'stale';

/** The entries a game has in the table, and the partitions that still hold its GAME# item of before one item per entry. */
interface Entries {
  readonly entries: readonly Entry[];
  readonly legacy: readonly string[];
}

const playersOf = (prev: SummaryModel): string[] => prev.summary.seats.map((s) => s.player).filter((p): p is string => p !== null);

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
    return r.Item ? fromStored(r.Item as SummaryModel) : undefined;
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
      const summaries = [...before, next].filter((s) => !prev || s.version > prev.version);
      const { projection, passed } = projectRun(prev, summaries)!;
      try {
        await this.write(projection, prev, await this.entriesOf(projection, prev), passed);
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
        await this.write(projection, prev, await this.entriesOf(projection, prev));
        return 'applied';
      } catch (e) {
        if (!isConditionFailure(e)) throw e;
      }
    }
    // Not 'stale': nothing newer was seen, the live projector just kept writing first.
    throw new Error(`game ${projection.summary.gameId}: the live projector kept changing its read models during 5 attempts; run the rebuild again`);
  }

  /**
   * The entries the table holds for the game: those its SUMMARY lists. A SUMMARY written before
   * one item per entry lists none; then each GAME# item the game may have (one per player the
   * projection touches, and the lobby's) is read (ConsistentRead) for where its PAGE# twin is, and
   * both are replaced. Any change after this read also changes the SUMMARY version, which the
   * write is gated on.
   */
  private async entriesOf(p: GameProjection, prev: SummaryModel | undefined): Promise<Entries> {
    if (!prev) return { entries: [], legacy: [] };
    if (prev.entries) return { entries: prev.entries, legacy: [] };
    const gameId = p.summary.gameId;
    const keys = [
      ...new Set([...p.inbox.map((i) => i.player), ...p.dropInbox, ...playersOf(prev)].map(inboxPk)),
      ...(p.lobby || prev.summary.status === 'open' ? [LOBBY_PK] : []),
    ];
    const found = await Promise.all(
      keys.map(async (pk) => {
        const r = await this.doc.send(
          new GetCommand({
            TableName: this.tableName,
            Key: { pk, sk: gameSk(gameId) },
            ConsistentRead: true,
            ProjectionExpression: 'gameId, player, yourMove, #since, updatedAt, createdAt',
            ExpressionAttributeNames: { '#since': 'since' },
          }),
        );
        return r.Item ? { pk, item: r.Item } : undefined;
      }),
    );
    const present = found.filter((f) => f !== undefined);
    return {
      // No digest: every entry is written anew.
      entries: present.map(({ pk, item }) =>
        pk === LOBBY_PK
          ? { sk: lobbyPageSk(item as LobbyModel), digest: '', version: 0, updatedAt: '' }
          : { player: pk.slice('INBOX#'.length), sk: inboxPageSk(item as InboxModel), digest: '', version: 0, updatedAt: '' },
      ),
      legacy: present.map((f) => f.pk),
    };
  }

  /**
   * The projection's changed items, each its own conditional write (no transaction: half the
   * write units). An entry whose content and stamp are as the table holds them is not written
   * (its stamp is the append that last changed it: project.ts Entry). Each item written carries
   * a version and is written only if the table holds no newer one, so a repeated or late write
   * changes nothing; the SUMMARY item is written last, gated on the version read, so a write cut
   * short is redone whole by the record's retry. Order keeps a listing free of duplicates
   * across a crash: entries that move (a new sort key) or go are deleted first, then the new
   * items written, then the summary. A game that was not and is not in the lobby touches no
   * lobby item. `passed`: the entries of the versions between the SUMMARY's and the projection's
   * (projectRun), which a write cut short may have put where the SUMMARY does not say; deleted
   * too, unless the projection keeps them (a cost only when a run of changes is applied at once).
   */
  private async write(p: GameProjection, prev: SummaryModel | undefined, current: Entries, passed: readonly Entry[] = []): Promise<void> {
    const T = this.tableName;
    const v = p.summary.version;
    const notNewer = { ConditionExpression: 'attribute_not_exists(pk) OR version <= :v', ExpressionAttributeValues: { ':v': v } };
    const put = (Item: object) => ignoreNewer(this.doc.send(new PutCommand({ TableName: T, Item: Item as Record<string, unknown>, ...notNewer })));
    const del = (pk: string, sk: string) =>
      ignoreNewer(
        this.doc.send(new DeleteCommand({ TableName: T, Key: { pk, sk }, ConditionExpression: 'version <= :v', ExpressionAttributeValues: { ':v': v } })),
      );
    const held = new Map(current.entries.map((e) => [entryPk(e), e]));
    const next = new Map(p.summary.entries!.map((e) => [entryPk(e), e]));
    const first: Promise<void>[] = current.legacy.map((pk) => del(pk, gameSk(p.summary.gameId)));
    const then: (() => Promise<void>)[] = [];
    const gone = new Set<string>();
    for (const e of [...held.values(), ...passed]) {
      const pk = entryPk(e);
      if (next.get(pk)?.sk === e.sk || gone.has(`${pk}\n${e.sk}`)) continue;
      gone.add(`${pk}\n${e.sk}`);
      first.push(del(pk, e.sk));
    }
    for (const item of [...p.inbox, ...(p.lobby ? [p.lobby] : [])]) {
      const old = held.get(item.pk);
      const e = next.get(item.pk)!;
      if (old && old.sk === e.sk && old.digest === e.digest && old.version === e.version) continue;
      then.push(() => put(item));
    }
    await Promise.all(first);
    await Promise.all(then.map((w) => w()));
    // The SUMMARY as the table holds it (projectGame kept it: nothing a reader sees changed).
    if (prev && prev.version === p.summary.version && sameContent(prev, p.summary)) return;
    const gate = prev
      ? { ConditionExpression: 'version = :prev', ExpressionAttributeValues: { ':prev': prev.version } }
      : { ConditionExpression: 'attribute_not_exists(pk)' };
    await this.doc.send(new PutCommand({ TableName: T, Item: toStored(p.summary), ...gate }));
  }

  /**
   * Whether the PAGE# or ACTIVE# item pk/sk of a game is an entry its SUMMARY lists, by the SUMMARY's
   * version (the rebuild's sweep asks, and deletes an item that is not only if its version is
   * not newer than that). A SUMMARY of before one item per entry: whether the GAME# item there
   * points at it.
   */
  async pageIsCurrent(pk: string, sk: string, gameId: string): Promise<{ current: boolean; version?: number }> {
    const s = await this.getSummary(gameId);
    if (s?.entries) return { current: s.entries.some((e) => entryPk(e) === pk && e.sk === sk), version: s.version };
    const r = await this.doc.send(new GetCommand({ TableName: this.tableName, Key: { pk, sk: gameSk(gameId) }, ConsistentRead: true }));
    const current = r.Item !== undefined && (pk === LOBBY_PK ? lobbyPageSk(r.Item as LobbyModel) : inboxPageSk(r.Item as InboxModel)) === sk;
    return { current, ...(s ? { version: s.version } : {}) };
  }

  /** A player's games, all of them, in list order (the HTTP listing pages instead: inboxPage). */
  async inbox(player: string): Promise<InboxModel[]> {
    const [running, placed] = await Promise.all([this.running(player), this.queryAll(inboxPk(player), PAGE_PREFIX)]);
    return inListOrder([...running, ...(placed as unknown as InboxModel[])]);
  }

  /** The entries of a player's games not yet over: each at ACTIVE#<gameId>, at most the player's seat limit. */
  private async running(player: string): Promise<InboxModel[]> {
    return (await this.queryAll(inboxPk(player), ACTIVE_PREFIX)) as unknown as InboxModel[];
  }

  async lobby(): Promise<LobbyModel[]> {
    return (await this.queryAll(LOBBY_PK, PAGE_PREFIX)) as unknown as LobbyModel[];
  }

  /**
   * One page of a player's games in list order: "your move" first (longest waiting first),
   * then the rest, most recently changed first. `after` is the `next` of the page before. Two
   * Queries at once: the running games' entries (all) and a page of the PAGE# items. Also how
   * many running games wait for the player's move (with `status`, of that status).
   */
  async inboxPage(
    player: string,
    opts: { limit: number; after?: string | undefined; yourMove?: boolean | undefined; status?: string | undefined },
  ): Promise<Page<InboxModel> & { readonly runningYourMove: number }> {
    const filter =
      opts.status === undefined ? undefined : { expression: '#status = :status', names: { '#status': 'status' }, values: { ':status': opts.status } };
    const prefix = inboxPagePrefix(opts.yourMove);
    const [running, placed] = await Promise.all([
      this.running(player),
      this.page(inboxPk(player), prefix, opts.limit, opts.after, filter) as unknown as Promise<Page<InboxModel>>,
    ]);
    // The running games' entries, placed by listing key among the stored page: those up to where
    // the stored page stopped (placed.next), if it did; the page is the first `limit` of them.
    const after = opts.after;
    const bound = placed.next;
    const merged = inListOrder([
      ...running.filter((i) => {
        const key = inboxPageSk(i);
        return key.startsWith(prefix) && (after === undefined || key > after) && (bound === undefined || key <= bound);
      }),
      ...placed.items,
    ]).filter((i) => opts.status === undefined || i.status === opts.status);
    const items = merged.slice(0, opts.limit);
    const next = merged.length > opts.limit ? inboxPageSk(items.at(-1)!) : bound;
    const runningYourMove = running.filter((i) => i.yourMove && (opts.status === undefined || i.status === opts.status)).length;
    return { items, ...(next !== undefined ? { next } : {}), runningYourMove };
  }

  /** How many "your move" entries are stored at their listing key (PAGE#0#: a table written before ACTIVE#; one COUNT Query). */
  async placedYourMoveCount(player: string, status?: string): Promise<number> {
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

/**
 * The SUMMARY item as stored, without what it would hold twice: the summary's gameId and
 * version (the item's own), each entry's sort key without its `#<gameId>` end, and the stamp of
 * an entry stamped with the summary's own version (the summary holds the same version, hash
 * and time), and the stamp of an inbox entry stamped by the same append as an earlier one.
 * This keeps the item of a two-player game under 1 KB (one write unit, not two).
 */
function toStored(s: SummaryModel): SummaryModel {
  const { gameId: _g, version: _v, ...summary } = s.summary;
  const tail = `#${s.gameId}`;
  const stamped = new Set<number>();
  const entries = s.entries?.map((e) => {
    const sk = e.sk.endsWith(tail) ? e.sk.slice(0, -tail.length) : e.sk;
    const { version: _ev, hash: _h, updatedAt: _u, ...rest } = e;
    if (e.version === s.version) return { ...rest, sk } as Entry;
    // Inbox entries last changed by the same append share its stamp: the first one holds it.
    if (e.player === undefined) return { ...e, sk };
    if (stamped.has(e.version)) return { ...rest, sk, version: e.version } as Entry;
    stamped.add(e.version);
    return { ...e, sk };
  });
  return { ...s, summary: summary as GameSummary, ...(entries ? { entries } : {}) };
}

/** A SUMMARY item as the table holds it (compact), expanded as getSummary gives it. */
export function fromStored(s: SummaryModel): SummaryModel {
  const summary: GameSummary = { ...s.summary, gameId: s.gameId, version: s.version };
  const stamps = new Map<number, Entry>();
  const entries = s.entries?.map((e): Entry => {
    const sk = `${e.sk}#${s.gameId}`;
    if (e.version === undefined)
      return { ...e, sk, version: s.version, ...(e.player !== undefined ? { hash: summary.hash } : {}), updatedAt: summary.updatedAt };
    if (e.updatedAt !== undefined) {
      if (e.player !== undefined && !stamps.has(e.version)) stamps.set(e.version, e);
      return { ...e, sk };
    }
    const first = stamps.get(e.version)!;
    return { ...e, sk, hash: first.hash!, updatedAt: first.updatedAt };
  });
  return { ...s, summary, ...(entries ? { entries } : {}) };
}

/** A conditional write whose condition failed found a newer projection there (or nothing to delete): nothing to do. */
async function ignoreNewer(write: Promise<unknown>): Promise<void> {
  try {
    await write;
  } catch (e) {
    if (!isConditionFailure(e)) throw e;
  }
}
