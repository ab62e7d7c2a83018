import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createRegistry } from '../../domain/kernel/index.js';
import { routeModules } from '../../functions/http/routes/index.js';
import { routeTable } from '../../functions/http/router.js';
import type { ApiDeps } from '../../functions/http/types.js';
import { PUBLIC_ROUTES } from '../../infra/api.js';
import { describe, expect, it } from 'vitest';
import { Match } from 'aws-cdk-lib/assertions';
import { NOTIFY_MAX_RECEIVE_COUNT, PROJECTOR_REPAIR_RECEIVE_COUNT } from '../../infra/notifications.js';
import { MEMORY_MB, NOTIFIER_QUEUE, PROJECTOR_STREAM } from '../../infra/fieldpost-stack.js';
import { API_5XX_THRESHOLD, ITERATOR_AGE_THRESHOLD } from '../../infra/alarms.js';
import { mappingPasses, matchesStreamFilter, policyStatementsOf, resourcesOf, synth, type Statement } from './support.js';

// One synthesis with cdk.json's defaults serves every assertion in this file.
const { stack, template } = synth();
const id = (c: { node: { defaultChild?: unknown } }): string => stack.getLogicalId(c.node.defaultChild as never);

const tableId = id(stack.data.table);
const queueId = id(stack.notifications.queue);
const dlqId = id(stack.notifications.deadLetterQueue);
const retryId = id(stack.notifications.retryQueue);
const retryDlqId = id(stack.notifications.retryDeadLetterQueue);
const streamFailureId = id(stack.notifications.streamFailureQueue);
const repairId = id(stack.notifications.projectorRepairQueue);
const fnId = {
  api: id(stack.functions.api.fn),
  projector: id(stack.functions.projector.fn),
  notifier: id(stack.functions.notifier.fn),
  tournaments: id(stack.functions.tournaments.fn),
};

describe('the event table', () => {
  it('is keyed by pk/sk strings, on demand, with a NEW_AND_OLD_IMAGES stream', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      AttributeDefinitions: [
        { AttributeName: 'pk', AttributeType: 'S' },
        { AttributeName: 'sk', AttributeType: 'S' },
      ],
      BillingMode: 'PAY_PER_REQUEST',
      StreamSpecification: { StreamViewType: 'NEW_AND_OLD_IMAGES' },
    });
    template.resourceCountIs('AWS::DynamoDB::Table', 1);
  });

  it('expires notification bookkeeping through the expiresAt TTL attribute', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
    });
  });

  it('has point-in-time recovery, KMS encryption and deletion protection, and is retained', () => {
    template.hasResource('AWS::DynamoDB::Table', {
      Properties: Match.objectLike({
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        SSESpecification: { SSEEnabled: true },
        DeletionProtectionEnabled: true,
      }),
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
    });
  });
});

describe('the handler functions', () => {
  it('are exactly the eight handlers (api, projector, notifier, picture, deadline, scheduler, tournaments, digest) and the web deployment handler: no other function hides in the stack', () => {
    const ids = Object.keys(resourcesOf(template, 'AWS::Lambda::Function'));
    const handlers = Object.values(stack.functions).map((h) => id(h.fn));
    expect(ids.filter((i) => !handlers.includes(i))).toEqual([expect.stringMatching(/^CustomCDKBucketDeployment[0-9A-F]{32}/)]);
    expect(handlers).toHaveLength(8);
  });

  it.each(Object.entries(fnId))('%s runs Node 22 on arm64 with the shared environment and JSON logs', (_name, logicalId) => {
    const fn = resourcesOf(template, 'AWS::Lambda::Function')[logicalId];
    expect(fn).toBeDefined();
    expect(fn!.Properties).toMatchObject({
      Runtime: 'nodejs22.x',
      Architectures: ['arm64'],
      Handler: 'index.handler',
      Environment: {
        Variables: {
          TABLE_NAME: { Ref: tableId },
          NOTIFY_QUEUE_URL: { Ref: queueId },
          NOTIFY_RETRY_QUEUE_URL: { Ref: retryId },
          MAIL_FROM: 'turns@example.org',
          APP_URL: 'https://fieldpost.example.org',
          // The api function behind the default front door (a function URL) verifies tokens itself.
          AUTH_MODE: _name === 'api' ? 'cognito-jwt' : 'cognito',
        },
      },
      LoggingConfig: { LogFormat: 'JSON' },
    });
    // Source maps at run time slow every cold start; the bundles ship none (issue 16).
    expect((fn!.Properties['Environment'] as { Variables: Record<string, unknown> }).Variables).not.toHaveProperty('NODE_OPTIONS');
  });

  it('each log to their own log group, which has a retention', () => {
    const logGroups = resourcesOf(template, 'AWS::Logs::LogGroup');
    for (const logicalId of Object.values(fnId)) {
      const fn = resourcesOf(template, 'AWS::Lambda::Function')[logicalId]!;
      const ref = (fn.Properties['LoggingConfig'] as { LogGroup: { Ref: string } }).LogGroup.Ref;
      expect(logGroups[ref]?.Properties['RetentionInDays']).toBe(30);
    }
    // Every log group in the stack (functions + API access log) has a retention.
    for (const lg of Object.values(logGroups)) expect(lg.Properties['RetentionInDays']).toBeGreaterThan(0);
  });

  it('take the log retention from context', () => {
    const { template: t } = synth({ logRetentionDays: '90' });
    for (const lg of Object.values(resourcesOf(t, 'AWS::Logs::LogGroup'))) expect(lg.Properties['RetentionInDays']).toBe(90);
  });

  it('use roles without AWS managed policies', () => {
    for (const role of Object.values(resourcesOf(template, 'AWS::IAM::Role'))) {
      expect(role.Properties['ManagedPolicyArns']).toBeUndefined();
    }
  });
});

describe('least-privilege grants', () => {
  const statements = (name: keyof typeof fnId): Statement[] => policyStatementsOf(template, stack.functions[name].role);
  const actionsOn = (ss: Statement[], resourceRef: unknown): string[] =>
    ss.filter((s) => JSON.stringify(s.Resource).includes(JSON.stringify(resourceRef))).flatMap((s) => s.Action);
  const allActions = (ss: Statement[]): string[] => ss.flatMap((s) => s.Action);
  const tableArn = { 'Fn::GetAtt': [tableId, 'Arn'] };
  const streamArn = { 'Fn::GetAtt': [tableId, 'StreamArn'] };
  const queueArn = { 'Fn::GetAtt': [queueId, 'Arn'] };
  const retryArn = { 'Fn::GetAtt': [retryId, 'Arn'] };

  it('api: table items only, no queue or stream; mail (the email verification link) only as the configured identity', () => {
    const ss = statements('api');
    expect(actionsOn(ss, tableArn)).toEqual(expect.arrayContaining(['dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:ConditionCheckItem']));
    expect(allActions(ss).filter((a) => a.startsWith('sqs:'))).toEqual([]);
    const ses = ss.filter((s) => s.Action.some((a) => a.startsWith('ses:')));
    expect(ses).toHaveLength(1);
    expect(JSON.stringify(ses[0]!.Resource)).toContain(`":identity/",{"Ref":"${id(stack.notifications.identity)}"}`);
    expect(actionsOn(ss, streamArn)).toEqual([]);
    expect(allActions(ss)).not.toContain('dynamodb:DeleteTable');
  });

  it('projector: table items, the table stream, and sending to the notification queue', () => {
    const ss = statements('projector');
    expect(actionsOn(ss, tableArn)).toContain('dynamodb:UpdateItem');
    expect(actionsOn(ss, streamArn)).toEqual(expect.arrayContaining(['dynamodb:GetRecords', 'dynamodb:GetShardIterator', 'dynamodb:DescribeStream']));
    for (const q of [queueArn, retryArn]) {
      expect(actionsOn(ss, q)).toContain('sqs:SendMessage');
      expect(actionsOn(ss, q)).not.toContain('sqs:ReceiveMessage');
    }
    expect(allActions(ss).filter((a) => a.startsWith('ses:'))).toEqual([]);
    // The only unscoped statement is ListStreams, which has no resource-level permissions.
    expect(ss.filter((s) => s.Resource === '*').flatMap((s) => s.Action)).toEqual(['dynamodb:ListStreams']);
  });

  it('notifier: consume the queue (and requeue delayed retries), table items, and SES sending as the configured identity only', () => {
    const ss = statements('notifier');
    for (const q of [queueArn, retryArn])
      expect(actionsOn(ss, q)).toEqual(expect.arrayContaining(['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:ChangeMessageVisibility', 'sqs:SendMessage']));
    expect(actionsOn(ss, { 'Fn::GetAtt': [dlqId, 'Arn'] })).toEqual([]);
    expect(actionsOn(ss, { 'Fn::GetAtt': [retryDlqId, 'Arn'] })).toEqual([]);
    expect(actionsOn(ss, tableArn)).toContain('dynamodb:PutItem');
    const ses = ss.filter((s) => s.Action.some((a) => a.startsWith('ses:')));
    expect(ses).toHaveLength(1);
    expect(ses[0]!.Action).toContain('ses:SendEmail');
    const identityId = id(stack.notifications.identity);
    expect(JSON.stringify(ses[0]!.Resource)).toContain(`":identity/",{"Ref":"${identityId}"}`);
    expect(actionsOn(ss, streamArn)).toEqual([]);
  });

  it('no statement anywhere grants a wildcard action', () => {
    for (const name of Object.keys(fnId) as (keyof typeof fnId)[]) {
      for (const a of allActions(statements(name))) expect(a).not.toMatch(/\*/);
    }
  });
});

describe('batching and memory (issue 16)', () => {
  it('the notifier gathers up to ten notices for up to 2 s; the API runs on 512 MB', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: fnId.notifier },
      BatchSize: NOTIFIER_QUEUE.batchSize,
      MaximumBatchingWindowInSeconds: 2,
    });
    expect(resourcesOf(template, 'AWS::Lambda::Function')[fnId.api]!.Properties['MemorySize']).toBe(MEMORY_MB.api);
    expect(MEMORY_MB.api).toBe(512);
  });

  it('every mapping gathers its batch for a while: the three stream mappings (projector, scheduler, tournaments) and both queues', () => {
    const mappings = Object.values(resourcesOf(template, 'AWS::Lambda::EventSourceMapping')).map((m) => m.Properties);
    const streams = mappings.filter((m) => JSON.stringify(m['EventSourceArn']).includes('StreamArn'));
    expect(streams.length).toBe(3);
    for (const m of streams) expect(m['MaximumBatchingWindowInSeconds']).toBe(PROJECTOR_STREAM.maxBatchingWindow.toSeconds());
    // The projector's repair queue takes one message at a time (each is a whole stream batch read back);
    // a FIFO queue's mapping takes no batching window (Lambda refuses one), so the notifier's FIFO queue has none.
    const fifo = (m: Record<string, unknown>) => JSON.stringify(m['EventSourceArn']) === JSON.stringify({ 'Fn::GetAtt': [queueId, 'Arn'] });
    const queues = mappings.filter((m) => !streams.includes(m) && m['BatchSize'] !== 1 && !fifo(m));
    expect(queues.length).toBeGreaterThan(0);
    for (const m of queues) expect(m['MaximumBatchingWindowInSeconds']).toBeGreaterThan(0);
    expect(mappings.filter(fifo).map((m) => m['MaximumBatchingWindowInSeconds'])).toEqual([undefined]);
  });
});

describe('the projector stream mapping', () => {
  it('bisects, retries a bounded number of times, ages out, reports item failures, and sends what it gives up on to its repair queue', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: fnId.projector },
      EventSourceArn: { 'Fn::GetAtt': [tableId, 'StreamArn'] },
      StartingPosition: 'TRIM_HORIZON',
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: PROJECTOR_STREAM.retryAttempts,
      MaximumRecordAgeInSeconds: PROJECTOR_STREAM.maxRecordAge.toSeconds(),
      MaximumBatchingWindowInSeconds: 1,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [repairId, 'Arn'] } } },
    });
    expect(PROJECTOR_STREAM.retryAttempts).toBeLessThanOrEqual(10);
  });

  it('repairs: the projector consumes its repair queue (reading the stream back), retried for about an hour, then parked and alarmed', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: fnId.projector },
      EventSourceArn: { 'Fn::GetAtt': [repairId, 'Arn'] },
      BatchSize: 1,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    const queues = resourcesOf(template, 'AWS::SQS::Queue');
    expect(queues[repairId]!.Properties['RedrivePolicy']).toEqual({
      deadLetterTargetArn: { 'Fn::GetAtt': [streamFailureId, 'Arn'] },
      maxReceiveCount: PROJECTOR_REPAIR_RECEIVE_COUNT,
    });
    const projector = resourcesOf(template, 'AWS::Lambda::Function')[fnId.projector]!;
    const visibility = queues[repairId]!.Properties['VisibilityTimeout'] as number;
    expect(visibility).toBe(6 * (projector.Properties['Timeout'] as number));
    // Every try fits in the stream's 24 hours of retention, with the mapping's record age before it.
    expect(PROJECTOR_STREAM.maxRecordAge.toSeconds() + visibility * PROJECTOR_REPAIR_RECEIVE_COUNT).toBeLessThan(24 * 3600);
    const actions = policyStatementsOf(template, stack.functions.projector.role)
      .filter((s) => JSON.stringify(s.Resource).includes('StreamArn'))
      .flatMap((s) => s.Action);
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:GetRecords', 'dynamodb:GetShardIterator']));
  });

  it('delivers only inserts and updates of game HEADs: never events, the dice seed, snapshots or read models', () => {
    const esm = Object.values(resourcesOf(template, 'AWS::Lambda::EventSourceMapping')).find(
      (r) => JSON.stringify(r.Properties['FunctionName']) === JSON.stringify({ Ref: fnId.projector }),
    );
    const filters = (esm!.Properties['FilterCriteria'] as { Filters: { Pattern: string }[] }).Filters;
    expect(filters).toHaveLength(1);
    const pattern = JSON.parse(filters[0]!.Pattern) as unknown;
    const record = (pk: string, sk: string, eventName = 'MODIFY') => ({ eventName, dynamodb: { Keys: { pk: { S: pk }, sk: { S: sk } } } });
    expect(matchesStreamFilter(pattern, record('GAME#g1', 'HEAD'))).toBe(true);
    expect(matchesStreamFilter(pattern, record('GAME#g1', 'HEAD', 'INSERT'))).toBe(true);
    expect(matchesStreamFilter(pattern, record('GAME#g1', 'HEAD', 'REMOVE'))).toBe(false);
    expect(matchesStreamFilter(pattern, record('GAME#g1', 'HEAD#0000000007', 'INSERT'))).toBe(true);
    expect(matchesStreamFilter(pattern, record('GAME#g1', 'EV#0000000007'))).toBe(false);
    expect(matchesStreamFilter(pattern, record('GAME#g1', 'SECRET'))).toBe(false);
    expect(matchesStreamFilter(pattern, record('GAME#g1', 'SNAP'))).toBe(false);
    expect(matchesStreamFilter(pattern, record('GAME#g1', 'CMD#c1'))).toBe(false);
    expect(matchesStreamFilter(pattern, record('INBOX#ann', 'GAME#g1'))).toBe(false);
    expect(matchesStreamFilter(pattern, record('LOBBY', 'GAME#g1'))).toBe(false);
    expect(matchesStreamFilter(pattern, record('NOTIFIED#k', 'NOTIFIED'))).toBe(false);
    // A quiet append (one no read model shows: functions/store/head-items.ts isQuiet) never invokes it.
    const withImage = (image: Record<string, unknown>) => ({
      ...record('GAME#g1', 'HEAD#0000000009', 'INSERT'),
      dynamodb: { ...record('GAME#g1', 'HEAD#0000000009').dynamodb, NewImage: image },
    });
    expect(matchesStreamFilter(pattern, withImage({ status: { S: 'active' }, quiet: { BOOL: true } }))).toBe(false);
    expect(matchesStreamFilter(pattern, withImage({ status: { S: 'active' } }))).toBe(true);
  });
});

describe('the tournaments stream mapping (issue 14)', () => {
  it('retries like the projector, reports item failures and parks failures in SQS; it may send notices', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: fnId.tournaments },
      EventSourceArn: { 'Fn::GetAtt': [tableId, 'StreamArn'] },
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: PROJECTOR_STREAM.retryAttempts,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [streamFailureId, 'Arn'] } } },
    });
    const ss = policyStatementsOf(template, stack.functions.tournaments.role);
    expect(ss.filter((s) => JSON.stringify(s.Resource).includes(JSON.stringify({ 'Fn::GetAtt': [queueId, 'Arn'] }))).flatMap((s) => s.Action)).toContain(
      'sqs:SendMessage',
    );
  });

  it("delivers only the HEADs of games (a tournament game's end) and of tournaments (pairings that want games)", () => {
    const esm = Object.values(resourcesOf(template, 'AWS::Lambda::EventSourceMapping')).find(
      (r) => JSON.stringify(r.Properties['FunctionName']) === JSON.stringify({ Ref: fnId.tournaments }),
    );
    const record = (pk: string, sk: string, eventName = 'MODIFY', image?: Record<string, unknown>) => ({
      eventName,
      dynamodb: { Keys: { pk: { S: pk }, sk: { S: sk } }, ...(image ? { NewImage: image } : {}) },
    });
    const passes = (r: unknown) => mappingPasses(esm!, r);
    // A game's end on its HEAD# item (append layout); not its other moves.
    expect(passes(record('GAME#g1', 'HEAD#0000000007', 'INSERT', { status: { S: 'ended' } }))).toBe(true);
    expect(passes(record('GAME#g1', 'HEAD#0000000007', 'INSERT', { status: { S: 'active' } }))).toBe(false);
    expect(passes(record('GAME#g1', 'HEAD#0000000007', 'INSERT', { status: { S: 'active' }, quiet: { BOOL: true } }))).toBe(false);
    // A game stored before the append layout: every HEAD (its summary is a map the filter cannot read).
    expect(passes(record('GAME#g1', 'HEAD'))).toBe(true);
    expect(passes(record('TOURNAMENT#t1', 'HEAD', 'INSERT'))).toBe(true);
    expect(passes(record('TOURNAMENT#t1', 'HEAD', 'REMOVE'))).toBe(false);
    expect(passes(record('TOURNAMENT#t1', 'EV#0000000002'))).toBe(false);
    expect(passes(record('GAME#g1', 'SECRET'))).toBe(false);
    expect(passes(record('CLUB#c1', 'HEAD'))).toBe(false);
    expect(passes(record('RATINGS#spearpoint-1943', 'HEAD'))).toBe(false);
    expect(passes(record('TOURNAMENTS', 'T#t1'))).toBe(false);
  });
});

describe('notification queues', () => {
  const queues = resourcesOf(template, 'AWS::SQS::Queue');

  it('feed the notifier in batches with partial batch failure reporting', () => {
    for (const q of [queueId, retryId])
      template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
        FunctionName: { Ref: fnId.notifier },
        EventSourceArn: { 'Fn::GetAtt': [q, 'Arn'] },
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        BatchSize: 10,
      });
  });

  it('send jobs due now through a FIFO queue deduplicated by the id each message carries, ordered per message group (recipient and game)', () => {
    expect(queues[queueId]!.Properties).toMatchObject({
      FifoQueue: true,
      ContentBasedDeduplication: false,
      DeduplicationScope: 'messageGroup',
      FifoThroughputLimit: 'perMessageGroupId',
    });
    // A FIFO queue's dead letters must go to a FIFO queue; the retry queue (per-message delays) is a standard one.
    expect(queues[dlqId]!.Properties['FifoQueue']).toBe(true);
    expect(queues[retryId]!.Properties['FifoQueue']).toBeUndefined();
    expect(queues[retryDlqId]!.Properties['FifoQueue']).toBeUndefined();
    // A FIFO event source takes no batching window.
    const fifoSource = Object.values(resourcesOf(template, 'AWS::Lambda::EventSourceMapping')).find(
      (m) => JSON.stringify(m.Properties['EventSourceArn']) === JSON.stringify({ 'Fn::GetAtt': [queueId, 'Arn'] }),
    )!;
    expect(fifoSource.Properties['MaximumBatchingWindowInSeconds']).toBeUndefined();
  });

  it('move a job to the dead-letter queue after a bounded number of receives', () => {
    for (const [q, dlq] of [
      [queueId, dlqId],
      [retryId, retryDlqId],
    ])
      expect(queues[q!]!.Properties['RedrivePolicy']).toEqual({
        deadLetterTargetArn: { 'Fn::GetAtt': [dlq, 'Arn'] },
        maxReceiveCount: NOTIFY_MAX_RECEIVE_COUNT,
      });
  });

  it('hold a job invisible for six notifier timeouts while it is being processed', () => {
    const notifier = resourcesOf(template, 'AWS::Lambda::Function')[fnId.notifier]!;
    for (const q of [queueId, retryId]) expect(queues[q]!.Properties['VisibilityTimeout']).toBe(6 * (notifier.Properties['Timeout'] as number));
  });

  it('are all encrypted and refuse requests without TLS', () => {
    expect(Object.keys(queues).sort()).toEqual([queueId, dlqId, retryId, retryDlqId, streamFailureId, repairId, id(stack.deadlines.deadLetterQueue)].sort());
    for (const q of Object.values(queues)) expect(q.Properties['SqsManagedSseEnabled']).toBe(true);
    const policies = Object.values(resourcesOf(template, 'AWS::SQS::QueuePolicy'));
    for (const qid of Object.keys(queues)) {
      const policy = policies.find((p) => JSON.stringify(p.Properties['Queues']) === JSON.stringify([{ Ref: qid }]));
      expect(policy, `queue policy for ${qid}`).toBeDefined();
      expect(JSON.stringify(policy!.Properties['PolicyDocument'])).toContain('"aws:SecureTransport":"false"');
    }
  });

  it('keep dead letters for 14 days', () => {
    expect(queues[dlqId]!.Properties['MessageRetentionPeriod']).toBe(14 * 24 * 3600);
    expect(queues[retryDlqId]!.Properties['MessageRetentionPeriod']).toBe(14 * 24 * 3600);
    expect(queues[streamFailureId]!.Properties['MessageRetentionPeriod']).toBe(14 * 24 * 3600);
  });
});

describe('the HTTP API (frontDoor httpApi)', () => {
  const http = synth({ frontDoor: 'httpApi' });
  const template = http.template;
  const id = (c: { node: { defaultChild?: unknown } } | undefined): string => http.stack.getLogicalId(c!.node.defaultChild as never);
  const routes = Object.values(resourcesOf(template, 'AWS::ApiGatewayV2::Route'));
  const routeKeys = routes.map((r) => r.Properties['RouteKey'] as string);
  const authorizerId = id({ node: { defaultChild: http.stack.node.findAll().find((c) => c.node.path.endsWith('/CognitoAuthorizer/Resource')) } });

  it('routes /v1 only: nothing for /local/* in AWS', () => {
    expect(routeKeys.sort()).toEqual(
      [
        'GET /v1/health',
        'GET /v1/engines',
        'GET /v1/openapi.json',
        'POST /v1/unsubscribe',
        'GET /v1/{proxy+}',
        'POST /v1/{proxy+}',
        'PUT /v1/{proxy+}',
        'PATCH /v1/{proxy+}',
        'DELETE /v1/{proxy+}',
      ].sort(),
    );
    expect(routeKeys.some((k) => k.includes('/local'))).toBe(false);
  });

  it('puts the Cognito JWT authorizer on every route except the public ones', () => {
    for (const r of routes) {
      if (['GET /v1/health', 'GET /v1/engines', 'GET /v1/openapi.json', 'POST /v1/unsubscribe'].includes(r.Properties['RouteKey'] as string)) {
        expect(r.Properties['AuthorizerId']).toBeUndefined();
        expect(r.Properties['AuthorizationType'] ?? 'NONE').toBe('NONE');
      } else {
        expect(r.Properties['AuthorizationType']).toBe('JWT');
        expect(r.Properties['AuthorizerId']).toEqual({ Ref: authorizerId });
      }
    }
  });

  it('opens exactly the routes the router serves without a token', () => {
    // Building the routes touches no network: a client that is never called is enough.
    const dynamo = { client: new DynamoDBClient({ region: 'eu-west-1' }), tableName: 't' };
    const deps = { service: {}, engines: createRegistry([]), clock: { now: () => '' }, dynamo } as unknown as ApiDeps;
    const open = routeTable(routeModules, deps)
      .filter((r) => r.auth === 'none' && r.path.startsWith('/v1/'))
      .map((r) => `${r.method} ${r.path}`);
    expect(PUBLIC_ROUTES.map((r) => `${r.method} ${r.path}`).sort()).toEqual(open.sort());
  });

  it('verifies tokens issued by the stack user pool for its app client', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Authorizer', {
      AuthorizerType: 'JWT',
      IdentitySource: ['$request.header.Authorization'],
      JwtConfiguration: {
        Audience: [{ Ref: id(http.stack.api.userPoolClient) }],
        Issuer: { 'Fn::Join': ['', Match.arrayWith([Match.stringLikeRegexp('cognito-idp'), { Ref: id(http.stack.api.userPool) }])] },
      },
    });
    // The authorizer has verified the token: the function reads its claims, and has no function URL.
    const api = resourcesOf(template, 'AWS::Lambda::Function')[id(http.stack.functions.api.fn)]!;
    expect(api.Properties).toMatchObject({ Environment: { Variables: { AUTH_MODE: 'cognito' } } });
    template.resourceCountIs('AWS::Lambda::Url', 0);
  });

  it('throttles the stage and writes JSON access logs with the request id', () => {
    const stage = Object.values(resourcesOf(template, 'AWS::ApiGatewayV2::Stage'));
    expect(stage).toHaveLength(1);
    expect(stage[0]!.Properties).toMatchObject({
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 },
      AccessLogSettings: { DestinationArn: { 'Fn::GetAtt': [id(http.stack.api.accessLogs), 'Arn'] } },
    });
    const format = JSON.parse((stage[0]!.Properties['AccessLogSettings'] as { Format: string }).Format) as Record<string, string>;
    expect(format['requestId']).toBe('$context.requestId');
    expect(format['routeKey']).toBe('$context.routeKey');
    expect(format['status']).toBe('$context.status');
  });

  it('answers CORS preflights for the app origin only', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', {
      ProtocolType: 'HTTP',
      CorsConfiguration: Match.objectLike({ AllowOrigins: ['https://fieldpost.example.org'] }),
    });
  });

  it('fronts /v1/* of the web distribution, and alarms on its 5xx answers', () => {
    const d = Object.values(resourcesOf(template, 'AWS::CloudFront::Distribution'))[0]!.Properties['DistributionConfig'] as Record<string, unknown>;
    expect(JSON.stringify(d['Origins'])).toContain(id(http.stack.api.httpApi));
    const alarm = Object.values(resourcesOf(template, 'AWS::CloudWatch::Alarm')).find((a) => a.Properties['MetricName'] === '5xx');
    expect(alarm?.Properties).toMatchObject({ Namespace: 'AWS/ApiGateway', Dimensions: [{ Name: 'ApiId', Value: { Ref: id(http.stack.api.httpApi) } }] });
  });
});

describe('user pool', () => {
  it('signs players in with a user pool: strong passwords, admin-created accounts, TOTP MFA available', () => {
    template.hasResource('AWS::Cognito::UserPool', {
      Properties: Match.objectLike({
        Policies: { PasswordPolicy: Match.objectLike({ MinimumLength: 12, RequireSymbols: true, RequireNumbers: true }) },
        AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
        MfaConfiguration: 'OPTIONAL',
        EnabledMfas: ['SOFTWARE_TOKEN_MFA'],
        AliasAttributes: ['email'],
      }),
      DeletionPolicy: 'Retain',
    });
    const clients = Object.values(resourcesOf(template, 'AWS::Cognito::UserPoolClient'));
    expect(clients).toHaveLength(1);
    const client = clients[0]!.Properties;
    expect(client).toMatchObject({ GenerateSecret: false, PreventUserExistenceErrors: 'ENABLED', EnableTokenRevocation: true });
    expect([...(client['ExplicitAuthFlows'] as string[])].sort()).toEqual(['ALLOW_REFRESH_TOKEN_AUTH', 'ALLOW_USER_PASSWORD_AUTH', 'ALLOW_USER_SRP_AUTH']);
    // The web client's hosted sign-in: the authorization code flow only (no implicit grant, no
    // secret: the browser proves itself with PKCE), back to the app URL or the distribution.
    expect(client['AllowedOAuthFlows']).toEqual(['code']);
    expect(client['AllowedOAuthFlowsUserPoolClient']).toBe(true);
    expect(client['SupportedIdentityProviders']).toEqual(['COGNITO']);
    expect(client['CallbackURLs']).toEqual([
      'https://fieldpost.example.org/auth/callback',
      { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [id(stack.web.distribution), 'DomainName'] }, '/auth/callback']] },
    ]);
  });
});

describe('mail', () => {
  it('creates the SES identity for the mailFrom address', () => {
    template.hasResourceProperties('AWS::SES::EmailIdentity', { EmailIdentity: 'turns@example.org' });
  });
});

describe('alarms', () => {
  const alarms = Object.values(resourcesOf(template, 'AWS::CloudWatch::Alarm'));
  const topicRef = { Ref: id(stack.alarms.topic) };
  const alarmOn = (metric: string, dimension: unknown) =>
    alarms.filter((a) => a.Properties['MetricName'] === metric && JSON.stringify(a.Properties['Dimensions']).includes(JSON.stringify(dimension)));

  it('fire when anything waits in either dead-letter queue', () => {
    for (const qid of [dlqId, retryDlqId, streamFailureId, id(stack.deadlines.deadLetterQueue)]) {
      const found = alarmOn('ApproximateNumberOfMessagesVisible', { 'Fn::GetAtt': [qid, 'QueueName'] });
      expect(found, qid).toHaveLength(1);
      expect(found[0]!.Properties).toMatchObject({ Namespace: 'AWS/SQS', Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
    }
  });

  it('fire when the stream consumer falls behind', () => {
    const found = alarmOn('IteratorAge', { Ref: fnId.projector });
    expect(found).toHaveLength(1);
    expect(found[0]!.Properties).toMatchObject({
      Namespace: 'AWS/Lambda',
      Statistic: 'Maximum',
      Threshold: ITERATOR_AGE_THRESHOLD.toMilliseconds(),
      TreatMissingData: 'notBreaching',
    });
  });

  it('fire on errors of every function', () => {
    for (const fid of Object.values(fnId)) expect(alarmOn('Errors', { Ref: fid }), fid).toHaveLength(1);
  });

  it('fire on a burst of API server errors (handled 500s do not count as function errors)', () => {
    const found = alarmOn('Url5xxCount', { Ref: fnId.api });
    expect(found).toHaveLength(1);
    expect(found[0]!.Properties).toMatchObject({ Namespace: 'AWS/Lambda', Statistic: 'Sum', Threshold: API_5XX_THRESHOLD });
  });

  it('all notify one SNS topic that only accepts TLS', () => {
    expect(alarms).toHaveLength(14);
    for (const a of alarms) {
      expect(a.Properties['AlarmActions']).toEqual([topicRef]);
      expect(a.Properties['OKActions']).toEqual([topicRef]);
    }
    template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
    });
    template.resourceCountIs('AWS::SNS::Subscription', 0);
  });
});

describe('outputs', () => {
  it('tell the operator what they need to sign players in and call the API', () => {
    const outputs = template.toJSON()['Outputs'] as Record<string, unknown>;
    for (const key of [
      'ApiUrl',
      'Region',
      'UserPoolId',
      'UserPoolClientId',
      'TableName',
      'NotifyDeadLetterQueueUrl',
      'NotifyRetryQueueUrl',
      'NotifyRetryDeadLetterQueueUrl',
      'StreamFailureQueueUrl',
      'AlarmTopicArn',
      'MailIdentity',
    ]) {
      expect(outputs, key).toHaveProperty(key);
    }
  });
});
