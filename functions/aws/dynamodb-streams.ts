import { awsJson10, type AwsClientConfig } from './call.js';
import { decodeBinary, type AttributeValue } from './marshall.js';

/**
 * What the Lambda bundles use of @aws-sdk/client-dynamodb-streams (the projector's repair of a
 * failed batch, functions/projections/repair.ts), over the JSON 1.0 protocol (functions/aws/call.ts
 * says why). Images come as attribute values with binary decoded, as the SDK gives them.
 */

export class GetShardIteratorCommand {
  readonly operation = 'GetShardIterator';
  constructor(readonly input: Record<string, unknown>) {}
}
export class GetRecordsCommand {
  readonly operation = 'GetRecords';
  constructor(readonly input: Record<string, unknown>) {}
}

type Image = Record<string, AttributeValue>;
interface WireRecord {
  dynamodb?: { Keys?: Image; NewImage?: Image; OldImage?: Image; ApproximateCreationDateTime?: number } & Record<string, unknown>;
}

function decodeRecord(r: WireRecord): unknown {
  if (!r.dynamodb) return r;
  const d = { ...r.dynamodb } as Record<string, unknown>;
  for (const k of ['Keys', 'NewImage', 'OldImage'] as const) if (r.dynamodb[k]) d[k] = decodeBinary(r.dynamodb[k]);
  // The SDK turns the epoch seconds into a Date.
  if (typeof r.dynamodb.ApproximateCreationDateTime === 'number') d['ApproximateCreationDateTime'] = new Date(r.dynamodb.ApproximateCreationDateTime * 1000);
  return { ...r, dynamodb: d };
}

export class DynamoDBStreamsClient {
  constructor(readonly config: AwsClientConfig = {}) {}

  async send(command: GetShardIteratorCommand | GetRecordsCommand): Promise<Record<string, unknown>> {
    const out = await awsJson10(this.config, 'dynamodb', `DynamoDBStreams_20120810.${command.operation}`, command.input, { hostPrefix: 'streams.dynamodb' });
    return Array.isArray(out['Records']) ? { ...out, Records: (out['Records'] as WireRecord[]).map(decodeRecord) } : out;
  }
}
