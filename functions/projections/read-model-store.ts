import { TransactionCanceledException, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, QueryCommand, TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { GameSummary } from '../../domain/kernel/index.js';
import { gameSk, inboxPk, LOBBY_PK, projectGame, summaryPk, SUMMARY_SK, type GameProjection, type InboxModel, type LobbyModel, type SummaryModel } from './project.js';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

export const documentClient = (client: DynamoDBClient) => DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });

export type ApplyResult = 'applied' | 'stale';

/**
 * The read models on the one table. Every game's items are written in one transaction
 * gated on the SUMMARY item's version, so a record applied twice or out of order changes
 * nothing (the gate refuses it), and inbox, lobby and summary never disagree.
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

  /** Applies one HEAD summary if it is newer than what the read models hold. */
  async apply(next: GameSummary): Promise<ApplyResult> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const prev = await this.getSummary(next.gameId);
      if (prev && prev.version >= next.version) return 'stale';
      const projection = projectGame(prev, next);
      const gate = prev
        ? { ConditionExpression: 'version = :prev', ExpressionAttributeValues: { ':prev': prev.version } }
        : { ConditionExpression: 'attribute_not_exists(pk)' };
      try {
        await this.write(projection, gate);
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
   * may have moved on while the rebuild ran). Returns 'stale' when it kept the newer one.
   */
  async put(projection: GameProjection): Promise<ApplyResult> {
    try {
      await this.write(projection, { ConditionExpression: 'attribute_not_exists(pk) OR version <= :v', ExpressionAttributeValues: { ':v': projection.summary.version } });
      return 'applied';
    } catch (e) {
      if (isConditionFailure(e)) return 'stale';
      throw e;
    }
  }

  private async write(p: GameProjection, gate: { ConditionExpression: string; ExpressionAttributeValues?: Record<string, unknown> }): Promise<void> {
    const T = this.tableName;
    const items: TransactItem[] = [{ Put: { TableName: T, Item: p.summary, ...gate } }];
    for (const i of p.inbox) items.push({ Put: { TableName: T, Item: i } });
    for (const player of p.dropInbox) items.push({ Delete: { TableName: T, Key: { pk: inboxPk(player), sk: gameSk(p.summary.gameId) } } });
    if (p.lobby) items.push({ Put: { TableName: T, Item: p.lobby } });
    else items.push({ Delete: { TableName: T, Key: { pk: LOBBY_PK, sk: gameSk(p.summary.gameId) } } });
    await this.doc.send(new TransactWriteCommand({ TransactItems: items }));
  }

  /** A player's games, newest change first. */
  async inbox(player: string): Promise<InboxModel[]> {
    return (await this.queryAll(inboxPk(player))) as unknown as InboxModel[];
  }

  async lobby(): Promise<LobbyModel[]> {
    return (await this.queryAll(LOBBY_PK)) as unknown as LobbyModel[];
  }

  private async queryAll(pk: string): Promise<Record<string, unknown>[]> {
    const out: Record<string, unknown>[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const r = await this.doc.send(new QueryCommand({ TableName: this.tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk }, ExclusiveStartKey: start }));
      out.push(...((r.Items ?? []) as Record<string, unknown>[]));
      start = r.LastEvaluatedKey;
    } while (start);
    return out;
  }
}

export function isConditionFailure(e: unknown): boolean {
  if (e instanceof TransactionCanceledException) return (e.CancellationReasons ?? []).some((r) => r.Code === 'ConditionalCheckFailed');
  return (e as { name?: string } | null)?.name === 'ConditionalCheckFailedException';
}
