import { GetItemCommand, type AttributeValue, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { itemSize } from '../../functions/store/item-size.js';

/**
 * DynamoDB's own count of read and write units: every call made through `client` (and document
 * clients built from it) asks for ReturnConsumedCapacity TOTAL, and the units it reports are
 * added up. On-demand tables bill exactly these (read request units, write request units).
 *
 * A conditional write whose condition failed reports nothing and is billed all the same: counted
 * as 1 unit, its least (a lower bound where the item is over 1 KB).
 *
 * One exception: DynamoDB Local under-reports TransactWriteItems (3 small Puts report 2 units,
 * where DynamoDB bills 6: two units per KB of each item). For transactions the meter counts
 * what DynamoDB bills: 2 × the 1 KB steps of each item, the Puts' from the request, the Updates'
 * and Deletes' from the item as it stands afterwards (read outside the meter).
 */
export interface CapacityMeter {
  readonly read: number;
  readonly write: number;
  reset(): void;
}

interface Consumed {
  CapacityUnits?: number;
  ReadCapacityUnits?: number;
  WriteCapacityUnits?: number;
}

type Raw = Record<string, AttributeValue>;

/** An item's size as DynamoDB counts it, from its wire form. */
export function rawSize(item: Raw): number {
  const plain = (v: AttributeValue): unknown =>
    v.S ??
    (v.N !== undefined
      ? Number(v.N)
      : (v.B ?? (v.L ? v.L.map(plain) : v.M ? Object.fromEntries(Object.entries(v.M).map(([k, x]) => [k, plain(x)])) : (v.BOOL ?? null))));
  return itemSize(Object.fromEntries(Object.entries(item).map(([k, v]) => [k, plain(v)])));
}

const WRITES = new Set(['PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'TransactWriteItemsCommand', 'BatchWriteItemCommand']);

/** A transaction's item as sent: wire form (the plain client) or plain values (a document client). */
interface TransactItem {
  Put?: { TableName: string; Item: Record<string, unknown> };
  Update?: { TableName: string; Key: Record<string, unknown> };
  Delete?: { TableName: string; Key: Record<string, unknown> };
  ConditionCheck?: { TableName: string; Key: Record<string, unknown> };
}

/** Our keys are strings: a key attribute that is an object is in wire form ({ S: ... }). */
const isWire = (item: Record<string, unknown>) => typeof item['pk'] === 'object';

export function meterCapacity(client: DynamoDBClient): CapacityMeter {
  const units = { read: 0, write: 0 };
  const doc = DynamoDBDocumentClient.from(client);
  /** What DynamoDB bills for a transaction of these (wire-form) items, once it has run. */
  const transactionUnits = async (items: readonly TransactItem[]): Promise<number> => {
    let n = 0;
    for (const t of items) {
      const kb = (bytes: number) => Math.max(1, Math.ceil(bytes / 1024));
      if (t.Put) n += 2 * kb(isWire(t.Put.Item) ? rawSize(t.Put.Item as Raw) : itemSize(t.Put.Item));
      else {
        // Read while `probing`: not metered. A deleted item is billed as at least 1 KB.
        const { TableName, Key } = t.Update ?? t.Delete ?? t.ConditionCheck!;
        const after = isWire(Key)
          ? (await client.send(new GetItemCommand({ TableName, Key: Key as Raw, ConsistentRead: true }))).Item
          : (await doc.send(new GetCommand({ TableName, Key, ConsistentRead: true }))).Item;
        n += 2 * kb(after ? (isWire(after) ? rawSize(after as Raw) : itemSize(after)) : 0);
      }
    }
    return n;
  };
  let probing = 0;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (probing > 0 && context.commandName === 'GetItemCommand') return next(args);
      const input = args.input as Record<string, unknown>;
      input['ReturnConsumedCapacity'] ??= 'TOTAL';
      let out;
      try {
        out = await next(args);
      } catch (e) {
        // A conditional write whose condition failed reports no units, but DynamoDB bills it: at least 1.
        if (WRITES.has(context.commandName ?? '') && (e as Error).name === 'ConditionalCheckFailedException') units.write += 1;
        throw e;
      }
      if (context.commandName === 'TransactWriteItemsCommand') {
        probing++;
        try {
          units.write += await transactionUnits(input['TransactItems'] as TransactItem[]);
        } finally {
          probing--;
        }
        return out;
      }
      const consumed = (out.output as { ConsumedCapacity?: Consumed | Consumed[] }).ConsumedCapacity;
      const write = WRITES.has(context.commandName ?? '');
      for (const c of Array.isArray(consumed) ? consumed : consumed ? [consumed] : []) {
        if (write) units.write += c.WriteCapacityUnits ?? c.CapacityUnits ?? 0;
        else units.read += c.ReadCapacityUnits ?? c.CapacityUnits ?? 0;
      }
      return out;
    },
    { step: 'initialize', name: 'fieldpostCapacityMeter', override: true },
  );
  return {
    get read() {
      return units.read;
    },
    get write() {
      return units.write;
    },
    reset: () => {
      units.read = 0;
      units.write = 0;
    },
  };
}
