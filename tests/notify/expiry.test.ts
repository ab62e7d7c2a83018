import { describe, expect, it } from 'vitest';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../functions/store/document-client.js';
import { DynamoNoticeLedger, DynamoWebhookLanes, RECORD_TTL_SECONDS } from '../../functions/notify/stores.js';
import type { NotifyJob } from '../../functions/notify/decide.js';
import { freshTable } from '../support/dynamo.js';

/**
 * Notification bookkeeping expires through the table's TTL attribute (expiresAt, epoch seconds):
 * the dedupe record, each channel's claim, and a webhook's lane of one game (issue 16's audit:
 * the lane, added with ordered webhooks, had none and stayed forever).
 */
const T0 = '2026-05-01T10:00:00.000Z';
const epoch = (iso: string) => Math.floor(Date.parse(iso) / 1000);

describe('notification records expire', () => {
  it('a webhook lane carries expiresAt from its first hold, moved on by each hold and each parked job', async () => {
    const { client, tableName } = await freshTable('expiry');
    const lanes = new DynamoWebhookLanes(client, tableName);
    const doc = documentClient(client);
    const lane = async () =>
      (await doc.send(new GetCommand({ TableName: tableName, Key: { pk: 'PLAYER#amy', sk: 'LANE#wh1#g1' }, ConsistentRead: true }))).Item!;

    await lanes.hold('amy', 'wh1', 'g1', 4, T0);
    expect((await lane())['expiresAt']).toBe(epoch(T0) + RECORD_TTL_SECONDS);

    const later = '2026-05-02T10:00:00.000Z';
    const job = { notice: { gameId: 'g1', version: 6 } } as unknown as NotifyJob;
    expect(await lanes.waitBehind('amy', 'wh1', 'g1', 6, job, later)).toBe(true);
    expect((await lane())['expiresAt']).toBe(epoch(later) + RECORD_TTL_SECONDS);
  });

  it("a notice's dedupe record and its channel claim carry expiresAt", async () => {
    const { client, tableName } = await freshTable('expiry-ledger');
    const ledger = new DynamoNoticeLedger(client, tableName);
    const doc = documentClient(client);
    await ledger.open('g1:4:turn:amy', 'amy', ['email'], T0);
    await ledger.take('g1:4:turn:amy', 'email', T0);
    const items = await Promise.all(
      ['NOTIFIED', 'CHANNEL#email'].map(
        async (sk) => (await doc.send(new GetCommand({ TableName: tableName, Key: { pk: 'NOTIFIED#g1:4:turn:amy', sk }, ConsistentRead: true }))).Item,
      ),
    );
    expect(items.map((i) => i?.['expiresAt'])).toEqual([epoch(T0) + RECORD_TTL_SECONDS, epoch(T0) + RECORD_TTL_SECONDS]);
  });
});
