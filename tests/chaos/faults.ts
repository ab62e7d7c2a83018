import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';

/** The DynamoDB faults injected, each thrown where the SDK client's retry loop sees it. */
export const FAULT_KINDS = [
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'InternalServerError',
  'TransactionConflictException',
  'TimeoutError',
  'ECONNRESET',
  'lost-reply',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

function faultError(kind: Exclude<FaultKind, 'lost-reply'>): Error {
  switch (kind) {
    case 'ProvisionedThroughputExceededException':
    case 'ThrottlingException':
      return Object.assign(new Error('Rate of requests exceeds the allowed throughput'), { name: kind, $fault: 'client', $metadata: { httpStatusCode: 400 } });
    case 'InternalServerError':
      return Object.assign(new Error('Internal server error'), { name: kind, $fault: 'server', $metadata: { httpStatusCode: 500 } });
    case 'TransactionConflictException':
      return Object.assign(new Error('Transaction is ongoing for the item'), { name: kind, $fault: 'client', $metadata: { httpStatusCode: 400 } });
    case 'TimeoutError':
      return Object.assign(new Error('Connection timed out'), { name: kind, code: 'ETIMEDOUT', $metadata: {} });
    case 'ECONNRESET':
      return Object.assign(new Error('socket hang up'), { name: 'Error', code: 'ECONNRESET', $metadata: {} });
  }
}

const WRITES = /Put|Update|Delete|TransactWrite|BatchWrite/;

/**
 * Injects faults into every call the client makes, at `rate` (0..1), kinds drawn from `random`;
 * `injected` hears of each. A lost reply happens only on writes: the write reaches DynamoDB, its
 * reply is dropped. Returns a switch to stop injecting (for the end checks).
 */
export function injectFaults(client: DynamoDBClient, rate: number, random: () => number, injected: (kind: FaultKind) => void): { stop(): void } {
  let on = true;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (!on || random() >= rate) return next(args);
      const command = context.commandName ?? '';
      const kind = FAULT_KINDS[Math.floor(random() * FAULT_KINDS.length)]!;
      if (kind === 'lost-reply') {
        if (!WRITES.test(command)) return next(args);
        await next(args);
        injected(kind);
        throw faultError('ECONNRESET');
      }
      injected(kind);
      throw faultError(kind);
    },
    { step: 'deserialize', name: 'chaosFaults' },
  );
  return { stop: () => (on = false) };
}

type Key = Readonly<Record<string, { readonly S?: string } | undefined>> | undefined;
const gameHead = (key: Key): boolean => key?.['sk']?.S === 'HEAD' && key['pk']?.S?.startsWith('GAME#') === true;

/** An event append: a write to a game's HEAD item (functions/store/dynamo-event-store.ts), alone or in a transaction. */
function isAppend(command: string, input: unknown): boolean {
  const i = input as { Item?: Key; Key?: Key; TransactItems?: { Put?: { Item?: Key } }[] };
  if (command === 'PutItemCommand') return gameHead(i.Item);
  if (command === 'UpdateItemCommand') return gameHead(i.Key);
  if (command === 'TransactWriteItemsCommand') return (i.TransactItems ?? []).some((t) => gameHead(t.Put?.Item));
  return false;
}

/**
 * Watches the event appends the client sends: `outstanding(n)` on each start and end (n appends
 * not yet answered), and `succeeded()` once DynamoDB has answered an append, before the store,
 * the service or the HTTP reply hear of it. Added before the faults, so it sees DynamoDB's own
 * answer (a lost reply injected after it still counts as a write that succeeded).
 */
export function watchAppends(client: DynamoDBClient, on: { outstanding(n: number): void; succeeded(): void }): void {
  let n = 0;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (!isAppend(context.commandName ?? '', args.input)) return next(args);
      on.outstanding(++n);
      try {
        const out = await next(args);
        // Inside the SDK's deserializer a refusal (a failed condition) is still a raw reply: only a 2xx was applied.
        const status = (out.response as { statusCode?: number } | undefined)?.statusCode;
        if (status === undefined || status < 300) on.succeeded();
        return out;
      } finally {
        on.outstanding(--n);
      }
    },
    { step: 'deserialize', name: 'chaosAppends', priority: 'low' },
  );
}
