import { describe, expect, it } from 'vitest';
import { Match } from 'aws-cdk-lib/assertions';
import { OLD_GAME_HEAD_FILTER, TOURNAMENT_LINE_FILTER, WAKE_FILTER } from '../../infra/fieldpost-stack.js';
import { mappingPasses, matchesStreamFilter, policyStatementsOf, resourcesOf, synth } from './support.js';

/**
 * The clocks' AWS pieces (issue 10): the schedule group, the role EventBridge Scheduler invokes
 * the deadline function with, the dead-letter queue for wakes that keep failing and its alarm,
 * and the scheduler function that makes one-time schedules from the table stream, each with
 * the least it needs.
 */
const { stack, template } = synth();
const id = (c: { node: { defaultChild?: unknown } }): string => stack.getLogicalId(c.node.defaultChild as never);
const { deadlines } = stack;
const deadlineFn = id(stack.functions.deadline.fn);
const plannerFn = id(stack.functions.scheduler.fn);
const roleId = id(deadlines.role);
const dlqId = id(deadlines.deadLetterQueue);
const groupName = stack.resolve(deadlines.group.scheduleGroupName) as string;

describe('deadline scheduling in AWS', () => {
  it('has one schedule group', () => {
    template.resourceCountIs('AWS::Scheduler::ScheduleGroup', 1);
    template.hasResourceProperties('AWS::Scheduler::ScheduleGroup', { Name: groupName });
  });

  it('lets only EventBridge Scheduler of this account assume the invoke role', () => {
    template.hasResourceProperties('AWS::IAM::Role', {
      AssumeRolePolicyDocument: {
        Statement: [
          Match.objectLike({
            Action: 'sts:AssumeRole',
            Principal: { Service: 'scheduler.amazonaws.com' },
            Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } },
          }),
        ],
      },
    });
  });

  it('the invoke role may invoke the deadline function exactly, and send to its dead-letter queue, nothing else', () => {
    const ss = policyStatementsOf(template, deadlines.role);
    expect(ss.flatMap((s) => s.Action).sort()).toEqual(['lambda:InvokeFunction', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:SendMessage'].sort());
    const invoke = ss.find((s) => s.Action.includes('lambda:InvokeFunction'))!;
    expect(invoke.Resource).toEqual({ 'Fn::GetAtt': [deadlineFn, 'Arn'] });
    const send = ss.find((s) => s.Action.includes('sqs:SendMessage'))!;
    expect(send.Resource).toEqual({ 'Fn::GetAtt': [dlqId, 'Arn'] });
  });

  it('the scheduler function may create schedules in the group only, and pass the invoke role only, to EventBridge Scheduler', () => {
    const ss = policyStatementsOf(template, stack.functions.scheduler.role);
    const create = ss.filter((s) => s.Action.some((a) => a.startsWith('scheduler:')));
    expect(create).toHaveLength(1);
    expect(create[0]!.Action).toEqual(['scheduler:CreateSchedule']);
    expect(JSON.stringify(create[0]!.Resource)).toContain(`:schedule/`);
    expect(JSON.stringify(create[0]!.Resource)).toContain(`:schedule/${groupName}/*`);
    const pass = ss.filter((s) => s.Action.includes('iam:PassRole'));
    expect(pass).toHaveLength(1);
    expect(pass[0]!.Resource).toEqual({ 'Fn::GetAtt': [roleId, 'Arn'] });
    // Nothing to delete or update: stale schedules fire harmlessly and delete themselves.
    expect(ss.flatMap((s) => s.Action).filter((a) => /scheduler:(Delete|Update)/.test(a))).toEqual([]);
  });

  it('the scheduler function knows the group, the target, the role and the dead-letter queue', () => {
    const fn = resourcesOf(template, 'AWS::Lambda::Function')[plannerFn]!;
    expect((fn.Properties['Environment'] as { Variables: Record<string, unknown> }).Variables).toMatchObject({
      SCHEDULE_GROUP: groupName,
      DEADLINE_FUNCTION_ARN: { 'Fn::GetAtt': [deadlineFn, 'Arn'] },
      SCHEDULER_ROLE_ARN: { 'Fn::GetAtt': [roleId, 'Arn'] },
      SCHEDULE_DLQ_ARN: { 'Fn::GetAtt': [dlqId, 'Arn'] },
    });
  });

  it("the scheduler function reads the table stream, games' heads and tournaments' listing lines only, reporting partial failures", () => {
    const mappings = Object.values(resourcesOf(template, 'AWS::Lambda::EventSourceMapping')).filter(
      (m) => JSON.stringify(m.Properties['FunctionName']) === JSON.stringify({ Ref: plannerFn }),
    );
    expect(mappings).toHaveLength(1);
    expect(mappings[0]!.Properties).toMatchObject({
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      StartingPosition: 'TRIM_HORIZON',
      FilterCriteria: { Filters: [WAKE_FILTER, OLD_GAME_HEAD_FILTER, TOURNAMENT_LINE_FILTER].map((f) => ({ Pattern: JSON.stringify(f) })) },
    });
    // A game's HEAD# item only when it says when to look again (wakeAt): a game without deadlines never invokes it.
    const head = (image: Record<string, unknown>) => ({
      eventName: 'INSERT',
      dynamodb: { Keys: { pk: { S: 'GAME#g1' }, sk: { S: 'HEAD#0000000009' } }, NewImage: image },
    });
    expect(mappingPasses(mappings[0]!, head({ status: { S: 'active' }, wakeAt: { S: '2026-12-01T00:00:00.000Z' } }))).toBe(true);
    expect(mappingPasses(mappings[0]!, head({ status: { S: 'active' } }))).toBe(false);
    expect(mappingPasses(mappings[0]!, { eventName: 'MODIFY', dynamodb: { Keys: { pk: { S: 'GAME#g1' }, sk: { S: 'HEAD' } } } })).toBe(true);
    const line = JSON.parse(JSON.stringify(TOURNAMENT_LINE_FILTER)) as unknown;
    const record = (pk: string, sk: string, eventName = 'MODIFY') => ({ eventName, dynamodb: { Keys: { pk: { S: pk }, sk: { S: sk } } } });
    expect(matchesStreamFilter(line, record('TOURNAMENTS', 'T#t1', 'INSERT'))).toBe(true);
    expect(matchesStreamFilter(line, record('TOURNAMENTS', 'T#t1'))).toBe(true);
    expect(matchesStreamFilter(line, record('TOURNAMENTS', 'T#t1', 'REMOVE'))).toBe(false);
    for (const [pk, sk] of [
      ['TOURNAMENT#t1', 'HEAD'],
      ['TOURNAMENT#t1', 'EV#0000000001'],
      ['GAME#g1', 'HEAD'],
      ['CLUB#c1', 'HEAD'],
    ])
      expect(matchesStreamFilter(line, record(pk!, sk!)), `${pk} ${sk}`).toBe(false);
  });

  it('parks failed wakes for 14 days in an encrypted queue, and alarms on anything there', () => {
    const q = resourcesOf(template, 'AWS::SQS::Queue')[dlqId]!;
    expect(q.Properties).toMatchObject({ SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 24 * 3600 });
    const alarms = Object.values(resourcesOf(template, 'AWS::CloudWatch::Alarm')).filter(
      (a) => a.Properties['MetricName'] === 'ApproximateNumberOfMessagesVisible' && JSON.stringify(a.Properties['Dimensions']).includes(dlqId),
    );
    expect(alarms).toHaveLength(1);
    const errors = Object.values(resourcesOf(template, 'AWS::CloudWatch::Alarm')).filter(
      (a) => a.Properties['MetricName'] === 'Errors' && [deadlineFn, plannerFn].some((f) => JSON.stringify(a.Properties['Dimensions']).includes(f)),
    );
    expect(errors).toHaveLength(2);
  });
});
