import type { DynamoDBClient } from './dynamodb.js';
import { marshall, unmarshall, type AttributeValue } from './marshall.js';

/**
 * What the Lambda bundles use of @aws-sdk/lib-dynamodb: the document client and its commands,
 * plain JS values in and out (functions/aws/call.ts says why it replaces the SDK there).
 * Each command names its DynamoDB operation and which of its fields hold items, keys or
 * expression values.
 */

type Doc = Record<string, unknown>;
type Item = Record<string, AttributeValue>;

const items = (xs: unknown) => (xs as Item[] | undefined)?.map(unmarshall);
const item = (x: unknown) => (x ? unmarshall(x as Item) : undefined);

/** The request's key, item, start key and expression values marshalled; everything else as given. */
function wire(input: Doc): Doc {
  const out: Doc = { ...input };
  for (const k of ['Key', 'Item', 'ExclusiveStartKey', 'ExpressionAttributeValues'] as const) if (input[k]) out[k] = marshall(input[k] as Doc);
  return out;
}

/** The reply with its items unmarshalled; absent fields stay absent. */
function plain(output: Doc): Doc {
  const out: Doc = { ...output };
  if ('Item' in output) out['Item'] = item(output['Item']);
  if ('Items' in output) out['Items'] = items(output['Items']);
  if ('Attributes' in output) out['Attributes'] = item(output['Attributes']);
  if ('LastEvaluatedKey' in output) out['LastEvaluatedKey'] = item(output['LastEvaluatedKey']);
  return out;
}

abstract class DocCommand<I extends Doc> {
  abstract readonly operation: string;
  constructor(readonly input: I) {}
  request(): Doc {
    return wire(this.input);
  }
}

export class GetCommand extends DocCommand<Doc> {
  readonly operation = 'GetItem';
}
export class PutCommand extends DocCommand<Doc> {
  readonly operation = 'PutItem';
}
export class UpdateCommand extends DocCommand<Doc> {
  readonly operation = 'UpdateItem';
}
export class DeleteCommand extends DocCommand<Doc> {
  readonly operation = 'DeleteItem';
}
export class QueryCommand extends DocCommand<Doc> {
  readonly operation = 'Query';
}
export class ScanCommand extends DocCommand<Doc> {
  readonly operation = 'Scan';
}
export class TransactWriteCommand extends DocCommand<{ TransactItems: Record<string, Doc>[] } & Doc> {
  readonly operation = 'TransactWriteItems';
  override request(): Doc {
    return {
      ...this.input,
      TransactItems: this.input.TransactItems.map((entry) => Object.fromEntries(Object.entries(entry).map(([kind, op]) => [kind, wire(op)]))),
    };
  }
}

export class DynamoDBDocumentClient {
  private constructor(private readonly client: DynamoDBClient) {}

  /** As the SDK's: every store here passes `removeUndefinedValues`, which marshall always does. */
  static from(client: DynamoDBClient, _options?: unknown): DynamoDBDocumentClient {
    return new DynamoDBDocumentClient(client);
  }

  async send(command: DocCommand<Doc>): Promise<Doc> {
    return plain(await this.client.call(command.operation, command.request()));
  }

  destroy(): void {}
}
