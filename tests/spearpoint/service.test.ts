import { beforeAll, describe, expect, it } from 'vitest';
import { canonicalJson, createRegistry, foldAll, verifyLog } from '../../domain/kernel/index.js';
import { createDynamoGameService } from '../../functions/app/adapters.js';
import type { GameService } from '../../functions/app/game-service.js';
import { spearpoint } from '../../domain/spearpoint/index.js';
import { freshTable } from '../support/dynamo.js';

/**
 * Spearpoint through the application service on DynamoDB Local (snapshots every 20 events):
 * a whole game played by two players who always send the first command the view offers.
 */
const engines = createRegistry([spearpoint]);
let svc: GameService;
let n = 0;
const cid = () => `sp-${++n}`;
const playerFor = (seat: string) => (seat === 'us' ? 'alice' : 'bob');

beforeAll(async () => {
  const t = await freshTable('spearpoint');
  ({ service: svc } = createDynamoGameService({ client: t.client, tableName: t.tableName, engines, snapshotEvery: 20 }));
});

describe('a Spearpoint game through the game service', () => {
  it('is created with no options, played to its end from the views, and its export verifies', async () => {
    const { gameId } = await svc.create('alice', { engine: 'spearpoint-1943', seat: 'us', commandId: cid() });
    await svc.join('bob', gameId, { seat: 'de', commandId: cid() });
    const start = await svc.view('bob', gameId);
    expect(start.pending.map((p) => p.seat).sort()).toEqual(['de', 'us']);
    expect(start.legalCommands).toContainEqual({ type: 'AutoPickHand' });
    let commands = 0;
    for (;;) {
      const pub = await svc.view(null, gameId);
      if (pub.summary.status !== 'active') break;
      const seat = pub.pending[0]!.seat;
      const mine = await svc.view(playerFor(seat), gameId);
      await svc.submit(playerFor(seat), gameId, { command: mine.legalCommands[0], commandId: cid() });
      expect(++commands).toBeLessThan(600);
    }
    const log = await svc.exportLog('carol', gameId);
    const report = verifyLog(log, engines.get);
    expect(report.problems).toEqual([]);
    // The stored state (snapshots and all) is the fold of the log.
    const end = await svc.view('carol', gameId);
    expect(canonicalJson(end.view)).toBe(canonicalJson(spearpoint.view(foldAll(spearpoint, log)!.game as never, { kind: 'auditor' })));
    expect(end.summary.outcome?.reason).toBeTruthy();
  }, 120_000);
});
