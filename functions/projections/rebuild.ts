import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { foldEvent, summarize, type AnyEngine, type EngineCatalog, type EventEnvelope, type GameState, type GameSummary } from '../../domain/kernel/index.js';
import { DynamoEventStore } from '../store/dynamo-event-store.js';
import { documentClient, isConditionFailure } from '../store/document-client.js';
import { ACTIVE_PREFIX, gameSk, LOBBY_PK, PAGE_PREFIX, summaryPk, SUMMARY_SK } from './keys.js';
import { projectSequence, type GameProjection } from './project.js';
import { projectionKeys, ReadModelStore } from './read-model-store.js';

/**
 * Rebuilding the read models from the truth: every game's events, folded with its engine.
 * One append is one run of consecutive events with the same commandId (the store writes a
 * command's events in one transaction, with one HEAD), so summarizing after each run gives
 * exactly the summaries the stream carried, and projectSequence turns them into the same
 * items the stream path wrote.
 */
export function appendsOf(events: readonly EventEnvelope[]): EventEnvelope[][] {
  const out: EventEnvelope[][] = [];
  for (const e of events) {
    const last = out[out.length - 1];
    if (last && last[0]!.commandId === e.commandId) last.push(e);
    else out.push([e]);
  }
  return out;
}

export function summariesFromEvents(engine: AnyEngine, events: readonly EventEnvelope[]): GameSummary[] {
  const out: GameSummary[] = [];
  let state: GameState | undefined;
  for (const run of appendsOf(events)) {
    for (const e of run) state = foldEvent(engine, state, e);
    out.push(summarize(engine, state!));
  }
  return out;
}

export function rebuildGame(engine: AnyEngine, events: readonly EventEnvelope[]): GameProjection | undefined {
  return projectSequence(summariesFromEvents(engine, events));
}

export interface RebuildReport {
  readonly games: number;
  readonly written: number;
  /** Games whose read models were already newer (the live projector moved on meanwhile). */
  readonly keptNewer: number;
  /** Read-model items that matched no game and were deleted. */
  readonly removed: number;
  readonly failed: readonly { gameId: string; error: string }[];
}

const isReadModelPk = (pk: string) => pk === LOBBY_PK || pk.startsWith('INBOX#') || pk.startsWith('SUMMARY#');

/**
 * Replays every game in `sourceTable` into the read models of `targetTable` (the same table
 * by default). Items of games that no longer exist, or of players no longer in a game, are
 * deleted. Safe to run while the projector runs: a game whose read models are newer than
 * the events it read is left alone.
 */
export async function rebuildReadModels(opts: {
  client: DynamoDBClient;
  sourceTable: string;
  targetTable?: string;
  engines: EngineCatalog;
  log?: (line: string) => void;
}): Promise<RebuildReport> {
  const doc = documentClient(opts.client);
  const target = opts.targetTable ?? opts.sourceTable;
  const store = new DynamoEventStore({ client: opts.client, tableName: opts.sourceTable });
  const models = new ReadModelStore(opts.client, target);
  const keep = new Set<string>();
  let games = 0;
  let written = 0;
  let keptNewer = 0;
  const failed: { gameId: string; error: string }[] = [];

  const scanned = new Set<string>();
  // Every game has one SECRET item, whatever the layout of its events (one HEAD, or a HEAD# item per command).
  for await (const secret of scanAll(doc, opts.sourceTable, 'sk = :secret AND begins_with(pk, :game)', { ':secret': 'SECRET', ':game': 'GAME#' })) {
    const gameId = String(secret['pk']).slice('GAME#'.length);
    scanned.add(gameId);
    games++;
    try {
      const events = await store.readEvents(gameId, 0, Number.MAX_SAFE_INTEGER);
      const engineId = String((events[0]?.data as { engine?: string } | undefined)?.engine);
      const engine = await opts.engines.load(engineId);
      if (!engine) throw new Error(`engine ${engineId} is not registered`);
      const projection = rebuildGame(engine, events);
      if (!projection) continue;
      for (const key of projectionKeys(projection)) keep.add(key);
      if ((await models.put(projection)) === 'applied') written++;
      else keptNewer++;
    } catch (e) {
      failed.push({ gameId, error: (e as Error).message });
      opts.log?.(`game ${gameId}: ${(e as Error).message}`);
      // Leave a failed game's read models as they are.
      keep.add(`${summaryPk(gameId)}|${SUMMARY_SK}`);
      keep.add(`*|${gameSk(gameId)}`);
    }
  }

  // A game created after the scan above (the live projector wrote its read models meanwhile) is new, not stray.
  const createdSince = new Map<string, boolean>();
  const isNewGame = async (gameId: string): Promise<boolean> => {
    if (scanned.has(gameId)) return false;
    let known = createdSince.get(gameId);
    if (known === undefined) {
      known =
        (
          await doc.send(
            new GetCommand({ TableName: opts.sourceTable, Key: { pk: `GAME#${gameId}`, sk: 'SECRET' }, ProjectionExpression: 'pk', ConsistentRead: true }),
          )
        ).Item !== undefined;
      createdSince.set(gameId, known);
    }
    return known;
  };

  let removed = 0;
  for await (const item of scanAll(doc, target, 'begins_with(pk, :inbox) OR begins_with(pk, :summary) OR pk = :lobby', {
    ':inbox': 'INBOX#',
    ':summary': 'SUMMARY#',
    ':lobby': LOBBY_PK,
  })) {
    const pk = String(item['pk']);
    const sk = String(item['sk']);
    if (!isReadModelPk(pk) || keep.has(`${pk}|${sk}`) || keep.has(`*|${sk}`)) continue;
    if (sk.startsWith(PAGE_PREFIX) || sk.startsWith(ACTIVE_PREFIX)) {
      // An entry stays while its game's SUMMARY lists it. One the live projector wrote after
      // that SUMMARY was read has a newer version, and the conditional delete leaves it.
      const gameId = String(item['gameId'] ?? '');
      const at = await models.pageIsCurrent(pk, sk, gameId);
      if (at.current || (at.version === undefined && (await isNewGame(gameId)))) continue;
      if (at.version !== undefined) {
        try {
          await doc.send(
            new DeleteCommand({
              TableName: target,
              Key: { pk, sk },
              ConditionExpression: 'attribute_not_exists(version) OR version <= :v',
              ExpressionAttributeValues: { ':v': at.version },
            }),
          );
          removed++;
        } catch (e) {
          if (!isConditionFailure(e)) throw e;
        }
        continue;
      }
    } else {
      // A GAME# item of before one item per entry, or a SUMMARY of a game that is gone.
      const gameId = pk.startsWith('SUMMARY#') ? pk.slice('SUMMARY#'.length) : sk.slice('GAME#'.length);
      if (await isNewGame(gameId)) continue;
    }
    await doc.send(new DeleteCommand({ TableName: target, Key: { pk, sk } }));
    removed++;
  }
  return { games, written, keptNewer, removed, failed };
}

async function* scanAll(
  doc: ReturnType<typeof documentClient>,
  table: string,
  filter: string,
  values: Record<string, unknown>,
): AsyncGenerator<Record<string, unknown>> {
  let start: Record<string, unknown> | undefined;
  do {
    const r = await doc.send(
      new ScanCommand({
        TableName: table,
        FilterExpression: filter,
        ExpressionAttributeValues: values,
        ConsistentRead: true,
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    for (const i of r.Items ?? []) yield i as Record<string, unknown>;
    start = r.LastEvaluatedKey;
  } while (start);
}
