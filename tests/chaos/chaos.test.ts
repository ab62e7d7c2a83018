import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createRegistry } from '../../domain/kernel/index.js';
import { diceRace } from '../fixtures/dice-race.js';
import { runChaos } from './core.js';
import { seeded } from '../support/seeded.js';
import { startReceiver, warpedClock, type WebhookReceiver } from './notices.js';
import { startChaosRuntime, type ChaosRuntime } from './runtime-process.js';

/**
 * A small seeded run of the same code as `npm run chaos`, with faults frequent enough that some
 * outlast the SDK's retries (503s), and the runtime process killed with SIGKILL and started again.
 */
const engines = createRegistry([diceRace]);
/** Ten simulated hours a real second: the webhook receiver's day of downtime lasts 2.4 s. */
const WARP = 36_000;
const SEED = 18;
let runtime: ChaosRuntime;
let receiver: WebhookReceiver;
/** What the runtime processes wrote to stderr (stream warnings, failed notify jobs): shown when a check fails. */
const runtimeLog: string[] = [];

beforeAll(async () => {
  const clock = warpedClock(WARP);
  receiver = await startReceiver(clock);
  runtime = await startChaosRuntime({
    dynamoEndpoint: inject('dynamoEndpoint'),
    tableName: `chaos-${Date.now().toString(36)}`,
    faultRate: 0.25,
    seed: SEED,
    warp: WARP,
    clockOrigin: clock.realStart,
    log: (line) => runtimeLog.push(line),
  });
});
afterAll(async () => {
  await runtime?.stop();
  await receiver?.stop();
});

describe('chaos: random legal games while DynamoDB faults are injected', () => {
  it('the seeded generator repeats itself', () => {
    const [a, b] = [seeded(7), seeded(7)];
    const first = Array.from({ length: 5 }, a);
    expect(Array.from({ length: 5 }, b)).toEqual(first);
    expect(first.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(Array.from({ length: 5 }, seeded(8))).not.toEqual(first);
  });

  it('loses nothing, applies nothing twice, every ended log verifies, read models equal a rebuild, every notice arrives once through a day-long receiver outage and kill -9s of the runtime, and no 5xx but the 503', async () => {
    const report = await runChaos({
      runtime,
      engines,
      engine: diceRace.id,
      seed: SEED,
      commands: 40,
      concurrency: 3,
      faultRate: 0.25,
      timeLimitMs: 150_000,
      resendDelayMs: 10,
      catchUpLimitMs: 20_000,
      // Notices are waited for up to a minute: in a full test run on 2 cores the small run's notices can take longer
      // than the 15 s it used to wait (twice its wait ran out with a game's game.ended notices outstanding).
      notices: { receiver, limitMs: 60_000 },
      // The stream consumer is killed before its checkpoint every 20 commands, and started again.
      consumerKills: { every: 20 },
      // The runtime process is killed with SIGKILL and started again, 6 to 18 commands apart: with this seed after
      // commands 10 (the moment DynamoDB applied the next append), 22 and 31 (at once).
      runtimeKills: { every: 12 },
    });
    const s = report.summary;
    const log = `the runtime's stderr:\n${runtimeLog.slice(-60).join('\n')}`;
    expect(report.problems, log).toEqual([]);
    expect(report.unverifiedLogs).toEqual([]);
    expect(s.lost).toBe(0);
    expect(s.duplicated).toBe(0);
    expect(s.unexpected5xx).toBe(0);
    expect(s.commands).toBeGreaterThanOrEqual(40);
    expect(s.acknowledged).toBe(s.commands);
    expect(report.logsVerified).toBeGreaterThan(0);
    // Faults of every kind were injected, and some outlasted the retries so the client resent.
    for (const [kind, n] of Object.entries(s.faultsInjected)) expect(n, kind).toBeGreaterThan(0);
    expect(report.resends).toBeGreaterThan(0);
    // The runtime was killed at least twice, at least once while a command waited for its reply, and
    // clients resent what the kills cut off (connections dropped or refused: not 5xx).
    expect(s.faultsInjected['runtime-kill']).toBeGreaterThanOrEqual(2);
    expect(s.runtimeKillsInFlight).toBeGreaterThanOrEqual(1);
    expect(s.connectionsDropped).toBeGreaterThan(0);
    // The stream consumer was killed before its checkpoint, and started again, during the load.
    expect(s.faultsInjected['consumer-kill']).toBeGreaterThanOrEqual(2);
    // Every player had a webhook; the receiver was down for a simulated day and came back. No
    // notice was accepted twice, and none arrived that the events do not call for.
    const n = report.notices!;
    expect(n.refusedDuringOutage).toBeGreaterThan(0);
    expect(n.duplicates).toEqual([]);
    expect(n.unknown).toEqual([]);
    expect(n.required).toBeGreaterThan(report.games * 2);
    expect(n.delivered).toBeGreaterThan(n.required / 2);
    // Every notice the events call for arrived exactly once, in each game's order.
    expect(n.missing, log).toEqual([]);
    expect(n.outOfOrder, log).toEqual([]);
    expect(s.noticesDeliveredOnce).toBe(true);
    // The stream consumer ran under the same faults: its read models caught up with a rebuild from the events.
    expect(s.catchUpSeconds).not.toBeNull();
    expect(s.catchUpSeconds!).toBeLessThan(20);
  }, 240_000);
});
