import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';

/**
 * DynamoDB's own count of read and write units: every call made through `client` (and document
 * clients built from it) asks for ReturnConsumedCapacity TOTAL, and the units it reports are
 * added up. On-demand tables bill exactly these (read request units, write request units).
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

const WRITES = new Set(['PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'TransactWriteItemsCommand', 'BatchWriteItemCommand']);

export function meterCapacity(client: DynamoDBClient): CapacityMeter {
  const units = { read: 0, write: 0 };
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as Record<string, unknown>;
      input['ReturnConsumedCapacity'] ??= 'TOTAL';
      const out = await next(args);
      const consumed = (out.output as { ConsumedCapacity?: Consumed | Consumed[] }).ConsumedCapacity;
      const write = WRITES.has(context.commandName ?? '');
      for (const c of Array.isArray(consumed) ? consumed : consumed ? [consumed] : []) {
        // Transactions report the doubled units in CapacityUnits; reads and writes apart where given.
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
