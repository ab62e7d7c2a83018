import { describe, expect, it } from 'vitest';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { rebuildReadModels } from '../../functions/projections/rebuild.js';
import { ReadModelStore } from '../../functions/projections/read-model-store.js';
import { freshTable } from '../support/dynamo.js';
import { cid, engines, readModelItems, service } from './support.js';

/**
 * The rebuild is documented as safe to run while the projector runs. A game created after
 * the rebuild read the games, and projected by the live projector meanwhile, must keep its
 * read models: it is new, not stray.
 */
describe('rebuild while the projector runs', () => {
  it('keeps the read models of a game created after the rebuild listed the games', async () => {
    const { client: base, tableName, endpoint } = await freshTable('rebuild-race');
    const svc = service(base, tableName);
    const models = new ReadModelStore(base, tableName);
    const first = (await svc.create('alice', { engine: 'dice-race', options: {}, seat: 'p1', commandId: cid() })).gameId;
    await models.apply((await svc.view(null, first)).summary);

    // The rebuild's own client: when it starts sweeping stray read models, a new game appears and is projected.
    const client = new DynamoDBClient({ endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    let late = '';
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const input = args.input as { FilterExpression?: string };
        if (!late && context.commandName === 'ScanCommand' && input.FilterExpression?.includes(':inbox')) {
          late = (await svc.create('carol', { engine: 'dice-race', options: {}, seat: 'p1', commandId: cid() })).gameId;
          await models.apply((await svc.view(null, late)).summary);
        }
        return next(args);
      },
      { step: 'initialize', name: 'lateGame' },
    );

    const report = await rebuildReadModels({ client, sourceTable: tableName, engines });
    expect(late).not.toBe('');
    expect(report.games).toBe(1);
    const keys = (await readModelItems(base, tableName)).map((i) => `${String(i['pk'])}|${String(i['sk'])}`);
    expect(keys).toContain(`SUMMARY#${late}|SUMMARY`);
    const entries = (await models.getSummary(late))!.entries!;
    expect(entries.map((e) => e.player ?? 'LOBBY').sort()).toEqual(['LOBBY', 'carol']);
    for (const e of entries) expect(keys).toContain(`${e.player === undefined ? 'LOBBY' : `INBOX#${e.player}`}|${e.sk}`);
    expect(report.removed).toBe(0);
  });
});
