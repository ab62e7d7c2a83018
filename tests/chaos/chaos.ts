import '../../functions/quiet-sdk.js';
import { parseArgs } from 'node:util';
import { createRegistry } from '../../domain/kernel/index.js';
import { startLocalRuntime } from '../../functions/local/runtime.js';
import { diceRace } from '../fixtures/dice-race.js';
import { runChaos } from './core.js';
import { startReceiver, warpedClock, warpedNotifications, type ChaosConsumer } from './notices.js';

/**
 * `npm run chaos [-- --seed N --commands N --concurrency N --rate R --seconds S --json]`: random legal
 * games on a throwaway local runtime (DynamoDB Local in memory) with DynamoDB faults injected at the
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

const engines = createRegistry([diceRace]);
// One real second is an hour of the notifier's clock: the receiver's day of downtime lasts 24 s.
const clock = warpedClock(warp);
const receiver = await startReceiver(clock);
let consumer: ChaosConsumer | undefined;
const runtime = await startLocalRuntime({
  memory: true,
  engines,
  extensions: [warpedNotifications(clock, warp, (n) => (consumer = n))],
  log: (line) => {
    if (line.startsWith('[stream]')) console.error(line);
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
    consumer: () =>
      `${consumer?.current.poller.delivered ?? 0} records handed over since the last start, ${consumer?.current.poller.parkedGames ?? 0} game(s) parked`,
    ...(killEvery > 0 ? { consumerKills: { every: killEvery, kill: () => consumer!.kill() } } : {}),
  });
  log(
    `${report.games} games (${report.gamesEnded} ended, ${report.logsVerified} logs verified), ${report.resends} resends after 503, ${report.droppedConnections} after a dropped connection, ${report.seconds.toFixed(1)} s`,
  );
  if (consumer) {
    const cp = consumer.checkpointsSaved;
    log(
      `stream consumer: ${consumer.current.poller.delivered} records handed over since its last start; checkpoints saved ${cp.count} times, last ${cp.lastAt === undefined ? 'never' : `${((Date.now() - cp.lastAt) / 1000).toFixed(1)} s ago`}`,
    );
  }
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
}
