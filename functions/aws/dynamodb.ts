import { AwsServiceError, awsJson10, type AwsClientConfig } from './call.js';
import { decodeBinary, encodeBinary, type AttributeValue } from './marshall.js';

/**
 * What the Lambda bundles use of @aws-sdk/client-dynamodb, over DynamoDB's JSON 1.0 protocol
 * (functions/aws/call.ts says why). The document client (functions/aws/lib-dynamodb.ts) calls
 * `call`; nothing else here sends commands.
 */

/** A cancelled transaction, with DynamoDB's reason for each of its items (binary decoded as the SDK does). */
export class TransactionCanceledException extends AwsServiceError {
  declare readonly CancellationReasons?: { Code?: string; Message?: string; Item?: Record<string, AttributeValue> }[];
}
/** CreateTable of a table that exists (functions/store/table.ts). */
export class ResourceInUseException extends AwsServiceError {}

const ERROR_CLASSES = new Map<string, typeof AwsServiceError>([
  ['TransactionCanceledException', TransactionCanceledException],
  ['ResourceInUseException', ResourceInUseException],
]);

/** Items in errors (ReturnValuesOnConditionCheckFailure) come as attribute values with binary decoded. */
function toError(name: string, message: string, status: number, requestId: string | undefined, attempts: number, fields: Record<string, unknown>): Error {
  const withItems: Record<string, unknown> = { ...fields };
  if (fields['Item']) withItems['Item'] = decodeBinary(fields['Item'] as Record<string, AttributeValue>);
  if (Array.isArray(fields['CancellationReasons']))
    withItems['CancellationReasons'] = (fields['CancellationReasons'] as { Item?: Record<string, AttributeValue> }[]).map((r) =>
      r.Item ? { ...r, Item: decodeBinary(r.Item) } : r,
    );
  const ErrorClass = ERROR_CLASSES.get(name) ?? AwsServiceError;
  return new ErrorClass(name, message, status, requestId, attempts, withItems);
}

/** A low-level command: the operation's input in attribute values, binary as Uint8Array (as the SDK takes it); `send` returns its wire output, binary decoded. */
abstract class Command {
  abstract readonly operation: string;
  constructor(readonly input: Record<string, unknown>) {}
}
export class GetItemCommand extends Command {
  readonly operation = 'GetItem';
}
export class CreateTableCommand extends Command {
  readonly operation = 'CreateTable';
}
export class DescribeTableCommand extends Command {
  readonly operation = 'DescribeTable';
}
export class ListTablesCommand extends Command {
  readonly operation = 'ListTables';
}
export class QueryCommand extends Command {
  readonly operation = 'Query';
}
export class PutItemCommand extends Command {
  readonly operation = 'PutItem';
}
export class ScanCommand extends Command {
  readonly operation = 'Scan';
}

/** The request's item, key, start key and expression values with binary base64-encoded for the wire; everything else as given. */
function encodeInput(input: Record<string, unknown>): Record<string, unknown> {
  const encoded: Record<string, unknown> = { ...input };
  for (const k of ['Item', 'Key', 'ExclusiveStartKey', 'ExpressionAttributeValues'])
    if (input[k]) encoded[k] = encodeBinary(input[k] as Record<string, AttributeValue>);
  return encoded;
}

function decodeOutput(out: Record<string, unknown>): Record<string, unknown> {
  const decoded: Record<string, unknown> = { ...out };
  for (const k of ['Item', 'Attributes', 'LastEvaluatedKey']) if (out[k]) decoded[k] = decodeBinary(out[k] as Record<string, AttributeValue>);
  if (Array.isArray(out['Items'])) decoded['Items'] = (out['Items'] as Record<string, AttributeValue>[]).map(decodeBinary);
  return decoded;
}

type Handler = (args: { input: unknown }) => Promise<unknown>;
type Middleware = (next: Handler, context: { commandName: string }) => Handler;

/**
 * The SDK's middleware stack, for its two steps that the tests use to count calls and inject
 * faults: 'initialize' wraps a whole call, 'deserialize' each attempt inside the retries.
 */
class MiddlewareStack {
  readonly initialize = new Map<string, Middleware>();
  readonly deserialize = new Map<string, Middleware>();

  add(middleware: Middleware, options: { step?: string; name?: string; override?: boolean } = {}): void {
    const step = options.step ?? 'initialize';
    if (step !== 'initialize' && step !== 'deserialize') throw new Error(`middleware step ${step} is not supported here`);
    const name = options.name ?? `anonymous-${this[step].size}`;
    if (this[step].has(name) && !options.override) throw new Error(`duplicate middleware name ${name}`);
    this[step].set(name, middleware);
  }

  /** Removes the middleware of that name from whichever step holds it. */
  remove(name: string): boolean {
    return this.initialize.delete(name) || this.deserialize.delete(name);
  }

  /** `last` wrapped by the step's middleware, the first added outermost. */
  wrap(step: 'initialize' | 'deserialize', commandName: string, last: Handler): Handler {
    return [...this[step].values()].reduceRight<Handler>((next, mw) => mw(next, { commandName }), last);
  }
}

export class DynamoDBClient {
  readonly middlewareStack = new MiddlewareStack();

  constructor(readonly config: AwsClientConfig = {}) {}

  /** One DynamoDB operation ('GetItem', 'TransactWriteItems'…) with wire-format input and output. */
  async call(operation: string, input: unknown): Promise<Record<string, unknown>> {
    const commandName = `${operation}Command`;
    // As in the SDK, a middleware's `next` resolves to `{ output }`.
    const whole = this.middlewareStack.wrap('initialize', commandName, async (args) => ({
      output: await awsJson10(this.config, 'dynamodb', `DynamoDB_20120810.${operation}`, args.input, {
        toError,
        eachAttempt: async (send) => {
          let res: Awaited<ReturnType<typeof send>> | undefined;
          await this.middlewareStack.wrap('deserialize', commandName, async () => ({ response: (res = await send()) }))({ input: args.input });
          return res!;
        },
      }),
    }));
    return ((await whole({ input })) as { output: Record<string, unknown> }).output;
  }

  /** A low-level command, as the SDK client's send (table set-up, the event store's load and tip write, a few tests). */
  async send(command: Command): Promise<Record<string, unknown>> {
    return decodeOutput(await this.call(command.operation, encodeInput(command.input)));
  }

  destroy(): void {}
}
