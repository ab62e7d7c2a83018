import { performance } from 'node:perf_hooks';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createRegistry, seededRng } from '../../domain/kernel/index.js';
import { spearpointMap } from '../../domain/spearpoint-map/index.js';
import { SCENARIO_IDS } from '../../domain/spearpoint-map/data/scenarios.js';
import { evolve } from '../../domain/spearpoint-map/evolve.js';
import type { Command, State } from '../../domain/spearpoint-map/model.js';
import { createDynamoGameService } from '../../functions/app/adapters.js';
import { countCalls } from '../store/call-counter.js';

/**
 * For `npm run bench`: the map expansion (spearpoint-1943-map).
 *   - `benchMapDecide`: the time `decide` takes per command, and `legalCommands` per call, over a
 *     seeded random game of every scenario to its end (pure CPU, no store).
 *   - `benchMapCalls`: DynamoDB calls per command for this engine: a seeded game of Gunter's
 *     Return played through the real application service on DynamoDB Local, choosing among the
 *     legal commands the service lists; every command must cost 1 read + 1 write.
 */
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!;
const round = (x: number) => Math.round(x * 1000) / 1000;

/** A chooser that prefers moves over Done three times in four, so games see combat. */
function choose(legal: readonly Command[], r: { int(n: number): number }): Command {
  const busy = legal.filter((c) => c.type !== 'Done');
  return busy.length && r.int(4) > 0 ? busy[r.int(busy.length)]! : legal[r.int(legal.length)]!;
}

export function benchMapDecide(): {
  commands: number;
  decideMedianMs: number;
  decideP95Ms: number;
  decideMaxMs: number;
  legalMedianMs: number;
  legalP95Ms: number;
  legalMaxMs: number;
} {
  const decideMs: number[] = [];
  const legalMs: number[] = [];
  for (const scenario of SCENARIO_IDS) {
    const dice = seededRng({ seed: 'be'.repeat(32), gameId: `bench-${scenario}`, entropy: [], counter: 0 });
    const chooser = seededRng({ seed: 'cc'.repeat(32), gameId: `bench-${scenario}`, entropy: [], counter: 0 });
    let s: State = spearpointMap.initialState(spearpointMap.optionsSchema.parse({ scenario, maxTurns: 10 }), spearpointMap.version);
    const setup = spearpointMap.setup(s, { rng: dice, now: '' });
    if (!setup.ok) throw new Error(setup.error.message);
    s = setup.value.map((e) => e.event).reduce(evolve, s);
    while (!s.result) {
      const seat = spearpointMap.pending(s)[0]!.seat;
      const t0 = performance.now();
      const legal = spearpointMap.legalCommands(s, seat);
      legalMs.push(performance.now() - t0);
      const c = choose(legal, chooser);
      const t1 = performance.now();
      const r = spearpointMap.decide(s, c, seat, { rng: dice, now: '' });
      decideMs.push(performance.now() - t1);
      if (!r.ok) throw new Error(`${scenario}: ${JSON.stringify(c)}: ${r.error.message}`);
      s = r.value.map((e) => e.event).reduce(evolve, s);
    }
  }
  return {
    commands: decideMs.length,
    decideMedianMs: round(pct(decideMs, 50)),
    decideP95Ms: round(pct(decideMs, 95)),
    decideMaxMs: round(Math.max(...decideMs)),
    legalMedianMs: round(pct(legalMs, 50)),
    legalP95Ms: round(pct(legalMs, 95)),
    legalMaxMs: round(Math.max(...legalMs)),
  };
}

const READS = new Set(['QueryCommand', 'GetItemCommand', 'BatchGetItemCommand', 'ScanCommand', 'TransactGetItemsCommand']);
const WRITES = new Set(['TransactWriteItemsCommand', 'PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'BatchWriteItemCommand']);

export async function benchMapCalls(
  client: DynamoDBClient,
  tableName: string,
): Promise<{ commands: number; readsPerCommand: number; writesPerCommand: number; notOnePlusOne: number; ended: boolean }> {
  const { service } = createDynamoGameService({ client, tableName, engines: createRegistry([spearpointMap]), snapshotEvery: 50 });
  const players = { us: 'alice', de: 'bob' } as const;
  const { gameId } = await service.create('alice', { engine: spearpointMap.id, options: { scenario: 'gunters-return' }, seat: 'us', commandId: 'map-create' });
  await service.join('bob', gameId, { commandId: 'map-join' });
  const chooser = seededRng({ seed: 'cd'.repeat(32), gameId: 'bench-map', entropy: [], counter: 0 });
  const calls = countCalls(client);
  let [commands, reads, writes, bad] = [0, 0, 0, 0];
  for (let n = 0; n < 3000; n++) {
    const anyone = await service.view(null, gameId);
    if (anyone.summary.status === 'ended') break;
    const seat = anyone.pending[0]!.seat as 'us' | 'de';
    const mine = await service.view(players[seat], gameId);
    const command = choose(mine.legalCommands as Command[], chooser);
    calls.reset();
    await service.submit(players[seat], gameId, { command, commandId: `map-${n}` });
    let [cr, cw] = [0, 0];
    for (const [name, k] of Object.entries(calls.counts)) {
      if (READS.has(name)) cr += k;
      else if (WRITES.has(name)) cw += k;
    }
    commands++;
    reads += cr;
    writes += cw;
    if (cr !== 1 || cw !== 1) bad++;
  }
  const ended = (await service.view(null, gameId)).summary.status === 'ended';
  return { commands, readsPerCommand: round(reads / commands), writesPerCommand: round(writes / commands), notOnePlusOne: bad, ended };
}
