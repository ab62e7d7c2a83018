import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { HandlerName } from './handler-function.js';

export interface FieldpostAlarmsProps {
  readonly functions: Readonly<Record<HandlerName, lambda.IFunction>>;
  /** The function fed by the table stream; its iterator age says how far behind it is. */
  readonly streamConsumer: lambda.IFunction;
  readonly deadLetterQueues: Readonly<Record<'notify' | 'notifyRetry' | 'streamFailure' | 'deadline', sqs.IQueue>>;
  /** The API's 5xx answers, from its front door: often handled errors (the function succeeds), so Errors misses them. */
  readonly apiServerErrors: cloudwatch.IMetric;
  readonly alarmEmail?: string;
}

/** Iterator age beyond which read models and "your turn" mails are noticeably late. */
export const ITERATOR_AGE_THRESHOLD = Duration.minutes(5);

/** Server errors in 5 minutes that page the operator (one can be a client racing a deploy). */
export const API_5XX_THRESHOLD = 5;

/**
 * Alarms for everything that means "a player was not told" or "a read model is stale":
 * anything parked in a dead-letter queue, a stream consumer falling behind, and function
 * errors. All of them publish to one SNS topic (optionally mailed to alarmEmail).
 */
export class FieldpostAlarms extends Construct {
  readonly topic: sns.Topic;
  readonly alarms: cloudwatch.Alarm[] = [];

  constructor(scope: Construct, id: string, props: FieldpostAlarmsProps) {
    super(scope, id);
    // Not KMS-encrypted: CloudWatch cannot publish to a topic under the AWS managed
    // aws/sns key, and alarm state changes carry no player data.
    this.topic = new sns.Topic(this, 'Topic', { displayName: 'Fieldpost alarms', enforceSSL: true });
    if (props.alarmEmail) this.topic.addSubscription(new subscriptions.EmailSubscription(props.alarmEmail));
    const action = new SnsAction(this.topic);

    const add = (alarmId: string, alarmProps: cloudwatch.AlarmProps): void => {
      const alarm = new cloudwatch.Alarm(this, alarmId, alarmProps);
      alarm.addAlarmAction(action);
      alarm.addOkAction(action);
      this.alarms.push(alarm);
    };

    for (const [name, queue] of Object.entries(props.deadLetterQueues)) {
      add(`${cap(name)}DeadLetterDepth`, {
        alarmDescription: `Messages are waiting in the ${name} dead-letter queue: inspect them, fix the cause, then redrive.`,
        metric: queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: 'Maximum' }),
        threshold: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });
    }

    add('StreamIteratorAge', {
      alarmDescription: `The table stream consumer is more than ${ITERATOR_AGE_THRESHOLD.toMinutes()} minutes behind: read models and notifications are late.`,
      metric: props.streamConsumer.metric('IteratorAge', { period: Duration.minutes(5), statistic: 'Maximum' }),
      threshold: ITERATOR_AGE_THRESHOLD.toMilliseconds(),
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 2,
      // No records means no metric: an idle stream is healthy.
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });

    for (const [name, fn] of Object.entries(props.functions)) {
      add(`${cap(name)}Errors`, {
        alarmDescription: `The ${name} function failed (threw or timed out) in the last 5 minutes.`,
        metric: fn.metricErrors({ period: Duration.minutes(5), statistic: 'Sum' }),
        threshold: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });
    }

    add('ApiServerErrors', {
      alarmDescription: `The API answered ${API_5XX_THRESHOLD} or more requests with a 5xx in 5 minutes.`,
      metric: props.apiServerErrors,
      threshold: API_5XX_THRESHOLD,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
  }
}

const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
