import { RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { TABLE_KEYS } from '../functions/store/table.js';

/**
 * Items that carry this attribute (epoch seconds) expire: notification dedupe records and
 * webhook delivery logs (functions/notify/stores.ts). Game items never carry it.
 */
export const TTL_ATTRIBUTE = 'expiresAt';

/**
 * The one table of functions/ports.ts: events, heads, snapshots, idempotency records and
 * read models. It is the system of record, so it is hard to lose: deletion protection,
 * RETAIN on stack deletion, and point-in-time recovery.
 */
export class FieldpostData extends Construct {
  readonly table: dynamodb.Table;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.table = new dynamodb.Table(this, 'Table', {
      partitionKey: { name: TABLE_KEYS.partitionKey, type: dynamodb.AttributeType.STRING },
      sortKey: { name: TABLE_KEYS.sortKey, type: dynamodb.AttributeType.STRING },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      // The projector reads HEAD/event changes from the stream; it needs both images to
      // tell what changed (whose move it was before and after).
      stream: dynamodb.StreamViewType.NEW_AND_OLD_IMAGES,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      // KMS encryption with the AWS managed key (aws/dynamodb): no key policy to manage.
      encryption: dynamodb.TableEncryption.AWS_MANAGED,
      timeToLiveAttribute: TTL_ATTRIBUTE,
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
  }
}
