import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';

/**
 * Counts DynamoDB calls by operation name (QueryCommand, TransactWriteItemsCommand, ...).
 * A middleware on the base client also sees calls made through a DynamoDBDocumentClient
 * built from it, because the document client shares the base client's middleware stack.
 */
export interface CallCounter {
  readonly counts: Record<string, number>;
  total(): number;
  reset(): void;
}

export function countCalls(client: DynamoDBClient): CallCounter {
  const counts: Record<string, number> = {};
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const name = context.commandName ?? 'unknown';
      counts[name] = (counts[name] ?? 0) + 1;
      return next(args);
    },
    { step: 'initialize', name: 'fieldpostCallCounter', override: true },
  );
  return {
    counts,
    total: () => Object.values(counts).reduce((a, b) => a + b, 0),
    reset: () => {
      for (const k of Object.keys(counts)) delete counts[k];
    },
  };
}
