import { describe, expect, it } from 'vitest';
import { policyStatementsOf, resourcesOf, synth } from './support.js';

/**
 * The daily digest's AWS pieces (issue 10): an hourly EventBridge rule invoking the digest
 * function, with retries and the deadline dead-letter queue for invocations that keep failing,
 * and a function that may mail and ask the picture function, nothing more.
 */
const { stack, template } = synth();
const id = (c: { node: { defaultChild?: unknown } }): string => stack.getLogicalId(c.node.defaultChild as never);
const digestFn = id(stack.functions.digest.fn);
const pictureFn = id(stack.functions.picture.fn);
const dlqId = id(stack.deadlines.deadLetterQueue);

describe('the daily digest in AWS', () => {
  it('an hourly rule invokes the digest function, retrying, with a dead-letter queue', () => {
    const rule = resourcesOf(template, 'AWS::Events::Rule')[id(stack.digestRule)]!;
    expect(rule.Properties['ScheduleExpression']).toBe('cron(0 * * * ? *)');
    expect(rule.Properties['State']).toBe('ENABLED');
    const targets = rule.Properties['Targets'] as { Arn: unknown; RetryPolicy: unknown; DeadLetterConfig: unknown }[];
    expect(targets).toHaveLength(1);
    expect(targets[0]!.Arn).toEqual({ 'Fn::GetAtt': [digestFn, 'Arn'] });
    expect(targets[0]!.RetryPolicy).toEqual({ MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 1800 });
    expect(targets[0]!.DeadLetterConfig).toEqual({ Arn: { 'Fn::GetAtt': [dlqId, 'Arn'] } });
  });

  it('only EventBridge may invoke it, from that rule', () => {
    const perms = Object.values(resourcesOf(template, 'AWS::Lambda::Permission')).filter(
      (p) => JSON.stringify(p.Properties['FunctionName']) === JSON.stringify({ 'Fn::GetAtt': [digestFn, 'Arn'] }),
    );
    expect(perms).toHaveLength(1);
    expect(perms[0]!.Properties).toMatchObject({ Principal: 'events.amazonaws.com', SourceArn: { 'Fn::GetAtt': [id(stack.digestRule), 'Arn'] } });
  });

  it('its errors raise an alarm', () => {
    const alarms = Object.values(resourcesOf(template, 'AWS::CloudWatch::Alarm')).filter(
      (a) => a.Properties['MetricName'] === 'Errors' && JSON.stringify(a.Properties['Dimensions']).includes(JSON.stringify({ Ref: digestFn })),
    );
    expect(alarms).toHaveLength(1);
  });

  it('the function mails (SES), asks the picture function exactly, and knows which', () => {
    const ss = policyStatementsOf(template, stack.functions.digest.role);
    const actions = ss.flatMap((s) => s.Action);
    expect(actions.some((a) => a.startsWith('ses:Send'))).toBe(true);
    expect(ss.find((s) => s.Action.includes('lambda:InvokeFunction'))!.Resource).toEqual({ 'Fn::GetAtt': [pictureFn, 'Arn'] });
    expect(actions.filter((a) => /^(sqs|scheduler|iam):/.test(a))).toEqual([]);
    const fn = resourcesOf(template, 'AWS::Lambda::Function')[digestFn]!;
    expect((fn.Properties['Environment'] as { Variables: Record<string, unknown> }).Variables).toMatchObject({ PICTURE_FUNCTION: { Ref: pictureFn } });
  });
});
