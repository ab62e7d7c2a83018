import '../../functions/quiet-sdk.js';
import { parseArgs } from 'node:util';
import { createRegistry } from '../../domain/kernel/index.js';
import { startDynamoLocal } from '../../functions/store/dynamodb-local.js';
import { diceRace } from '../fixtures/dice-race.js';
import { runChaos } from './core.js';
import { startReceiver, warpedClock } from './notices.js';
import { startChaosRuntime } from './runtime-process.js';

/**
 * `npm run chaos [-- --seed N --commands N --concurrency N --rate R --seconds S --kills N --runtime-kills N --json]`:
 * random legal games on a throwaway local runtime (a process of its own, killed with SIGKILL and
 * started again; DynamoDB Local in memory, which outlives it) with DynamoDB faults injected at the
 * store's port; see core.ts and the README's "Chaos run". Exits 1 when a check fails.
 */
const { values } = parseArgs({
  options: {
    seed: { type: 'string', default: '1' },
    commands: { type: 'string', default: '2000' },
    concurrency: { type: 'string', default: '16' },
    rate: { type: 'string', default: '0.05' },
    seconds: { type: 'string', default: '900' },
    warp: { type: 'string', default: '3600' },
    kills: { type: 'string', default: '250' },
    'runtime-kills': { type: 'string', default: '200' },
    json: { type: 'boolean', default: false },
  },
});
const num = (name: string, v: string, min: number, max: number): number => {
  const n = Number(v);
  if (!Number.isFinite(n) || n < min || n > max) {
    console.error(`--${name} must be a number from ${min} to ${max}, not ${v}`);
    process.exit(2);
  }
  return n;
};
const seed = num('seed', values.seed, 0, 2 ** 32 - 1);
const commands = num('commands', values.commands, 1, 1_000_000);
const concurrency = num('concurrency', values.concurrency, 1, 256);
const faultRate = num('rate', values.rate, 0, 0.9);
const timeLimitMs = num('seconds', values.seconds, 1, 86_400) * 1000;
const warp = num('warp', values.warp, 1, 1_000_000);
const killEvery = num('kills', values.kills, 0, 1_000_000);
const runtimeKillEvery = num('runtime-kills', values['runtime-kills'], 0, 1_000_000);

const engines = createRegistry([diceRace]);
// One real second is an hour of the notifier's clock: the receiver's day of downtime lasts 24 s.
const clock = warpedClock(warp);
const receiver = await startReceiver(clock);
// The table lives in this process's DynamoDB Local: it outlives every kill of the runtime.
const dynamo = await startDynamoLocal();
const runtime = await startChaosRuntime({
  dynamoEndpoint: dynamo.endpoint,
  tableName: 'chaos',
  faultRate,
  seed,
  warp,
  clockOrigin: clock.realStart,
  log: (line) => {
    if (line.startsWith('[stream]') || /^\[notify\] .* failed: /.test(line)) console.error(line);
  },
});
try {
  const log = values.json ? () => {} : (line: string) => console.log(line);
  log(`chaos: seed ${seed}, ${commands} commands, ${concurrency} games at once, fault rate ${faultRate}`);
  const report = await runChaos({
    runtime,
    engines,
    engine: diceRace.id,
    seed,
    commands,
    concurrency,
    faultRate,
    timeLimitMs,
    catchUpLimitMs: 30_000,
    notices: { receiver, limitMs: 180_000 },
    ...(killEvery > 0 ? { consumerKills: { every: killEvery } } : {}),
    ...(runtimeKillEvery > 0 ? { runtimeKills: { every: runtimeKillEvery } } : {}),
  });
  log(
    `${report.games} games (${report.gamesEnded} ended, ${report.logsVerified} logs verified), ${report.resends} resends (after a 503 or a dropped connection), ${report.summary.connectionsDropped} dropped connections, ${report.seconds.toFixed(1)} s`,
  );
  const kills = report.runtimeKills;
  if (kills.length > 0)
    log(
      `runtime killed ${kills.length} times (${kills.filter((k) => k.moment === 'after-append').length} right after DynamoDB applied an append, ${kills.filter((k) => k.moment === 'now' && k.appendsOutstanding > 0).length} with an append outstanding), ${report.summary.runtimeKillsInFlight} with commands waiting for their reply; restarts took ${kills.map((k) => (k.restartMs / 1000).toFixed(1)).join(', ')} s`,
    );
  const c = await runtime.status();
  if (c)
    log(
      `stream consumer: ${c.delivered} records handed over since its last start; checkpoints saved ${c.checkpointsSaved} times since the last runtime start, last ${c.lastCheckpointAt === undefined ? 'never' : `${((Date.now() - c.lastCheckpointAt) / 1000).toFixed(1)} s ago`}`,
    );
  if (report.notices) {
    const n = report.notices;
    log(
      `notices: ${n.decided} decided from the events, ${n.required} required, ${n.delivered} delivered, ${n.refusedDuringOutage} attempts refused during the outage`,
    );
  }
  for (const p of [...report.problems, ...(report.notices?.problems ?? []), ...report.unverifiedLogs]) console.error(`problem: ${p}`);
  const s = report.summary;
  const failed =
    s.lost > 0 ||
    s.duplicated > 0 ||
    s.unexpected5xx > 0 ||
    s.noticesDeliveredOnce !== true ||
    s.catchUpSeconds === null ||
    s.catchUpSeconds > 2 ||
    report.problems.length > 0 ||
    report.unverifiedLogs.length > 0;
  console.log(values.json ? JSON.stringify(s) : JSON.stringify(s, null, 2));
  process.exitCode = failed ? 1 : 0;
} finally {
  await runtime.stop();
  await receiver.stop();
  await dynamo.stop();
}
