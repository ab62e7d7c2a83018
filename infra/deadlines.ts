import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

export interface FieldpostDeadlinesProps {
  /** Makes the schedules (from the table stream): functions/handlers/scheduler.ts. */
  readonly planner: lambda.IFunction;
  /** What the schedules invoke: functions/handlers/deadline.ts. */
  readonly deadline: lambda.IFunction;
}

/**
 * Correspondence clocks in AWS (issue 10): the schedule group every game's one-time schedules
 * live in, the role EventBridge Scheduler invokes the deadline function with (that function and
 * the dead-letter queue, nothing else), and the queue where a wake lands once its retries are
 * spent. The planner may create schedules in this group only, and pass this role only.
 */
export class FieldpostDeadlines extends Construct {
  readonly group: scheduler.ScheduleGroup;
  readonly role: iam.Role;
  readonly deadLetterQueue: sqs.Queue;
  /** The ARN pattern of the group's schedules (their names are made per game and moment). */
  readonly schedulesArn: string;

  constructor(scope: Construct, id: string, props: FieldpostDeadlinesProps) {
    super(scope, id);
    const stack = Stack.of(this);

    this.group = new scheduler.ScheduleGroup(this, 'Group', { removalPolicy: RemovalPolicy.DESTROY });
    this.deadLetterQueue = new sqs.Queue(this, 'DeadLetterQueue', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
      removalPolicy: RemovalPolicy.DESTROY,
    });

    this.role = new iam.Role(this, 'InvokeRole', {
      // Only schedules of this account may use the role (confused deputy).
      assumedBy: new iam.ServicePrincipal('scheduler.amazonaws.com', { conditions: { StringEquals: { 'aws:SourceAccount': stack.account } } }),
      description: 'EventBridge Scheduler invokes the Fieldpost deadline function',
    });
    // This function exactly (no ':*' versions); and the dead-letter queue.
    this.role.addToPolicy(new iam.PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [props.deadline.functionArn] }));
    this.deadLetterQueue.grantSendMessages(this.role);

    this.schedulesArn = stack.formatArn({ service: 'scheduler', resource: 'schedule', resourceName: `${this.group.scheduleGroupName}/*` });
    props.planner.addToRolePolicy(new iam.PolicyStatement({ actions: ['scheduler:CreateSchedule'], resources: [this.schedulesArn] }));
    props.planner.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['iam:PassRole'],
        resources: [this.role.roleArn],
        conditions: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } },
      }),
    );
  }
}
