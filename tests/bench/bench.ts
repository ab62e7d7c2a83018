import '../../functions/quiet-sdk.js';
/**
 * `npm run bench`: figures, not a test. Starts its own DynamoDB Local (in memory), plays a
 * long Dice Race game through the real application service and DynamoDB event store, and
 * prints
 *   1. DynamoDB calls per command on that long game (must be 1 read + 1 write: exits 1 if not),
 *   2. command latency p50/p95, as a ratio to a raw Query + TransactWriteItems baseline of the
 *      same shape run interleaved in the same process against the same DynamoDB Local,
 *   3. fold throughput of the fixture engine (events per second), and verifier throughput,
 *   4. events appended per command in a seeded Spearpoint game (median, p95, max), and
 *   5. the time to draw a Spearpoint mid-game scene as SVG and as PNG (median of many renders),
 *   6. cold start of every Lambda bundle against a hello-world bundle, and each bundle's size
 *      (tests/bench/cold-start.ts; `npm run bench:cold` runs this section alone),
 *   7. a finished Spearpoint game through the service: read and write units, latency against a
 *      raw baseline of the same bytes, bytes stored per event, and its cost in dollars,
 *   8. the projector over a synthetic stream of many such games (time and units),
 *   9. DynamoDB calls the scheduler's deadline handler makes per deadline (issue 10: each
 *      reminder and the time-out of a timed game, and a stale wake; target 1 read and at
 *      most 1 write: exits 1 if not).
 *  10. the local runtime restarted on a table with a short and a long stream history: the
 *      time until its stream poller has caught up from its checkpoint (target under 2 s for
 *      any history length).
 * BENCH_COMMANDS (default 600) sets the game's length. With --json, the figures are printed
 * as one JSON object on stdout (the report goes to stderr).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { QueryCommand, TransactWriteItemsCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  chain,
  createRegistry,
  decideCreate,
  decideJoin,
  decidePlay,
  foldAll,
  renderSvg,
  seedCommitment,
  seededRng,
  sha256Js,
  verifyLog,
  type EventEnvelope,
  type GameState,
  type NewEvent,
  type Result,
  type RuleViolation,
  type Scene,
} from '../../domain/kernel/index.js';
import { spearpoint, type State } from '../../domain/spearpoint/index.js';
import { pngReady, svgToPng } from '../../functions/notify/png.js';
import { createDynamoGameService, nodeSha256 } from '../../functions/app/adapters.js';
import { gamePk, eventSk, commandSk } from '../../functions/store/dynamo-event-store.js';
import { localClient, startDynamoLocal } from '../../functions/store/dynamodb-local.js';
import { ensureTable } from '../../functions/store/table.js';
import { diceRace } from '../fixtures/dice-race.js';
import { countCalls } from '../store/call-counter.js';
import { createDeadlineHandler } from '../../functions/handlers/deadline.js';
import { startLocalRuntime } from '../../functions/local/runtime.js';
import { startLocalNotifications, type LocalNotifications } from '../../functions/local/stream-poller.js';
import { BUNDLE } from '../../infra/handler-function.js';
import { coldStart } from './cold-start.js';
import {
  GAME_END_FILTER,
  MEMORY_MB,
  OLD_GAME_HEAD_FILTER,
  TOURNAMENT_LINE_FILTER,
  TOURNAMENT_STREAM_FILTER,
  WAKE_FILTER,
} from '../../infra/fieldpost-stack.js';
import { matchesStreamFilter } from '../infra/support.js';
import { DEFAULT_CONFIG } from '../../infra/config.js';
import { meterCapacity } from './capacity.js';
import { PRICES } from './prices.js';
import { playSpearpointGame, simulateProjector } from './spearpoint-game.js';
import { benchMapCalls } from '../spearpoint-map/bench.js';

const COMMANDS = Number(process.env['BENCH_COMMANDS'] ?? 600);
const WARMUP = 40;
const SNAPSHOT_EVERY = 50;
const READS = new Set(['QueryCommand', 'GetItemCommand', 'BatchGetItemCommand', 'ScanCommand', 'TransactGetItemsCommand']);
const WRITES = new Set(['TransactWriteItemsCommand', 'PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'BatchWriteItemCommand']);

const JSON_OUT = process.argv.includes('--json');
/** The report: on stdout, or on stderr when stdout carries the JSON figures. */
const say = (line = '') => (JSON_OUT ? console.error(line) : console.log(line));
const figures: Record<string, unknown> = {};

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

/**
 * A Spearpoint game played by seeded random legal commands through the kernel until combat on
 * turn 3 with shots fired: units in both battle areas, cards in hand, attacks with results.
 * Also the number of events each accepted game command appended (create and joins left out).
 */
function midGameScene(): { scene: Scene; eventsPerCommand: number[] } {
  const seed = 'be'.repeat(32);
  const pick = seededRng({ seed, gameId: 'bench-pick', entropy: [], counter: 0 });
  let events: EventEnvelope[] = [];
  let state: GameState<State> | undefined;
  const apply = (r: Result<NewEvent[], RuleViolation>, player: string) => {
    if (!r.ok) throw new Error(r.error.message);
    const head = state ? { version: state.meta.version, hash: state.meta.hash } : { version: 0, hash: '0'.repeat(64) };
    const more = chain(head, r.value, { gameId: 'bench-scene', commandId: `c${events.length}`, at: '2026-01-01T00:00:00.000Z', player });
    events = [...events, ...more];
    state = foldAll(spearpoint, more, state) as GameState<State>;
    return more.length;
  };
  const eventsPerCommand: number[] = [];
  apply(decideCreate(spearpoint, { gameId: 'bench-scene', options: {}, createdBy: 'alice', commitment: seedCommitment(seed) }), 'alice');
  apply(decideJoin(spearpoint, state!, { player: 'alice', seat: 'us', entropy: 'a' }, seed), 'alice');
  apply(decideJoin(spearpoint, state!, { player: 'bob', seat: 'de', entropy: 'b' }, seed), 'bob');
  const players = { us: 'alice', de: 'bob' } as const;
  for (let n = 0; n < 5000 && state!.meta.status === 'active'; n++) {
    const s = state!.game;
    if (s.turn >= 3 && s.phase === 'combat' && s.attacks.some((a) => a.shotsDone > 0)) break;
    const pending = spearpoint.pending(s);
    const seat = pending[pick.int(pending.length)]!.seat as 'us' | 'de';
    const legal = spearpoint.legalCommands(s, seat);
    // Commit and attack while possible, so the battle areas fill up.
    const busy = legal.filter((c) => c.type === 'CommitUnit' || c.type === 'DeclareAttack' || c.type === 'ResolveAttack');
    const pool = busy.length && s.seats[seat].order.length < 4 && pick.int(4) > 0 ? busy : legal;
    const command = pool[pick.int(pool.length)]!;
    eventsPerCommand.push(apply(decidePlay(spearpoint, state!, { player: players[seat], command, now: '2026-01-01T00:00:00.000Z' }, seed), players[seat]));
  }
  return { scene: spearpoint.scene!(state!.game, { kind: 'seat', seat: 'us' }), eventsPerCommand };
}

const median = (xs: number[]) => pct(xs, 50);
const PNG_WARMUP = 10;

/**
 * Median time per render of one scene: SVG (many runs) and PNG (after the WebAssembly and fonts
 * are loaded). And, from the game played to reach that scene, the events a Spearpoint command
 * appends (the kernel issue's figure: every event is an item in the command's transaction).
 */
async function pictures(): Promise<void> {
  const { scene, eventsPerCommand } = midGameScene();
  figures['eventsPerCommandMedian'] = median(eventsPerCommand);
  figures['eventsPerCommandMax'] = Math.max(...eventsPerCommand);
  say('');
  say(
    `4. Events appended per Spearpoint command (${eventsPerCommand.length} accepted commands of a seeded game to turn 3, in memory): median ${median(eventsPerCommand)}, p95 ${pct(eventsPerCommand, 95)}, max ${Math.max(...eventsPerCommand)}`,
  );
  const svgTimes: number[] = [];
  let svg = '';
  for (let i = 0; i < 300; i++) {
    const t0 = performance.now();
    svg = renderSvg(scene);
    svgTimes.push(performance.now() - t0);
  }
  const c0 = performance.now();
  await pngReady();
  const coldMs = performance.now() - c0;
  // The first render runs resvg's WebAssembly as V8's baseline compiler left it; V8 optimizes
  // the hot functions over the next few renders (on a busy 2-core machine, about ten), so
  // those are warm-up and the median is of the renders after them.
  const f0 = performance.now();
  await svgToPng(svg);
  const firstMs = performance.now() - f0;
  for (let i = 0; i < PNG_WARMUP; i++) await svgToPng(svg);
  const pngTimes: number[] = [];
  let bytes = 0;
  for (let i = 0; i < 15; i++) {
    const t0 = performance.now();
    bytes = (await svgToPng(svg)).length;
    pngTimes.push(performance.now() - t0);
  }
  figures['svgRenderMs'] = median(svgTimes);
  figures['pngRenderMs'] = median(pngTimes);
  figures['pngStartupMs'] = coldMs;
  figures['pngFirstRenderMs'] = firstMs;
  say('');
  say(
    `5. Board pictures: a Spearpoint mid-game scene (${scene.rows.flat().length} regions, ${svg.length.toLocaleString('en')} bytes of SVG, ${bytes.toLocaleString('en')} bytes of PNG):`,
  );
  say(`   scene to SVG  median ${ms(median(svgTimes))}  p95 ${ms(pct(svgTimes, 95))}  (target under 5 ms)`);
  say(
    `   SVG to PNG    median ${ms(median(pngTimes))}  p95 ${ms(pct(pngTimes, 95))}  (target under 50 ms; loading resvg and the fonts once: ${ms(coldMs)}, first render ${ms(firstMs)}, then ${PNG_WARMUP} warm-up renders)`,
  );
}

/** Microseconds per SHA-256 of an event-sized input: the kernel's plain one and node:crypto's, which the server injects. */
function hashes(): void {
  const data = new TextEncoder().encode('x'.repeat(400));
  const per = (f: (d: Uint8Array) => Uint8Array) => {
    for (let i = 0; i < 2000; i++) f(data);
    const t0 = performance.now();
    for (let i = 0; i < 20_000; i++) f(data);
    return ((performance.now() - t0) / 20_000) * 1000;
  };
  const [js, node] = [per(sha256Js), per(nodeSha256)];
  Object.assign(figures, { sha256JsUs: js, sha256NodeUs: node });
  say('');
  say(`SHA-256 of 400 bytes: plain TypeScript ${js.toFixed(2)} µs, node:crypto (injected on the server) ${node.toFixed(2)} µs`);
}

const SIM_COPIES = Number(process.env['BENCH_PROJECTOR_GAMES'] ?? 30);

/**
 * Section 7 and 8: a whole Spearpoint game (tests/bench/spearpoint-game.ts) and what it costs,
 * with the price table in tests/bench/prices.ts; then the projector over SIM_COPIES such games.
 */
async function spearpointGame(client: DynamoDBClient, tableName: string): Promise<void> {
  const meter = meterCapacity(client);
  const g = await playSpearpointGame(client, tableName, meter);
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const [cmdP50, baseP50] = [pct(g.command.ms, 50), pct(g.baselineMs, 50)];
  const gbs = (msList: number[], mb: number) => (sum(msList) / 1000) * (mb / 1024);
  // The traffic model (tests/bench/spearpoint-game.ts), the web client's: per command a POST, whose
  // reply carries the command's events and the view after it; a load (the view with the events after
  // the last one shown, one request) whenever a player's page does not show the current version. Its polling while a game is open is priced
  // per hour below, not per game.
  const apiRequests = g.commands + g.views + g.feeds;
  const passing = (filters: readonly object[]) => g.records.filter((r) => filters.some((f) => matchesStreamFilter(JSON.parse(JSON.stringify(f)), r))).length;
  const streamInvocations = {
    scheduler: passing([WAKE_FILTER, OLD_GAME_HEAD_FILTER, TOURNAMENT_LINE_FILTER]),
    tournaments: passing([TOURNAMENT_STREAM_FILTER, GAME_END_FILTER, OLD_GAME_HEAD_FILTER]),
  };
  // The client before its command replies carried the view read it again after every POST, and
  // before they carried the events it read the feed too.
  // Before a load read the view and its events in one request it made two.
  const requestsWithFeed = apiRequests + g.loads;
  const requestsWithViewRead = requestsWithFeed + g.repliesWithView;
  const requestsBefore = requestsWithViewRead + g.repliesWithView;
  const dollars = {
    dynamoReads: (g.command.rru + g.view.rru + g.feed.rru + g.projector.rru) * PRICES.dynamoReadRequestUnit,
    dynamoWrites: (g.command.wru + g.projector.wru) * PRICES.dynamoWriteRequestUnit,
    streamReads: g.records.length * PRICES.dynamoStreamReadByLambda,
    apiLambda: gbs([...g.command.ms, ...g.view.ms, ...g.feed.ms], MEMORY_MB.api) * PRICES.lambdaGbSecondArm + apiRequests * PRICES.lambdaRequest,
    projectorLambda: gbs(g.projector.ms, MEMORY_MB.projector) * PRICES.lambdaGbSecondArm + g.projector.invocations * PRICES.lambdaRequest,
    // The other two stream mappings, by what their filters (infra/fieldpost-stack.ts) pass of the
    // game's records, one record per invocation; their time not measured here: counted as one
    // 100 ms invocation at their memory (an assumption).
    schedulerLambda: streamInvocations.scheduler * (PRICES.lambdaRequest + 0.1 * (256 / 1024) * PRICES.lambdaGbSecondArm),
    tournamentsLambda: streamInvocations.tournaments * (PRICES.lambdaRequest + 0.1 * (512 / 1024) * PRICES.lambdaGbSecondArm),
  };
  const withoutFrontDoor = sum(Object.values(dollars));
  // What each front door (infra/config.ts frontDoor) adds per request: a function URL nothing beyond
  // the Lambda invocation, API Gateway's HTTP API its own charge.
  const frontDoorPerRequest = { functionUrl: 0, httpApi: PRICES.httpApiRequest } as const;
  const byFrontDoor = {
    functionUrl: withoutFrontDoor + apiRequests * frontDoorPerRequest.functionUrl,
    httpApi: withoutFrontDoor + apiRequests * frontDoorPerRequest.httpApi,
  };
  const frontDoor = DEFAULT_CONFIG.frontDoor;
  const withoutMail = byFrontDoor[frontDoor];
  // Mail: each notice one SQS message (send, receive, delete) and one SES mail; the notifier's own
  // time is not measured here: counted as one 100 ms invocation at its memory (an assumption).
  const mail =
    g.projector.jobs * (3 * PRICES.sqsRequest + PRICES.sesEmail + 0.1 * (MEMORY_MB.notifier / 1024) * PRICES.lambdaGbSecondArm + PRICES.lambdaRequest);
  const storageMonth = (g.storedBytes / 1024 ** 3) * PRICES.dynamoStorageGbMonth;
  // The floor of the request charges alone: every API request pays a Lambda invocation (and, behind
  // the HTTP API, API Gateway's charge), whatever the code does. With DynamoDB's least per command
  // (1 write unit for the command, 1 read unit to load it; 1 read and 1 write unit for the
  // projector), the floor of any design that keeps this request model and front door.
  const perRequest = PRICES.lambdaRequest + frontDoorPerRequest[frontDoor];
  const requestFloor = apiRequests * perRequest;
  const dynamoFloor = g.commands * (2 * PRICES.dynamoWriteRequestUnit + 2 * PRICES.dynamoReadRequestUnit);
  const pollPerHour = (3600 / 2) * perRequest;
  Object.assign(figures, {
    latencyRatioP50: cmdP50 / baseP50,
    spearpointCommandP50Ms: cmdP50,
    spearpointBaselineP50Ms: baseP50,
    spearpointCommands: g.commands,
    spearpointEvents: g.events,
    rruPerCommand: g.command.rru / g.commands,
    wruPerCommand: g.command.wru / g.commands,
    rruPerView: g.view.rru / g.views,
    projectorWruPerCommand: g.projector.wru / g.records.length,
    projectorRruPerCommand: g.projector.rru / g.records.length,
    projectorInvocationsPerCommand: g.projector.invocations / g.records.length,
    streamInvocationsPerGame: { projector: g.projector.invocations, ...streamInvocations },
    bytesPerEvent: g.storedBytes / g.events,
    eventBytesPerEvent: g.eventBytes / g.events,
    headBytes: g.headBytes,
    snapshotBytes: g.snapBytes,
    partBytes: g.partBytes,
    rruPerFeed: g.feeds ? g.feed.rru / g.feeds : 0,
    apiRequestsPerGame: apiRequests,
    apiRequestsPerCommand: apiRequests / g.commands,
    frontDoor,
    costPerGameUsd: withoutMail,
    costPerGameByFrontDoorUsd: byFrontDoor,
    costPerGameWithMailUsd: withoutMail + mail,
    costFloorUsd: { requests: requestFloor, withDynamo: requestFloor + dynamoFloor, pollingPerOpenHour: pollPerHour },
    cost: { ...dollars, httpApi: apiRequests * PRICES.httpApiRequest, mail, storagePerMonth: storageMonth, prices: PRICES.asOf },
  });
  say('');
  say(
    `7. A finished Spearpoint game through the service (${g.commands} commands, ${g.views} views, ${g.feeds} event-feed reads, ${g.events} events), DynamoDB's own units:`,
  );
  say(
    `   traffic model (the web client's): per command a POST, whose reply carries the command's events and the view after it; a load (the view with the events after the last one shown, one request) when a player's page does not show the current version (${g.loads} of ${g.commands} commands): ${apiRequests} API requests, ${(apiRequests / g.commands).toFixed(2)} per command (${requestsWithFeed} when a load read the feed apart, ${requestsWithViewRead} before the replies carried the view, ${requestsBefore} before they carried the events); its polling while a game is open is not counted`,
  );
  say(
    `   per command ${(g.command.rru / g.commands).toFixed(2)} RRU + ${(g.command.wru / g.commands).toFixed(2)} WRU; per view ${(g.view.rru / g.views).toFixed(2)} RRU; per feed read ${(g.feeds ? g.feed.rru / g.feeds : 0).toFixed(2)} RRU; projector per change ${(g.projector.rru / g.records.length).toFixed(2)} RRU + ${(g.projector.wru / g.records.length).toFixed(2)} WRU, invoked for ${g.projector.invocations} of ${g.records.length} changes (the others quiet), ${g.projector.jobs} notices; the scheduler's stream mapping invoked ${streamInvocations.scheduler} times, the tournaments' ${streamInvocations.tournaments}`,
  );
  say(
    `   latency p50: command ${ms(cmdP50)}, raw Query + conditional write of the same items ${ms(baseP50)}: ratio ${(cmdP50 / baseP50).toFixed(2)}x (target 1.2x)`,
  );
  say(
    `   stored ${g.storedBytes.toLocaleString('en')} bytes: ${(g.storedBytes / g.events).toFixed(0)} per event (target 400), events alone ${(g.eventBytes / g.events).toFixed(0)}; a command's item (its events and the head after them) ${g.headBytes} bytes on average (target: head under 1 KB), snapshot ${g.snapBytes} bytes, its parts (catalog, cards: once per game) ${g.partBytes} bytes`,
  );
  say(`   cost (prices ${PRICES.asOf}, tests/bench/prices.ts):`);
  for (const [k, v] of Object.entries(dollars)) say(`     ${k.padEnd(22)} $${v.toFixed(7)}`);
  for (const [door, v] of Object.entries(frontDoorPerRequest))
    say(`     ${`front door ${door}`.padEnd(22)} $${(apiRequests * v).toFixed(7)}: total $${byFrontDoor[door as keyof typeof byFrontDoor].toFixed(6)}`);
  say(
    `     total without mail, behind the stack's default front door (${frontDoor}): $${withoutMail.toFixed(6)} per game (target under $0.001); with mail $${(withoutMail + mail).toFixed(6)}; storage $${storageMonth.toFixed(8)} a month`,
  );
  say(
    `   floor (${frontDoor}): ${apiRequests} requests x $${(perRequest * 1e6).toFixed(2)} per million = $${requestFloor.toFixed(6)}; with DynamoDB's least (1 WRU + 1 RRU per command and per projection) $${(requestFloor + dynamoFloor).toFixed(6)}; a game page left open polls for $${pollPerHour.toFixed(4)} an hour`,
  );

  const sim = await simulateProjector(client, tableName, meter, g, SIM_COPIES);
  Object.assign(figures, {
    projectorSimulation: { games: SIM_COPIES, records: sim.records, events: sim.events, ms: sim.ms, rru: sim.rru, wru: sim.wru, notices: sim.jobs },
  });
  say('');
  say(
    `8. Projector simulation: ${SIM_COPIES} such games interleaved, ${sim.records.toLocaleString('en')} stream records (${sim.events.toLocaleString('en')} events) in batches of 100: ${(sim.ms / 1000).toFixed(1)} s (${((sim.records / sim.ms) * 1000).toFixed(0)} records/s), ${sim.wru} WRU + ${sim.rru} RRU (${(sim.wru / sim.events).toFixed(2)} WRU per event)`,
  );
}

/**
 * `npm start` stopped and started again: for each history length, a runtime (with its stream
 * poller, read models and notifier, checkpoints in a data folder) plays a Dice Race of that many
 * rolls, settles and stops; another roll is made while it is down; then the time from starting
 * it again until its poller has read past everything and every job ran, and how many stream
 * records it read to get there (the checkpoint's point: not the history again).
 */
async function pollerRestart(): Promise<boolean> {
  // A DynamoDB Local of its own: the streams of the other sections' tables (the projector
  // simulation's tens of thousands of records) slow every GetRecords of a shared one.
  const dynamo = await startDynamoLocal();
  const endpoint = dynamo.endpoint;
  try {
    return await timeRestarts(endpoint);
  } finally {
    await dynamo.stop();
  }
}

async function timeRestarts(endpoint: string): Promise<boolean> {
  const engines = createRegistry([diceRace]);
  const rows: { history: number; restartMs: number; recordsRead: number }[] = [];
  for (const rolls of [20, 400]) {
    const dataDir = mkdtempSync(join(tmpdir(), 'fieldpost-bench-restart-'));
    const tableName = `restart-${rolls}`;
    const start = async () => {
      let notif: LocalNotifications | undefined;
      const rt = await startLocalRuntime({
        dynamoEndpoint: endpoint,
        tableName,
        dataDir,
        engines,
        jwtSecret: 'bench-restart-secret-0123456789',
        extensions: [async (ctx) => (notif = await startLocalNotifications(ctx, { pollIntervalMs: 50, env: {}, smtpPort: 0 }))],
      });
      return { rt, notif: notif! };
    };
    try {
      const first = await start();
      const svc = first.rt.deps.service;
      const { gameId } = await svc.create('alice', { engine: 'dice-race', options: { target: 10_000 }, seat: 'p1', commandId: `restart-${rolls}` });
      await svc.join('bob', gameId, { commandId: `restart-${rolls}-join` });
      for (let i = 0; i < rolls; i++) await svc.submit(i % 2 ? 'bob' : 'alice', gameId, { command: { type: 'Roll' }, commandId: `restart-${rolls}-${i}` });
      await first.notif.settle();
      const history = first.notif.poller.delivered;
      await first.rt.stop();
      const offline = createDynamoGameService({ client: localClient(endpoint), tableName, engines }).service;
      await offline.submit(rolls % 2 ? 'bob' : 'alice', gameId, { command: { type: 'Roll' }, commandId: `restart-${rolls}-offline` });
      const t0 = performance.now();
      const second = await start();
      await second.notif.settle();
      rows.push({ history, restartMs: performance.now() - t0, recordsRead: second.notif.poller.delivered });
      await second.rt.stop();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  figures['pollerRestart'] = rows;
  say('');
  say('10. The local runtime restarted (stream poller resuming from its checkpoint; target under 2 s for any history length):');
  for (const r of rows)
    say(`   history of ${String(r.history).padStart(4)} stream records: caught up in ${ms(r.restartMs)}, reading ${r.recordsRead} records after the restart`);
  const ok = rows.every((r) => r.restartMs < 2000);
  if (!ok) console.error('FAIL: a restart took 2 s or more to catch up');
  return ok;
}

/**
 * 9. The deadline handler (functions/handlers/deadline.ts) as EventBridge Scheduler invokes it:
 * a Dice Race game with a per-move clock is left to run, and at each of its summary's wakeAt
 * moments (50%, a day left, 80%, the time-out) the handler is called once, then once more after
 * the game has ended (a stale or repeated schedule). Counts the DynamoDB calls of each wake.
 */
async function deadlineCalls(client: DynamoDBClient, tableName: string, engines: ReturnType<typeof createRegistry>): Promise<boolean> {
  let now = '2026-06-01T09:00:00.000Z';
  const { service } = createDynamoGameService({ client, tableName, engines, clock: { now: () => now } });
  const { gameId } = await service.create('alice', {
    engine: 'dice-race',
    options: { target: 10_000 },
    seat: 'p1',
    timeControl: { kind: 'per-move', days: 3 },
    commandId: 'bench-clock-create',
  });
  await service.join('bob', gameId, { commandId: 'bench-clock-join' });
  const handler = createDeadlineHandler(service);
  const calls = countCalls(client);
  const wakes: { wakeAt: string; done: string; reads: number; writes: number }[] = [];
  for (let i = 0; i < 10; i++) {
    const s = (await service.view(null, gameId)).summary;
    const wakeAt = s.wakeAt ?? (s.status === 'ended' ? now : undefined);
    if (wakeAt === undefined) break;
    now = wakeAt;
    calls.reset();
    // The handler logs one line per wake (CloudWatch in AWS); here it would mix into stdout's --json figures.
    const log = console.log;
    console.log = () => undefined;
    const step = await handler({ gameId, wakeAt }).finally(() => (console.log = log));
    let reads = 0;
    let writes = 0;
    for (const [name, k] of Object.entries(calls.counts)) {
      if (READS.has(name)) reads += k;
      else if (WRITES.has(name)) writes += k;
    }
    wakes.push({ wakeAt, done: step.done === 'reminded' ? `reminded ${step.reminders.join(', ')}` : step.done, reads, writes });
    if (s.status === 'ended') break;
  }
  const ok = wakes.length >= 2 && wakes.some((w) => w.done === 'timed-out') && wakes.every((w) => w.reads === 1 && w.writes <= 1);
  figures['deadlineWakes'] = wakes;
  figures['deadlineReadsMax'] = Math.max(...wakes.map((w) => w.reads));
  figures['deadlineWritesMax'] = Math.max(...wakes.map((w) => w.writes));
  say('');
  say("9. DynamoDB calls of the scheduler's deadline handler per wake (a 3-day per-move game left to run; target 1 read, at most 1 write):");
  for (const w of wakes) say(`   ${w.wakeAt}  ${w.done.padEnd(28)} reads ${w.reads}  writes ${w.writes}`);
  if (!ok) console.error('FAIL: a deadline wake made more than 1 read or 1 write, or the game did not time out');
  return ok;
}

async function main(): Promise<number> {
  const started = performance.now();
  say(`Fieldpost bench: ${COMMANDS} commands of Dice Race on DynamoDB Local (in memory), snapshot every ${SNAPSHOT_EVERY} events`);
  const dynamo = await startDynamoLocal();
  const client = localClient(dynamo.endpoint);
  let code = 0;
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

    say('');
    say(`1. DynamoDB calls per command on a long game (versions ${first} -> ${lastVersion}, ${COMMANDS} commands):`);
    say(
      `   reads ${(reads / COMMANDS).toFixed(2)} + writes ${(writes / COMMANDS).toFixed(2)} per command (other calls: ${other}); commands not exactly 1 + 1: ${bad}`,
    );
    say(
      `   store: extra load pages ${store.stats.extraPages - statsBefore.extraPages}, torn reads ${store.stats.tornReads - statsBefore.tornReads}, snapshots written ${store.stats.snapshotsWritten - statsBefore.snapshotsWritten}, skipped ${store.stats.snapshotsSkipped - statsBefore.snapshotsSkipped}`,
    );

    const [sp50, sp95, bp50, bp95] = [pct(svcMs, 50), pct(svcMs, 95), pct(baseMs, 50), pct(baseMs, 95)];
    Object.assign(figures, {
      commands: COMMANDS,
      readsPerCommand: reads / COMMANDS,
      writesPerCommand: writes / COMMANDS,
      commandsNotOnePlusOne: bad,
      serviceP50Ms: sp50,
      serviceP95Ms: sp95,
      rawP50Ms: bp50,
      rawP95Ms: bp95,
    });
    say('');
    say(
      '2. Command latency against DynamoDB Local (same process, interleaved), Dice Race against a raw Query + TransactWriteItems of one item per event (the layout before the tip):',
    );
    say(`   service command        p50 ${ms(sp50)}  p95 ${ms(sp95)}`);
    say(`   raw Query+TransactWrite p50 ${ms(bp50)}  p95 ${ms(bp95)}`);
    say(`   ratio service/raw      p50 ${(sp50 / bp50).toFixed(2)}x  p95 ${(sp95 / bp95).toFixed(2)}x`);

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
    Object.assign(figures, { foldEventsPerSecond: (folds * log.length) / foldSecs, verifyOk: report.ok, verifyEventsPerSecond: log.length / verifySecs });
    say('');
    say('3. Fold throughput of the fixture engine (kernel foldEvent + Dice Race evolve):');
    say(`   ${Math.round((folds * log.length) / foldSecs).toLocaleString('en')} events/s (${folds} folds of ${log.length} events in ${foldSecs.toFixed(2)} s)`);
    say(
      `   verifyLog of the exported log (hash chain, every die, refold): ${report.ok ? 'ok' : 'FAILED ' + report.problems.join('; ')}, ${Math.round(log.length / verifySecs).toLocaleString('en')} events/s`,
    );
    await spearpointGame(client, tableName);
    if (!(await deadlineCalls(client, tableName, engines))) code = 1;
    // A client of its own: the capacity meter on `client` (section 7) reads HEAD after each
    // transaction to price it, and those probes are not the service's calls.
    if (!(await pollerRestart())) code = 1;
    const map = await benchMapCalls(localClient(dynamo.endpoint), tableName);
    Object.assign(figures, { mapReadsPerCommand: map.readsPerCommand, mapWritesPerCommand: map.writesPerCommand, mapCommandsNotOnePlusOne: map.notOnePlusOne });
    say('');
    say(
      `9. spearpoint-1943-map, Gunter's Return through the service (${map.commands} commands, ${map.ended ? 'to its end' : 'NOT ENDED'}): reads ${map.readsPerCommand} + writes ${map.writesPerCommand} per command; not exactly 1 + 1: ${map.notOnePlusOne}`,
    );
    if (map.notOnePlusOne > 0 || !map.ended) {
      console.error(`FAIL: spearpoint-1943-map commands must cost 1 read + 1 write and the game must end`);
      code = 1;
    }
    if (bad > 0 || reads !== COMMANDS || writes !== COMMANDS) {
      console.error(`FAIL: calls per command must be 1 read + 1 write; ${bad} of ${COMMANDS} commands were not`);
      code = 1;
    }
    if (!report.ok) code = 1;
  } finally {
    client.destroy();
    await dynamo.stop();
  }
  // Pure CPU work, timed once DynamoDB Local's JVM has stopped: on a small machine it would
  // otherwise share the cores with the rasterizer, which the mail notifier never does.
  await pictures();
  hashes();
  if (!(await coldStart(say, figures))) {
    console.error(`FAIL: a Lambda bundle is over the ${BUNDLE.ceilingBytes / 1024} KB ceiling`);
    code = 1;
  }
  say('');
  say(`done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  if (JSON_OUT) console.log(JSON.stringify(figures));
  return code;
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
  figures['swissPair500Ms'] = swiss.swissPair500Ms;
  say('');
  say(`Tournaments: pairing a 500-player Swiss round 5 (median of ${swiss.runs}): ${swiss.swissPair500Ms} ms, worst ${swiss.worstMs} ms (target < 1000 ms)`);
  if (swiss.worstMs >= 1000) console.error('SLOW: Swiss pairing of 500 players took 1 s or more');
}

// ---------------------------------------------------------------------------------------------
// Action Front!: decide time per command over seeded games of every scenario and builder type.
import { benchActionFrontDecide } from '../action-front/bench-decide.js';

{
  const af = benchActionFrontDecide();
  say('');
  say(
    `Action Front!: decide per command over ${af.commands} commands: median ${af.decideMedianMs} ms, p95 ${af.decideP95Ms} ms, max ${af.decideMaxMs} ms; legalCommands median ${af.legalMedianMs} ms`,
  );
  Object.assign(figures, { actionFrontDecideMedianMs: af.decideMedianMs, actionFrontDecideP95Ms: af.decideP95Ms });
}

// Front Line: decide time per command over seeded random games (two players and Allies). Pure.
import { benchFrontLine } from './bench-front-line.js';

{
  const fl = benchFrontLine();
  say('');
  say(
    `Front Line: decide per command over ${fl.commands} commands of random legal games: median ${fl.frontLineDecideMedianMs} ms, p95 ${fl.frontLineDecideP95Ms} ms`,
  );
  // Every figure goes into the one JSON object `--json` prints (issue 16), none on stdout beside it.
  Object.assign(figures, { frontLineDecideMedianMs: fl.frontLineDecideMedianMs, frontLineDecideP95Ms: fl.frontLineDecideP95Ms });
}

// ---------------------------------------------------------------------------------------------
// spearpoint-1943-map: decide time per command over a seeded game of every scenario.
import { benchMapDecide } from '../spearpoint-map/bench.js';

{
  const m = benchMapDecide();
  figures['mapDecideMedianMs'] = m.decideMedianMs;
  figures['mapDecideP95Ms'] = m.decideP95Ms;
  say('');
  say(
    `spearpoint-1943-map: decide per command over ${m.commands} commands (every scenario to its end): median ${m.decideMedianMs} ms, p95 ${m.decideP95Ms} ms, max ${m.decideMaxMs} ms; legalCommands median ${m.legalMedianMs} ms`,
  );
}
