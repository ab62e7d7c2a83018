import '../../functions/quiet-sdk.js';
/**
 * `npm run bench`: figures, not a test. Starts its own DynamoDB Local (in memory), plays a
 * long Dice Race game through the real application service and DynamoDB event store, and
 * prints
 *   1. DynamoDB calls per command on that long game (must be 1 read + 1 write: exits 1 if not),
 *   2. command latency p50/p95, as a ratio to a raw Query + TransactWriteItems baseline of the
 *      same shape run interleaved in the same process against the same DynamoDB Local,
 *   3. fold throughput of the fixture engine (events per second), and verifier throughput.
 * BENCH_COMMANDS (default 600) sets the game's length.
 */
import { performance } from 'node:perf_hooks';
import { QueryCommand, TransactWriteItemsCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createRegistry, foldAll, verifyLog, type EventEnvelope } from '../../domain/kernel/index.js';
import { createDynamoGameService } from '../../functions/app/adapters.js';
import { gamePk, eventSk, commandSk } from '../../functions/store/dynamo-event-store.js';
import { localClient, startDynamoLocal } from '../../functions/store/dynamodb-local.js';
import { ensureTable } from '../../functions/store/table.js';
import { diceRace } from '../fixtures/dice-race.js';
import { countCalls } from '../store/call-counter.js';

const COMMANDS = Number(process.env['BENCH_COMMANDS'] ?? 600);
const WARMUP = 40;
const SNAPSHOT_EVERY = 50;
const READS = new Set(['QueryCommand', 'GetItemCommand', 'BatchGetItemCommand', 'ScanCommand', 'TransactGetItemsCommand']);
const WRITES = new Set(['TransactWriteItemsCommand', 'PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'BatchWriteItemCommand']);

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const ms = (x: number) => `${x.toFixed(2)} ms`;

/**
 * The least a command could cost: one Query of the game's partition (same key condition,
 * page size and consistency as the store's load) and one TransactWriteItems of the same
 * items (CMD, conditional HEAD, the command's events), on a partition of its own, with the
 * raw client (no document marshalling, no fold, no decide, no hashing).
 */
function baseline(client: DynamoDBClient, tableName: string, gameId: string) {
  const pk = `GAME#baseline-${gameId}`;
  let version = 0;
  let n = 0;
  return async (events: readonly EventEnvelope[]): Promise<number> => {
    const t0 = performance.now();
    await client.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND sk >= :ev',
        ExpressionAttributeValues: { ':pk': { S: gamePk(gameId) }, ':ev': { S: 'EV#' } },
        ConsistentRead: true,
        ScanIndexForward: false,
        Limit: SNAPSHOT_EVERY + 3,
      }),
    );
    const to = version + events.length;
    const cmd = `base-${++n}`;
    await client.send(
      new TransactWriteItemsCommand({
        TransactItems: [
          {
            Put: {
              TableName: tableName,
              Item: { pk: { S: pk }, sk: { S: commandSk(cmd) }, from: { N: String(version + 1) }, to: { N: String(to) } },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          {
            Put: {
              TableName: tableName,
              Item: { pk: { S: pk }, sk: { S: 'HEAD' }, version: { N: String(to) } },
              ...(version === 0
                ? { ConditionExpression: 'attribute_not_exists(pk)' }
                : { ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': { N: String(version) } } }),
            },
          },
          ...events.map((e, i) => ({
            Put: {
              TableName: tableName,
              Item: { pk: { S: pk }, sk: { S: eventSk(version + i + 1) }, seq: { N: String(version + i + 1) }, envelope: { S: JSON.stringify(e) } },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          })),
        ],
      }),
    );
    version = to;
    return performance.now() - t0;
  };
}

async function main(): Promise<number> {
  const started = performance.now();
  console.log(`Fieldpost bench: ${COMMANDS} commands of Dice Race on DynamoDB Local (in memory), snapshot every ${SNAPSHOT_EVERY} events`);
  const dynamo = await startDynamoLocal();
  const client = localClient(dynamo.endpoint);
  try {
    const tableName = 'bench';
    await ensureTable(client, tableName);
    const engines = createRegistry([diceRace]);
    const calls = countCalls(client);
    const { service, store } = createDynamoGameService({ client, tableName, engines, snapshotEvery: SNAPSHOT_EVERY });

    // A race to 10 000 does not end within the bench: every command is an ordinary move.
    const { gameId } = await service.create('alice', { engine: 'dice-race', options: { target: 10_000 }, seat: 'p1', commandId: 'bench-create' });
    await service.join('bob', gameId, { commandId: 'bench-join' });
    const raw = baseline(client, tableName, gameId);
    let turn = 0;
    const move = async (i: number) => {
      const player = turn++ % 2 === 0 ? 'alice' : 'bob';
      return service.submit(player, gameId, { command: { type: 'Roll' }, commandId: `bench-${i}` });
    };
    for (let i = 0; i < WARMUP; i++) {
      const r = await move(-i - 1);
      await raw(r.events.length ? await store.readEvents(gameId, r.version - 2, 2) : []);
    }

    const svcMs: number[] = [];
    const baseMs: number[] = [];
    let reads = 0;
    let writes = 0;
    let other = 0;
    let bad = 0;
    const first = (await service.view(null, gameId)).summary.version;
    const statsBefore = { ...store.stats };
    let last: EventEnvelope[] = [];
    for (let i = 0; i < COMMANDS; i++) {
      calls.reset();
      const t0 = performance.now();
      const r = await move(i);
      svcMs.push(performance.now() - t0);
      let cr = 0;
      let cw = 0;
      for (const [name, k] of Object.entries(calls.counts)) {
        if (READS.has(name)) cr += k;
        else if (WRITES.has(name)) cw += k;
        else other += k;
      }
      reads += cr;
      writes += cw;
      if (cr !== 1 || cw !== 1) {
        bad++;
        if (bad <= 5) console.error(`  command ${i} at version ${r.version} made ${JSON.stringify(calls.counts)}`);
      }
      // The baseline writes events of the same size and number as this command's (what the caller saw is enough: same shape).
      last = r.events.length === 2 ? r.events : last;
      calls.reset();
      baseMs.push(await raw(last.length ? last : r.events));
    }
    const lastVersion = (await service.view(null, gameId)).summary.version;

    console.log('');
    console.log(`1. DynamoDB calls per command on a long game (versions ${first} -> ${lastVersion}, ${COMMANDS} commands):`);
    console.log(
      `   reads ${(reads / COMMANDS).toFixed(2)} + writes ${(writes / COMMANDS).toFixed(2)} per command (other calls: ${other}); commands not exactly 1 + 1: ${bad}`,
    );
    console.log(
      `   store: extra load pages ${store.stats.extraPages - statsBefore.extraPages}, torn reads ${store.stats.tornReads - statsBefore.tornReads}, snapshots written ${store.stats.snapshotsWritten - statsBefore.snapshotsWritten}, skipped ${store.stats.snapshotsSkipped - statsBefore.snapshotsSkipped}`,
    );

    const [sp50, sp95, bp50, bp95] = [pct(svcMs, 50), pct(svcMs, 95), pct(baseMs, 50), pct(baseMs, 95)];
    console.log('');
    console.log('2. Command latency against DynamoDB Local (same process, interleaved):');
    console.log(`   service command        p50 ${ms(sp50)}  p95 ${ms(sp95)}`);
    console.log(`   raw Query+TransactWrite p50 ${ms(bp50)}  p95 ${ms(bp95)}`);
    console.log(`   ratio service/raw      p50 ${(sp50 / bp50).toFixed(2)}x  p95 ${(sp95 / bp95).toFixed(2)}x`);

    // Fold throughput: the whole log, from nothing, repeatedly for about two seconds.
    await service.resign('bob', gameId, { commandId: 'bench-resign' });
    const log = await service.exportLog(null, gameId);
    let folds = 0;
    const f0 = performance.now();
    while (performance.now() - f0 < 2000) {
      foldAll(diceRace, log);
      folds++;
    }
    const foldSecs = (performance.now() - f0) / 1000;
    const v0 = performance.now();
    const report = verifyLog(log, (id) => engines.get(id));
    const verifySecs = (performance.now() - v0) / 1000;
    console.log('');
    console.log('3. Fold throughput of the fixture engine (kernel foldEvent + Dice Race evolve):');
    console.log(
      `   ${Math.round((folds * log.length) / foldSecs).toLocaleString('en')} events/s (${folds} folds of ${log.length} events in ${foldSecs.toFixed(2)} s)`,
    );
    console.log(
      `   verifyLog of the exported log (hash chain, every die, refold): ${report.ok ? 'ok' : 'FAILED ' + report.problems.join('; ')}, ${Math.round(log.length / verifySecs).toLocaleString('en')} events/s`,
    );
    console.log('');
    console.log(`done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    if (bad > 0 || reads !== COMMANDS || writes !== COMMANDS) {
      console.error(`FAIL: calls per command must be 1 read + 1 write; ${bad} of ${COMMANDS} commands were not`);
      return 1;
    }
    if (!report.ok) return 1;
    return 0;
  } finally {
    client.destroy();
    await dynamo.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);

// ---------------------------------------------------------------------------------------------
// Tournaments: time to pair a 500-player Swiss round (mid-event, round 5, with four rounds of
// history). Pure and synchronous, so it runs (and prints) while main() waits for DynamoDB Local.
import { benchSwissPairing } from '../tournament/bench-swiss.js';

{
  const swiss = benchSwissPairing();
  console.log('');
  console.log(
    `Tournaments: pairing a 500-player Swiss round 5 (median of ${swiss.runs}): ${swiss.swissPair500Ms} ms, worst ${swiss.worstMs} ms (target < 1000 ms)`,
  );
  console.log(JSON.stringify({ swissPair500Ms: swiss.swissPair500Ms }));
  if (swiss.worstMs >= 1000) console.error('SLOW: Swiss pairing of 500 players took 1 s or more');
}
