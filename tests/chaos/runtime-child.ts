import '../../functions/quiet-sdk.js';
import { createRegistry } from '../../domain/kernel/index.js';
import { startLocalRuntime } from '../../functions/local/runtime.js';
import { diceRace } from '../fixtures/dice-race.js';
import { seeded } from '../support/seeded.js';
import { injectFaults, watchAppends } from './faults.js';
import { warpedClock, warpedNotifications, type ChaosConsumer } from './notices.js';
import type { ChildConfig, ToChild, ToHarness } from './runtime-process.js';

/**
 * The API runtime of a chaos run, in a process of its own so the harness can kill it with
 * SIGKILL (tests/chaos/runtime-process.ts starts it, and again after each kill). It is what
 * `npm start` runs (functions/local/runtime.ts: the same router over node:http, the stream
 * consumer inside it with its checkpoint file in the data folder) on the harness's DynamoDB
 * Local, with the chaos run's faults injected at the store's port and the notifier on the
 * harness's warped clock. It talks to the harness over the IPC channel only.
 */
const config = JSON.parse(process.argv[2] ?? '') as ChildConfig;
const tell = (m: ToHarness) => process.send?.(m);

const clock = warpedClock(config.warp, config.clockOrigin);
let consumer: ChaosConsumer | undefined;
const runtime = await startLocalRuntime({
  port: config.port,
  dataDir: config.dataDir,
  dynamoEndpoint: config.dynamoEndpoint,
  tableName: config.tableName,
  jwtSecret: config.jwtSecret,
  engines: createRegistry([diceRace]),
  extensions: [warpedNotifications(clock, config.warp, (c) => (consumer = c))],
  log: (line) => {
    // The stream consumer's warnings, and notify jobs that failed on their last run or as a kill stopped the queue.
    if (line.startsWith('[stream]') || /^\[notify\] .* failed: /.test(line)) console.error(line);
  },
});

/** Armed by the harness: the next append that DynamoDB applied ends this process (SIGKILL) before anyone hears of it. */
let dieAfterAppend = false;
watchAppends(runtime.client, {
  outstanding: (n) => tell({ type: 'appends', outstanding: n }),
  succeeded: () => {
    if (dieAfterAppend) process.kill(process.pid, 'SIGKILL');
  },
});
const faults = injectFaults(runtime.client, config.faultRate, seeded(config.faultSeed), (kind) => tell({ type: 'fault', kind }));

process.on('message', (m: ToChild) => {
  switch (m.type) {
    case 'stop-faults':
      faults.stop();
      return tell({ type: 'faults-stopped' });
    case 'die-after-append':
      dieAfterAppend = true;
      return;
    case 'kill-consumer':
      return void consumer!.kill().then(() => tell({ type: 'consumer-killed' }));
    case 'status': {
      const c = consumer!;
      return tell({
        type: 'status',
        delivered: c.current.poller.delivered,
        parkedGames: c.current.poller.parkedGames,
        checkpointsSaved: c.checkpointsSaved.count,
        ...(c.checkpointsSaved.lastAt !== undefined ? { lastCheckpointAt: c.checkpointsSaved.lastAt } : {}),
      });
    }
    case 'stop':
      return void runtime.stop().then(() => process.exit(0));
  }
});
tell({ type: 'ready', url: runtime.url });
