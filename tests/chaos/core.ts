import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { localClient } from '../../functions/store/dynamodb-local.js';
import { verifyLog, type EngineRegistry, type EventEnvelope } from '../../domain/kernel/index.js';
import { DynamoEventStore } from '../../functions/store/dynamo-event-store.js';
import { BatchGetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { rebuildGame } from '../../functions/projections/rebuild.js';
import { fromStored } from '../../functions/projections/read-model-store.js';
import { documentClient } from '../../functions/store/document-client.js';
import { inboxPk, LOBBY_PK } from '../../functions/projections/keys.js';
import type { SummaryModel } from '../../functions/projections/project.js';
import { checkNotices, expectedNotices, type NoticeCheck, type WebhookReceiver } from './notices.js';
import { seeded } from '../support/seeded.js';
import type { FaultKind } from './faults.js';
import type { ChaosRuntime, KillMoment, RuntimeKill } from './runtime-process.js';

/**
 * The chaos run's core (issue 18 "Faults survived"), shared by `npm run chaos` (tests/chaos/chaos.ts)
 * and the small seeded run in npm test (tests/chaos/chaos.test.ts): many random legal games played
 * concurrently over HTTP against a local runtime (a process of its own: runtime-process.ts) on
 * DynamoDB Local, while DynamoDB faults are injected at the store's port at a seeded rate and the
 * runtime is killed with SIGKILL and started again; clients resend on 503, and on a connection that
 * dropped or was refused, with the same commandId. At the end every game is checked against its log.
 */

const DAY_MS = 24 * 3600_000;
/** How long a client keeps resending to a runtime that does not answer (killed, starting again) before it gives up. */
const RESTART_LIMIT_MS = 120_000;
/** The wait before a request that got no reply is sent again. */
const UNREACHABLE_RESEND_MS = 100;

export interface ChaosOptions {
  readonly runtime: ChaosRuntime;
  readonly engines: EngineRegistry;
  /** The engine every game plays (its legal commands come from GET /v1/games/{id}). */
  readonly engine: string;
  readonly seed: number;
  /** Stop starting new commands once this many game commands were sent. */
  readonly commands: number;
  /** Games played at once. */
  readonly concurrency: number;
  /** Fraction of DynamoDB calls that fail (0..1). */
  readonly faultRate: number;
  /** Wall-clock bound in ms: no new command starts after it. */
  readonly timeLimitMs: number;
  /** How long a client waits before resending after a 503 (ms); the reply's Retry-After is checked, not waited in full. */
  readonly resendDelayMs?: number;
  /**
   * The runtime runs the stream consumer (projector): after the load, wait (at most this many ms)
   * until every game's summary and inbox items equal a rebuild from its events, and report how long that took.
   */
  readonly catchUpLimitMs?: number;
  /**
   * Every player gets a webhook on this receiver (tests/chaos/notices.ts); it goes down for 24
   * simulated hours once a tenth of the commands are sent. After the load, wait (at most
   * `limitMs`) until every notice was delivered exactly once, in each game's order.
   */
  readonly notices?: { readonly receiver: WebhookReceiver; readonly limitMs: number };
  /** Kill the stream consumer between reading and checkpointing, and start it again, once every `every` commands (counted as 'consumer-kill'). */
  readonly consumerKills?: { readonly every: number };
  /**
   * Kill the runtime process with SIGKILL and start it again, on average once every `every` commands
   * (seeded: from half to one and a half times `every` apart; counted as 'runtime-kill'). Half the kills,
   * drawn at random, fall at once a few milliseconds after a command was sent; the others the moment
   * DynamoDB has applied the next append, before the process could reply.
   */
  readonly runtimeKills?: { readonly every: number };
}

/** The issue's keys exactly; a key not measured yet is null. */
export interface ChaosSummary {
  commands: number;
  acknowledged: number;
  lost: number;
  duplicated: number;
  unexpected5xx: number;
  noticesDeliveredOnce: boolean | null;
  catchUpSeconds: number | null;
  faultsInjected: Record<FaultKind | 'consumer-kill' | 'runtime-kill', number>;
  /** Requests whose connection to the API dropped or was refused (a killed runtime) before a reply: resent with the same body, not a 5xx. */
  connectionsDropped: number;
  /** Runtime kills that fell while at least one command (a request with a commandId) was waiting for its reply. */
  runtimeKillsInFlight: number;
  /** Notices a receiver accepted again after a runtime kill fell between (the same webhook-id: de-duplicated by the receiver, not delivered twice). */
  noticesRedeliveredAfterKill: number;
}

/** What the end checks found besides the summary (for the test and the human reader). */
export interface ChaosReport {
  summary: ChaosSummary;
  games: number;
  gamesEnded: number;
  /** Ended games whose whole log was checked with verifyLog (hash chain, seed, every draw, replay). */
  logsVerified: number;
  resends: number;
  /** Each runtime kill: when it fell, the commands then waiting for a reply, and how long the restart took. */
  runtimeKills: (RuntimeKill & { readonly commandsInFlight: number })[];
  /** The webhook deliveries checked against the notices the events call for (absent without a receiver). */
  notices?: NoticeCheck;
  unverifiedLogs: string[];
  problems: string[];
  seconds: number;
}

interface Reply {
  status: number;
  body: any;
  headers: Headers;
}

export async function runChaos(opts: ChaosOptions): Promise<ChaosReport> {
  const started = Date.now();
  const random = seeded(opts.seed);
  const problems: string[] = [];
  const unexpected: string[] = [];
  let sent = 0;
  let resends = 0;
  /** Requests whose connection dropped or was refused before a reply (resent like a 503). */
  let dropped = 0;
  let commandCounter = 0;
  let consumerKills = 0;
  const runtimeKills: ChaosReport['runtimeKills'] = [];
  /** Requests with a commandId sent and not answered yet. */
  let commandsInFlight = 0;
  /** The kills' own draws (when, how), apart from the games' so that kills do not change the moves. */
  const killRandom = seeded(opts.seed ^ 0x5bd1e995);
  const nextKillAfter = () => (opts.runtimeKills ? Math.max(1, Math.round(opts.runtimeKills.every * (0.5 + killRandom()))) : Infinity);
  let nextRuntimeKill = nextKillAfter();
  /** A kill and restart under way (one at a time, consumer or runtime, while the load goes on). */
  let killing: Promise<void> | undefined;
  const thenKill = (kill: () => Promise<unknown>) => {
    // A kill still under way when the next falls due (a consumer's waits for the jobs running at that moment): the next follows it, not skipped.
    killing = (killing ?? Promise.resolve()).then(async () => void (await kill()));
  };
  const killRuntime = (moment: KillMoment, delayMs: number) =>
    thenKill(async () => {
      await new Promise((done) => setTimeout(done, delayMs));
      // A kill at once is meant to land while a command waits for its reply. One that waited behind a
      // slow consumer kill (a loaded machine) may find every client between commands: it waits for
      // the next command to leave, up to 5 s.
      for (const until = Date.now() + 5_000; moment === 'now' && commandsInFlight === 0 && Date.now() < until;) {
        await new Promise((done) => setTimeout(done, 2));
      }
      let inFlight = 0;
      const kill = await opts.runtime.killRuntime(moment, () => (inFlight = commandsInFlight));
      runtimeKills.push({ ...kill, commandsInFlight: inFlight });
    });
  /** Every acknowledged (200) game command, by game. */
  const acked = new Map<string, Set<string>>();
  const tokens = new Map<string, string>();
  const token = (player: string) => {
    let t = tokens.get(player);
    if (!t) tokens.set(player, (t = opts.runtime.issueToken(player)));
    return t;
  };
  const call = async (method: string, path: string, player: string, body?: unknown): Promise<Reply> => {
    const res = await fetch(`${opts.runtime.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token(player)}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    const reply = { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
    if (reply.status >= 500 && !(reply.status === 503 && reply.body?.code === 'store/unavailable' && Number(res.headers.get('retry-after')) > 0))
      unexpected.push(`${method} ${path}: ${reply.status} ${text.slice(0, 200)}`);
    return reply;
  };
  /**
   * A client that resends on 503 with the same body (so the same commandId), as the CLI and web
   * client do; and, for as long as a restart may take, on a connection that dropped before any
   * reply or was refused (the runtime killed, not up again yet), when it cannot know whether the
   * request arrived.
   */
  const send = async (method: string, path: string, player: string, body?: unknown): Promise<Reply> => {
    const command = typeof body === 'object' && body !== null && 'commandId' in body;
    if (command) commandsInFlight++;
    try {
      let unreachableSince: number | undefined;
      for (let busy = 0; ;) {
        let r: Reply | undefined;
        try {
          r = await call(method, path, player, body);
          unreachableSince = undefined;
        } catch (e) {
          // undici's TypeError ("fetch failed", "terminated"): no reply came. Anything else (a reply that is not JSON) is not resent.
          if (!(e instanceof TypeError)) throw e;
          unreachableSince ??= Date.now();
          if (Date.now() - unreachableSince > RESTART_LIMIT_MS) throw e;
          dropped++;
        }
        if (r && (r.status !== 503 || ++busy > 50)) return r;
        resends++;
        // A runtime starting again takes seconds: no need to knock a hundred times a second meanwhile.
        await new Promise((done) => setTimeout(done, r ? (opts.resendDelayMs ?? 20) : UNREACHABLE_RESEND_MS));
      }
    } finally {
      if (command) commandsInFlight--;
    }
  };
  const within = () => sent < opts.commands && Date.now() - started < opts.timeLimitMs;

  const games: string[] = [];
  let gamesEnded = 0;
  /** The harness's own reads go through a client of their own, with no faults injected. */
  const checks = localClient(opts.runtime.endpoint);
  /** Per game, the read-model items a rebuild from its final log gives (computed as each game's play stops). */
  const expected = new Map<string, Promise<Record<string, unknown>[] | undefined>>();
  /** Everyone who played: the inbox partitions the end check reads whole. */
  const players: string[] = [];
  const playOne = async (n: number): Promise<void> => {
    const [a, b] = [`chaos${n}a`, `chaos${n}b`];
    players.push(a, b);
    if (opts.notices) {
      for (const player of [a, b]) {
        const r = await send('PUT', '/v1/me/settings', player, { webhooks: [{ url: `${opts.notices.receiver.url}/${player}` }] });
        if (r.status !== 200) return void problems.push(`webhook of ${player}: ${r.status} ${JSON.stringify(r.body)}`);
      }
    }
    const created = await send('POST', '/v1/games', a, { engine: opts.engine, seat: 'p1', commandId: `create-${opts.seed}-${n}` });
    if (created.status !== 201 && created.status !== 200) return void problems.push(`create ${n}: ${created.status} ${JSON.stringify(created.body)}`);
    const gameId = created.body.gameId as string;
    games.push(gameId);
    acked.set(gameId, new Set());
    try {
      await play(n, gameId, a, b);
    } finally {
      // Nothing more is written to this game: what its read models must become is known now.
      if (opts.catchUpLimitMs !== undefined)
        expected.set(
          gameId,
          expectedReadModels(checks, opts, gameId).catch(() => undefined),
        );
    }
  };
  const play = async (n: number, gameId: string, a: string, b: string): Promise<void> => {
    const joined = await send('POST', `/v1/games/${gameId}/join`, b, { commandId: `join-${opts.seed}-${n}` });
    if (joined.status !== 200) return void problems.push(`join ${gameId}: ${joined.status} ${JSON.stringify(joined.body)}`);
    const players = new Map<string, string>((joined.body.seats as { id: string; player: string }[]).map((s) => [s.id, s.player]));
    while (within()) {
      const v = await send('GET', `/v1/games/${gameId}`, a);
      if (v.status !== 200) return void problems.push(`view ${gameId}: ${v.status}`);
      if (v.body.summary.status === 'ended') return void gamesEnded++;
      const seat = v.body.pending[0]?.seat as string | undefined;
      const mover = seat && players.get(seat);
      if (!mover) return void problems.push(`${gameId}: not ended and nobody to move`);
      const me = await send('GET', `/v1/games/${gameId}`, mover);
      const legal = (me.body?.legalCommands ?? []) as unknown[];
      if (legal.length === 0) return void problems.push(`${gameId}: seat ${seat} to move has no legal command`);
      const command = legal[Math.floor(random() * legal.length)];
      const commandId = `cmd-${opts.seed}-${++commandCounter}`;
      sent++;
      if (opts.consumerKills && sent % opts.consumerKills.every === 0) {
        consumerKills++;
        thenKill(() => opts.runtime.killConsumer());
      }
      if (sent >= nextRuntimeKill) {
        nextRuntimeKill = sent + nextKillAfter();
        // At once, a few milliseconds after this command left (while it or another is under way), or at the next append.
        if (killRandom() < 0.5) killRuntime('now', Math.floor(killRandom() * 30));
        else killRuntime('after-append', 0);
      }
      if (opts.notices && !opts.notices.receiver.outage.started && sent >= opts.commands / 10) opts.notices.receiver.goDown(DAY_MS);
      const r = await send('POST', `/v1/games/${gameId}/commands`, mover, { commandId, command, expectedVersion: me.body.summary.version });
      if (r.status === 200) acked.get(gameId)!.add(commandId);
      else if (r.status !== 503) problems.push(`${gameId}: listed command ${JSON.stringify(command)} refused ${r.status} ${JSON.stringify(r.body)}`);
    }
  };
  let next = 0;
  const worker = async () => {
    while (within()) await playOne(next++);
  };
  await Promise.all(Array.from({ length: opts.concurrency }, worker));
  await killing;
  await opts.runtime.stopFaults();
  const loadEnded = Date.now();

  // First the catch-up of the read models, measured from the end of the load; then the logs.
  let catchUpSeconds: number | null = null;
  if (opts.catchUpLimitMs !== undefined) {
    // Each game is read until its items equal the rebuild; caught up when the last game is, timed
    // by the end of the reads that found it equal (the rebuilds were made as each game's play stopped).
    const behind = new Map<string, string>(games.map((g) => [g, `${g} not compared yet`]));
    let lastCaughtUp = loadEnded;
    for (;;) {
      const queue = [...behind.keys()];
      const want = new Map<string, Record<string, unknown>[] | undefined>();
      for (const gameId of queue) want.set(gameId, await expected.get(gameId));
      // Every item of every game behind, a hundred to a read (a GetItem each made the harness's own reads most of the window).
      const items = await readItems(
        checks,
        opts.runtime.tableName,
        [...want.values()].flatMap((x) => x ?? []),
      );
      const readAt = Date.now();
      for (const gameId of queue) {
        const differs = readModelDiffers(gameId, want.get(gameId), items);
        if (differs) behind.set(gameId, differs);
        else {
          behind.delete(gameId);
          lastCaughtUp = Math.max(lastCaughtUp, readAt);
        }
      }
      if (behind.size === 0) {
        catchUpSeconds = (lastCaughtUp - loadEnded) / 1000;
        break;
      }
      if (Date.now() - loadEnded > opts.catchUpLimitMs) {
        const c = await opts.runtime.status();
        problems.push(
          `read models of ${behind.size} game(s) differ from a rebuild ${opts.catchUpLimitMs} ms after the load: ${[...behind.values()].slice(0, 5).join(', ')}${c ? `; consumer: ${c.delivered} records handed over since the last start, ${c.parkedGames} game(s) parked` : ''}`,
        );
        break;
      }
      await new Promise((done) => setTimeout(done, 50));
    }
    // Caught up, nothing is left over either: no inbox or lobby entry of a game that its rebuild does not give
    // (an entry whose sort key moved, or that went, must have been deleted).
    const wanted = new Set<string>();
    for (const gameId of games) for (const item of (await expected.get(gameId)) ?? []) wanted.add(itemKey(item));
    const strays = await strayEntries(checks, opts.runtime.tableName, [...players.map(inboxPk), LOBBY_PK], new Set(games), wanted);
    if (strays.length > 0) problems.push(`${strays.length} inbox or lobby item(s) that no rebuild gives: ${strays.slice(0, 5).join(', ')}`);
  }

  // End checks, with no faults: each acknowledged command once in its game's log, no commandId twice, each log verifies.
  let lost = 0;
  let duplicated = 0;
  let logsVerified = 0;
  const unverifiedLogs: string[] = [];
  for (const gameId of games) {
    const events = await readLog(checks, opts.runtime.tableName, gameId);
    const runs = new Map<string, number>();
    let previous: string | undefined;
    for (const e of events) {
      if (e.commandId !== previous) runs.set(e.commandId, (runs.get(e.commandId) ?? 0) + 1);
      previous = e.commandId;
    }
    for (const id of acked.get(gameId) ?? []) if (!runs.has(id)) lost++;
    for (const n of runs.values()) if (n > 1) duplicated += n - 1;
    // A log verifies once its game has ended (the seed is revealed then); games cut off by the bound are checked for loss and duplicates only.
    if (events.at(-1)?.type !== 'Game.Ended') continue;
    logsVerified++;
    const report = verifyLog(events, (id) => opts.engines.get(id));
    if (!report.ok) unverifiedLogs.push(`${gameId}: ${report.problems.join('; ')}`);
  }
  problems.push(...unexpected, ...opts.runtime.unexpectedExits);

  // Notices: wait until each was delivered once the receiver is back (bounded), then check them all.
  let notices: NoticeCheck | undefined;
  if (opts.notices) {
    const logs = new Map<string, EventEnvelope[]>();
    for (const gameId of games) logs.set(gameId, await readLog(checks, opts.runtime.tableName, gameId));
    const { receiver, limitMs } = opts.notices;
    const waitFrom = Date.now();
    // Decided once: replaying every game on each look would hold up this process, the receiver's and
    // the notifier's, long enough for deliveries to time out after the receiver took them (sent twice).
    const expectations = expectedNotices(logs, opts.engines);
    for (;;) {
      notices = checkNotices(
        receiver.posts,
        expectations,
        runtimeKills.map((k) => k.at),
      );
      if ((notices.ok && receiver.outage.over) || Date.now() - waitFrom > limitMs) break;
      await new Promise((done) => setTimeout(done, 200));
    }
    if (!receiver.outage.over) problems.push('the webhook receiver was never called after its outage');
  }
  checks.destroy();
  return {
    summary: {
      commands: sent,
      acknowledged: [...acked.values()].reduce((n, s) => n + s.size, 0),
      lost,
      duplicated,
      unexpected5xx: unexpected.length,
      noticesDeliveredOnce: notices ? notices.ok && opts.notices!.receiver.outage.over : null,
      catchUpSeconds,
      faultsInjected: { ...opts.runtime.faults, 'consumer-kill': consumerKills, 'runtime-kill': runtimeKills.length },
      connectionsDropped: dropped,
      runtimeKillsInFlight: runtimeKills.filter((k) => k.commandsInFlight > 0).length,
      noticesRedeliveredAfterKill: notices?.redeliveredAfterKill.length ?? 0,
    },
    games: games.length,
    gamesEnded,
    logsVerified,
    resends,
    runtimeKills,
    ...(notices ? { notices } : {}),
    unverifiedLogs,
    problems,
    seconds: (Date.now() - started) / 1000,
  };
}

/** The whole stored log of a game, read from the event store directly (the truth, hidden events included). */
function readLog(client: DynamoDBClient, tableName: string, gameId: string): Promise<EventEnvelope[]> {
  return new DynamoEventStore({ client, tableName }).readEvents(gameId, 0, Number.MAX_SAFE_INTEGER);
}

/** The summary and inbox items a rebuild of the game from its whole log gives (functions/projections/rebuild.ts). */
async function expectedReadModels(client: DynamoDBClient, opts: ChaosOptions, gameId: string): Promise<Record<string, unknown>[] | undefined> {
  const events = await new DynamoEventStore({ client, tableName: opts.runtime.tableName }).readEvents(gameId, 0, Number.MAX_SAFE_INTEGER);
  const engine = opts.engines.get(String((events[0]?.data as { engine?: unknown } | undefined)?.engine));
  const projection = engine && rebuildGame(engine, events);
  return projection
    ? ([projection.summary, ...projection.inbox, ...(projection.lobby ? [projection.lobby] : [])] as unknown as Record<string, unknown>[])
    : undefined;
}

/** The entries of these games, in these partitions (read whole), that are not among the `wanted` keys (by itemKey). */
async function strayEntries(
  client: DynamoDBClient,
  tableName: string,
  partitions: readonly string[],
  gameIds: ReadonlySet<string>,
  wanted: ReadonlySet<string>,
): Promise<string[]> {
  const doc = documentClient(client);
  const strays: string[] = [];
  for (const pk of new Set(partitions)) {
    let start: Record<string, unknown> | undefined;
    do {
      const r = await doc.send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': pk },
          ConsistentRead: true,
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      for (const item of r.Items ?? []) if (gameIds.has(String(item['gameId'])) && !wanted.has(itemKey(item))) strays.push(`${pk} ${String(item['sk'])}`);
      start = r.LastEvaluatedKey;
    } while (start);
  }
  return strays;
}

const itemKey = (item: Record<string, unknown>) => `${String(item['pk'])}\n${String(item['sk'])}`;

/** The items with these keys (pk, sk), read consistently a hundred at a time (BatchGetItem's bound), by itemKey. */
async function readItems(client: DynamoDBClient, tableName: string, keysOf: readonly Record<string, unknown>[]): Promise<Map<string, Record<string, unknown>>> {
  const doc = documentClient(client);
  const out = new Map<string, Record<string, unknown>>();
  const keys = [...new Map(keysOf.map((k) => [itemKey(k), { pk: k['pk'], sk: k['sk'] }])).values()];
  const chunks = Array.from({ length: Math.ceil(keys.length / 100) }, (_, i) => keys.slice(i * 100, i * 100 + 100));
  await Promise.all(
    chunks.map(async (chunk) => {
      for (let left: Record<string, unknown>[] = chunk; left.length > 0;) {
        const r = await doc.send(new BatchGetCommand({ RequestItems: { [tableName]: { Keys: left, ConsistentRead: true } } }));
        for (const item of r.Responses?.[tableName] ?? []) out.set(itemKey(item), item);
        left = (r.UnprocessedKeys?.[tableName]?.Keys ?? []) as Record<string, unknown>[];
      }
    }),
  );
  return out;
}

/** How the game's live summary and inbox items (as read in `live`) differ from the rebuild's, or undefined when they are equal. */
function readModelDiffers(
  gameId: string,
  items: Record<string, unknown>[] | undefined,
  live: ReadonlyMap<string, Record<string, unknown>>,
): string | undefined {
  if (!items) return `${gameId}: its log could not be rebuilt`;
  for (const [n, expected] of items.entries()) {
    const item = live.get(itemKey(expected));
    // The SUMMARY item is stored in a compact form: expanded as the API reads it (ReadModelStore.getSummary).
    const got = n === 0 && item ? (fromStored(item as unknown as SummaryModel) as unknown as Record<string, unknown>) : item;
    const differs =
      got === undefined
        ? ['(missing)']
        : Object.entries(expected)
            .filter(([k, v]) => canonical(got[k]) !== canonical(v))
            .map(([k]) => k);
    if (differs.length > 0)
      return `${gameId} ${String(expected['pk'])} ${differs.join('/')} (read model at version ${String(got?.['version'])}, events at ${String(items[0]!['version'])})`;
  }
  return undefined;
}

/** JSON with object keys sorted: DynamoDB gives a map's keys back in its own order. */
const canonical = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : x,
  );
