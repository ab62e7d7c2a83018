import { beforeAll, describe, expect, it } from 'vitest';
import {
  GetItemCommand as SdkGetItem,
  PutItemCommand as SdkPutItem,
  QueryCommand as SdkQuery,
  type DynamoDBClient as SdkClient,
} from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient as SdkDocumentClient, GetCommand as SdkGet, PutCommand as SdkPut } from '@aws-sdk/lib-dynamodb';
import { DynamoDBClient, PutItemCommand, QueryCommand as RawQuery, TransactionCanceledException } from '../../functions/aws/dynamodb.js';
import { fromWire, toWire } from '../../functions/store/wire.js';
import {
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '../../functions/aws/lib-dynamodb.js';
import { freshTable } from '../support/dynamo.js';

/** The error a call fails with (the test fails if it does not). */
async function failure<E = ServiceError>(call: Promise<unknown>): Promise<E> {
  try {
    await call;
  } catch (e) {
    return e as E;
  }
  throw new Error('the call did not fail');
}
type ServiceError = Error & { $metadata: { attempts: number; httpStatusCode: number }; Item?: Record<string, Record<string, unknown>> };

/**
 * The document client the Lambda bundles use instead of the SDK's (functions/aws/), against
 * DynamoDB Local, side by side with the SDK's: the same items either way, errors with the
 * SDK's names, classes and fields. (The store tests run on it too: the as-bundled project.)
 */

let sdk: SdkDocumentClient;
let sdkClient: SdkClient;
let raw: DynamoDBClient;
let doc: DynamoDBDocumentClient;
let tableName: string;

beforeAll(async () => {
  const t = await freshTable('aws');
  tableName = t.tableName;
  sdkClient = t.client as SdkClient;
  sdk = SdkDocumentClient.from(sdkClient, { marshallOptions: { removeUndefinedValues: true } });
  raw = new DynamoDBClient({ endpoint: t.endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  doc = DynamoDBDocumentClient.from(raw);
});

const item = (sk: string) => ({
  pk: 'P',
  sk,
  text: 'Tiger ✓',
  n: 12.5,
  big: Number.MAX_SAFE_INTEGER,
  yes: true,
  none: null,
  gone: undefined,
  bytes: new Uint8Array([0, 1, 2, 250, 255]),
  list: [1, 'two', { three: [3] }, new Uint8Array([9])],
  map: Object.fromEntries([
    ['toString', 'y'],
    ['deep', { list: [false] }],
  ]),
});

describe('the document client of the Lambda bundles', () => {
  it('writes items the SDK reads back equal, and reads what the SDK wrote equal (binary, nesting, undefined left out; odd map keys as own keys)', async () => {
    await doc.send(new PutCommand({ TableName: tableName, Item: item('mine') }));
    await sdk.send(new SdkPut({ TableName: tableName, Item: item('sdk') }));
    const mineBySdk = (await sdk.send(new SdkGet({ TableName: tableName, Key: { pk: 'P', sk: 'mine' }, ConsistentRead: true }))).Item;
    const sdkByMine = (await doc.send(new GetCommand({ TableName: tableName, Key: { pk: 'P', sk: 'sdk' }, ConsistentRead: true })))['Item'] as Record<
      string,
      unknown
    >;
    const sdkBySdk = (await sdk.send(new SdkGet({ TableName: tableName, Key: { pk: 'P', sk: 'sdk' }, ConsistentRead: true }))).Item;
    expect({ ...mineBySdk, sk: 'sdk' }).toEqual(sdkBySdk);
    expect(sdkByMine).toEqual(sdkBySdk);
    expect(sdkByMine['bytes']).toBeInstanceOf(Uint8Array);
    expect(Object.hasOwn(sdkByMine, 'gone')).toBe(false);
    // Map keys "__proto__" and "constructor" (which the SDK's marshaller cannot write) round-trip
    // as own keys, never as a prototype.
    const odd = {
      pk: 'P',
      sk: 'odd',
      map: Object.fromEntries([
        ['__proto__', 'a key'],
        ['constructor', 'x'],
      ]),
    };
    await doc.send(new PutCommand({ TableName: tableName, Item: odd }));
    const back = (await doc.send(new GetCommand({ TableName: tableName, Key: { pk: 'P', sk: 'odd' }, ConsistentRead: true })))['Item'] as { map: object };
    expect(back).toEqual(odd);
    expect(Object.getPrototypeOf(back.map)).toBe(Object.prototype);
    expect(Object.hasOwn(back.map, '__proto__')).toBe(true);
  });

  it("the event store's attribute values (store/wire.ts) are the SDK's marshalling, and its plain client writes and reads them as the SDK's does", async () => {
    const plain = item('wire');
    // Attribute values as the SDK's document client writes them, binary as Uint8Array.
    await sdk.send(new SdkPut({ TableName: tableName, Item: plain }));
    const written = (await sdkClient.send(new SdkGetItem({ TableName: tableName, Key: { pk: { S: 'P' }, sk: { S: 'wire' } }, ConsistentRead: true }))).Item;
    expect(toWire(plain)).toEqual(written);
    const { gone, ...kept } = plain;
    expect(gone).toBeUndefined();
    expect(fromWire(toWire(plain))).toEqual(kept);
    expect(() => toWire({ pk: 'P', n: Number.NaN })).toThrow();
    // The plain client of the bundles takes binary as Uint8Array too (as the SDK's does): the same item either way.
    await raw.send(new PutItemCommand({ TableName: tableName, Item: toWire({ ...plain, sk: 'raw-mine' }) }));
    await sdkClient.send(new SdkPutItem({ TableName: tableName, Item: toWire({ ...plain, sk: 'raw-sdk' }) }));
    const query = {
      TableName: tableName,
      KeyConditionExpression: 'pk = :p AND begins_with(sk, :s)',
      ExpressionAttributeValues: { ':p': { S: 'P' }, ':s': { S: 'raw-' } },
    };
    const mine = ((await raw.send(new RawQuery(query)))['Items'] as Record<string, Record<string, unknown>>[]).map((i) => fromWire(i as never));
    const theirs = ((await sdkClient.send(new SdkQuery(query))).Items ?? []).map(fromWire);
    expect(mine).toEqual(theirs);
    expect(mine.map((i) => i['sk'])).toEqual(['raw-mine', 'raw-sdk']);
    expect(mine[0]!['bytes']).toEqual(new Uint8Array([0, 1, 2, 250, 255]));
    expect({ ...mine[0], sk: 'wire' }).toEqual(kept);
  });

  it('queries in pages, updates and deletes with the values they return', async () => {
    for (const sk of ['q1', 'q2', 'q3']) await doc.send(new PutCommand({ TableName: tableName, Item: { pk: 'Q', sk, v: 0 } }));
    const first = await doc.send(
      new QueryCommand({ TableName: tableName, KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': 'Q' }, Limit: 2 }),
    );
    expect((first['Items'] as { sk: string }[]).map((i) => i.sk)).toEqual(['q1', 'q2']);
    expect(first['LastEvaluatedKey']).toEqual({ pk: 'Q', sk: 'q2' });
    const rest = await doc.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :p',
        ExpressionAttributeValues: { ':p': 'Q' },
        ExclusiveStartKey: first['LastEvaluatedKey'] as Record<string, unknown>,
      }),
    );
    expect((rest['Items'] as { sk: string }[]).map((i) => i.sk)).toEqual(['q3']);
    expect(rest['LastEvaluatedKey']).toBeUndefined();
    const up = await doc.send(
      new UpdateCommand({
        TableName: tableName,
        Key: { pk: 'Q', sk: 'q1' },
        UpdateExpression: 'SET v = v + :one',
        ExpressionAttributeValues: { ':one': 1 },
        ReturnValues: 'ALL_NEW',
      }),
    );
    expect(up['Attributes']).toEqual({ pk: 'Q', sk: 'q1', v: 1 });
    const del = await doc.send(new DeleteCommand({ TableName: tableName, Key: { pk: 'Q', sk: 'q2' }, ReturnValues: 'ALL_OLD' }));
    expect(del['Attributes']).toEqual({ pk: 'Q', sk: 'q2', v: 0 });
    const count = await doc.send(
      new QueryCommand({ TableName: tableName, KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': 'Q' }, Select: 'COUNT' }),
    );
    expect(count['Count']).toBe(2);
  });

  it('a failed condition is a ConditionalCheckFailedException carrying the old item as attribute values, binary decoded (as the SDK gives it)', async () => {
    await doc.send(new PutCommand({ TableName: tableName, Item: { pk: 'C', sk: 'HEAD', version: 3, recent: new Uint8Array([7, 7]) } }));
    const e = await failure(
      doc.send(
        new UpdateCommand({
          TableName: tableName,
          Key: { pk: 'C', sk: 'HEAD' },
          UpdateExpression: 'SET version = :v',
          ConditionExpression: 'version = :expected',
          ExpressionAttributeValues: { ':v': 5, ':expected': 4 },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      ),
    );
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe('ConditionalCheckFailedException');
    expect(e.$metadata.httpStatusCode).toBe(400);
    expect(e.$metadata.attempts).toBe(1);
    expect(e.Item?.['version']).toEqual({ N: '3' });
    expect(e.Item?.['recent']?.['B']).toEqual(new Uint8Array([7, 7]));
  });

  it('a cancelled transaction is a TransactionCanceledException with a reason per item; bad input is a ValidationException, not retried', async () => {
    await doc.send(new PutCommand({ TableName: tableName, Item: { pk: 'T', sk: 'taken' } }));
    const e = await failure<TransactionCanceledException>(
      doc.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: tableName, Item: { pk: 'T', sk: 'new' }, ConditionExpression: 'attribute_not_exists(pk)' } },
            { Put: { TableName: tableName, Item: { pk: 'T', sk: 'taken' }, ConditionExpression: 'attribute_not_exists(pk)' } },
          ],
        }),
      ),
    );
    expect(e).toBeInstanceOf(TransactionCanceledException);
    expect(e.name).toBe('TransactionCanceledException');
    expect(e.CancellationReasons?.map((r) => r.Code)).toEqual(['None', 'ConditionalCheckFailed']);
    const nothing = await doc.send(new GetCommand({ TableName: tableName, Key: { pk: 'T', sk: 'new' }, ConsistentRead: true }));
    expect(nothing['Item']).toBeUndefined();

    const bad = await failure(doc.send(new GetCommand({ TableName: tableName, Key: { pk: 'T' } })));
    expect(bad.name).toBe('ValidationException');
    expect(bad.$metadata.attempts).toBe(1);
  });
});
