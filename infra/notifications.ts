import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as ses from 'aws-cdk-lib/aws-ses';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

export interface FieldpostNotificationsProps {
  /** The SES identity: an email address or a domain (see FieldpostConfig.mailIdentity). */
  readonly mailIdentity: string;
  /** The notifier's timeout; the queue's visibility timeout is derived from it. */
  readonly notifierTimeout: Duration;
  /** The projector's timeout; the repair queue's visibility timeout is derived from it. */
  readonly projectorTimeout: Duration;
}

/** Receives (notifier attempts) before a notification job is parked in the dead-letter queue. */
export const NOTIFY_MAX_RECEIVE_COUNT = 5;

/**
 * Tries of a projector batch the stream mapping gave up on (functions/projections/repair.ts),
 * one visibility timeout (six projector timeouts) apart, before it is parked in the stream-failure
 * queue: about an hour of retries, well inside the stream's 24 hours.
 */
export const PROJECTOR_REPAIR_RECEIVE_COUNT = 10;

/**
 * The queues between the projector and the notifier (due now: FIFO; due later: the retry queue), the queue that catches stream batches
 * the projector could not process, and the SES identity mail is sent as.
 */
export class FieldpostNotifications extends Construct {
  /** Notification jobs due now (FIFO, a message group per recipient and game). */
  readonly queue: sqs.Queue;
  readonly deadLetterQueue: sqs.Queue;
  /** Notification jobs due later (standard, per-message DelaySeconds). */
  readonly retryQueue: sqs.Queue;
  readonly retryDeadLetterQueue: sqs.Queue;
  /** On-failure destination of the table stream's event source mappings; where a repair that kept failing is parked. */
  readonly streamFailureQueue: sqs.Queue;
  /** On-failure destination of the projector's mapping, consumed by the projector itself (the repair). */
  readonly projectorRepairQueue: sqs.Queue;
  readonly identity: ses.EmailIdentity;

  constructor(scope: Construct, id: string, props: FieldpostNotificationsProps) {
    super(scope, id);

    const parked = {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      // Longest SQS retention, so an operator has two weeks to look at and redrive failures.
      retentionPeriod: Duration.days(14),
      removalPolicy: RemovalPolicy.DESTROY,
    } as const;

    this.streamFailureQueue = new sqs.Queue(this, 'StreamFailureQueue', parked);
    this.projectorRepairQueue = new sqs.Queue(this, 'ProjectorRepairQueue', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      visibilityTimeout: Duration.seconds(props.projectorTimeout.toSeconds() * 6),
      // The stream keeps records 24 hours; a message older than that can no longer be read back.
      retentionPeriod: Duration.days(1),
      removalPolicy: RemovalPolicy.DESTROY,
      deadLetterQueue: { queue: this.streamFailureQueue, maxReceiveCount: PROJECTOR_REPAIR_RECEIVE_COUNT },
    });

    // A job due now goes to the FIFO queue, one message group per recipient and game: SQS hands
    // the notifier a group's messages in order and one batch of a group at a time, so two notices
    // of one game that arrive together are tried in the game's order (functions/notify/queue.ts).
    // A FIFO queue takes no per-message delay, so a job due later (a retry's backoff, a re-check
    // after a lease) goes to the standard retry queue with DelaySeconds; a retry that is due is
    // kept behind the game's earlier notices by the webhook lanes (functions/notify/stores.ts).
    const consumed = {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      // AWS advises at least six times the function timeout for an SQS event source, so a
      // message is not redelivered while a slow (throttled) invocation still holds it.
      visibilityTimeout: Duration.seconds(props.notifierTimeout.toSeconds() * 6),
      retentionPeriod: Duration.days(4),
    } as const;
    this.deadLetterQueue = new sqs.Queue(this, 'NotifyFifoDeadLetterQueue', { ...parked, fifo: true });
    this.queue = new sqs.Queue(this, 'NotifyFifoQueue', {
      ...consumed,
      fifo: true,
      // Deduplicated by the id each message carries (a notice's key for a first attempt), not by content.
      contentBasedDeduplication: false,
      // High-throughput FIFO: order and deduplication per message group, so games do not queue behind each other.
      deduplicationScope: sqs.DeduplicationScope.MESSAGE_GROUP,
      fifoThroughputLimit: sqs.FifoThroughputLimit.PER_MESSAGE_GROUP_ID,
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: NOTIFY_MAX_RECEIVE_COUNT },
    });
    this.retryDeadLetterQueue = new sqs.Queue(this, 'NotifyDeadLetterQueue', parked);
    this.retryQueue = new sqs.Queue(this, 'NotifyQueue', {
      ...consumed,
      deadLetterQueue: { queue: this.retryDeadLetterQueue, maxReceiveCount: NOTIFY_MAX_RECEIVE_COUNT },
    });

    const isDomain = !props.mailIdentity.includes('@');
    this.identity = new ses.EmailIdentity(this, 'MailIdentity', {
      identity: isDomain ? ses.Identity.domain(props.mailIdentity) : ses.Identity.email(props.mailIdentity),
    });
  }
}
