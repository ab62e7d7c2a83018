import { CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import type * as cognito from 'aws-cdk-lib/aws-cognito';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { Construct } from 'constructs';
import { FieldpostAlarms } from './alarms.js';
import { FieldpostApi } from './api.js';
import type { FieldpostConfig } from './config.js';
import { FieldpostData } from './data.js';
import { FieldpostDeadlines } from './deadlines.js';
import { PICTURE_ASSETS } from '../functions/notify/png.js';
import { HandlerFunction, type HandlerName, type LambdaCodeFactory } from './handler-function.js';
import { suppressAcceptedFindings } from './nag-suppressions.js';
import { FieldpostNotifications } from './notifications.js';
import { FieldpostWeb } from './web.js';

export interface FieldpostStackProps extends StackProps {
  readonly config: FieldpostConfig;
  /** Replaces esbuild bundling (tests; synthesizing before the handlers exist). */
  readonly lambdaCode?: LambdaCodeFactory;
  /** Replaces the built web client, web/dist (tests; synthesizing before `npm run build-web`). */
  readonly webSource?: s3deploy.ISource;
}

/**
 * Stream records the projector consumes: inserts and updates of a game's HEAD, or the HEAD# item
 * each append adds (the append layout), which carry the summary before and after it
 * (functions/projections/stream-image.ts), unless the item is `quiet`: an append that changes
 * nothing the read models show (functions/store/head-items.ts isQuiet; most moves within a
 * turn). Event, SECRET (the dice seed), SNAP and CMD# records never reach it, and neither do the
 * read models it writes itself (INBOX#, LOBBY, ...): fewer invocations and no feedback loop.
 */
export const STREAM_FILTER = {
  eventName: lambda.FilterRule.or('INSERT', 'MODIFY'),
  dynamodb: {
    Keys: {
      pk: { S: lambda.FilterRule.beginsWith('GAME#') },
      // HEAD, or a HEAD#<seq> item of the append layout (one per command).
      sk: { S: lambda.FilterRule.beginsWith('HEAD') },
    },
    NewImage: { quiet: { BOOL: lambda.FilterRule.notExists() } },
  },
} as const;

/**
 * A game's HEAD item of the layouts before the append layout (tip, item-per-event), rewritten by
 * every append: its summary is a map the filter language cannot look into, so the scheduler and the
 * tournaments function take every one (no new game is stored so).
 */
export const OLD_GAME_HEAD_FILTER = {
  eventName: lambda.FilterRule.or('INSERT', 'MODIFY'),
  dynamodb: { Keys: { pk: { S: lambda.FilterRule.beginsWith('GAME#') }, sk: { S: lambda.FilterRule.isEqual('HEAD') } } },
} as const;

/**
 * The HEAD# items (append layout) the scheduler consumes: those whose game must be looked at again
 * at some moment (`wakeAt`, an item attribute of its own): functions/deadlines/schedules.ts makes
 * schedules for nothing else. A game without deadlines or reminders never invokes it.
 */
export const WAKE_FILTER = {
  eventName: lambda.FilterRule.or('INSERT', 'MODIFY'),
  dynamodb: {
    Keys: { pk: { S: lambda.FilterRule.beginsWith('GAME#') }, sk: { S: lambda.FilterRule.beginsWith('HEAD#') } },
    NewImage: { wakeAt: { S: lambda.FilterRule.exists() } },
  },
} as const;

/**
 * Stream records the tournaments function consumes: a tournament's HEAD (new pairings want
 * games, withdrawals) and a game's end (`status` ended on its HEAD# item: the reactor acts on
 * nothing else of a game, functions/app/tournament-reactor.ts), plus the HEAD of games stored
 * before the append layout (OLD_GAME_HEAD_FILTER). Nothing else wakes it: not every move.
 */
export const TOURNAMENT_STREAM_FILTER = {
  eventName: lambda.FilterRule.or('INSERT', 'MODIFY'),
  dynamodb: {
    Keys: {
      pk: { S: lambda.FilterRule.beginsWith('TOURNAMENT#') },
      sk: { S: lambda.FilterRule.beginsWith('HEAD') },
    },
  },
} as const;
export const GAME_END_FILTER = {
  eventName: lambda.FilterRule.or('INSERT', 'MODIFY'),
  dynamodb: {
    Keys: { pk: { S: lambda.FilterRule.beginsWith('GAME#') }, sk: { S: lambda.FilterRule.beginsWith('HEAD#') } },
    NewImage: { status: { S: lambda.FilterRule.isEqual('ended') } },
  },
} as const;

/**
 * Stream records of the tournament listing's lines (pk TOURNAMENTS, sk T#<id>), rewritten with
 * every append to a tournament: the scheduler function makes a one-time schedule for an open
 * tournament's new or moved `startsAt` (functions/deadlines/schedules.ts).
 */
export const TOURNAMENT_LINE_FILTER = {
  eventName: lambda.FilterRule.or('INSERT', 'MODIFY'),
  dynamodb: {
    Keys: {
      pk: { S: lambda.FilterRule.isEqual('TOURNAMENTS') },
      sk: { S: lambda.FilterRule.beginsWith('T#') },
    },
  },
} as const;

/**
 * The partitions the deadline function reaches at a tournament's scheduled start: the
 * tournament's stream, and its line in the listing written in the same transaction.
 */
export const TOURNAMENT_START_PARTITIONS = ['TOURNAMENT#*', 'TOURNAMENTS'] as const;

/**
 * The partitions the tournaments function reaches: the games it makes and ends (the game
 * service's own partition), clubs, club game lists, tournaments and their listing, each
 * engine's ratings, and the game-to-pairing links (functions/app/tournament-reactor.ts).
 */
export const TOURNAMENT_PARTITIONS = ['GAME#*', 'CLUB#*', 'CLUBGAMES#*', 'TOURNAMENT#*', 'TOURNAMENTS', 'RATINGS#*', 'TGAME#*'] as const;

/** Item actions on the table, only on partitions whose key matches one of the patterns (dynamodb:LeadingKeys). */
export function grantPartitions(table: ITable, fn: lambda.IFunction, partitions: readonly string[], actions: readonly string[]): void {
  fn.addToRolePolicy(
    new iam.PolicyStatement({
      actions: actions.map((a) => `dynamodb:${a}`),
      resources: [table.tableArn],
      conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...partitions] } },
    }),
  );
}

export const PROJECTOR_STREAM = {
  batchSize: 100,
  retryAttempts: 5,
  maxRecordAge: Duration.hours(6),
  // Gather a second of HEAD changes per invocation: fewer invocations (and GB-seconds) under
  // load, a second's delay on a "your move" that waits hours anyway.
  maxBatchingWindow: Duration.seconds(1),
} as const;

/** The notifier's SQS mapping: up to ten notices per invocation, gathered for up to 2 s. */
export const NOTIFIER_QUEUE = { batchSize: 10, maxBatchingWindow: Duration.seconds(2) } as const;

/**
 * Memory per function (MB). The API's work per request is a few ms of JSON and hashing
 * (npm run bench): 512 MB is plenty and half the GB-seconds of 1024. The picture function
 * rasterizes (CPU-bound, scales with memory) and keeps 1024.
 */
export const MEMORY_MB = { api: 512, projector: 512, notifier: 512, picture: 1024 } as const;

/**
 * Fieldpost in one stack: the event table, the API behind Cognito, the projector fed
 * by the table's stream, the notifier fed by SQS, SES, and alarms on everything that
 * could leave a player uninformed.
 */
export class FieldpostStack extends Stack {
  readonly data: FieldpostData;
  readonly notifications: FieldpostNotifications;
  readonly api: FieldpostApi;
  readonly alarms: FieldpostAlarms;
  readonly deadlines: FieldpostDeadlines;
  /** The hourly trigger of the daily digest. */
  readonly digestRule: events.Rule;
  readonly web: FieldpostWeb;
  readonly functions: Readonly<Record<HandlerName, HandlerFunction>>;

  constructor(scope: Construct, id: string, props: FieldpostStackProps) {
    super(scope, id, props);
    const { config } = props;

    this.data = new FieldpostData(this, 'Data');
    const table = this.data.table;

    const notifierTimeout = Duration.seconds(30);
    const projectorTimeout = Duration.seconds(60);
    this.notifications = new FieldpostNotifications(this, 'Notifications', {
      mailIdentity: config.mailIdentity,
      notifierTimeout,
      projectorTimeout,
    });
    const { queue, deadLetterQueue, retryQueue, retryDeadLetterQueue, streamFailureQueue, projectorRepairQueue, identity } = this.notifications;

    // Every handler gets the same environment (functions/ports.ts); permissions, not
    // configuration, decide what each may touch.
    const environment = {
      TABLE_NAME: table.tableName,
      NOTIFY_QUEUE_URL: queue.queueUrl,
      NOTIFY_RETRY_QUEUE_URL: retryQueue.queueUrl,
      MAIL_FROM: config.mailFrom,
      APP_URL: config.appUrl,
      AUTH_MODE: 'cognito',
    };
    const common = { environment, logRetention: config.logRetention, ...(props.lambdaCode ? { code: props.lambdaCode } : {}) };

    const api = new HandlerFunction(this, 'ApiHandler', {
      ...common,
      name: 'api',
      description: 'Fieldpost HTTP API: commands and queries',
      memorySize: MEMORY_MB.api,
      timeout: Duration.seconds(15),
    });
    const projector = new HandlerFunction(this, 'ProjectorHandler', {
      ...common,
      name: 'projector',
      description: 'Fieldpost projector: read models and notification jobs from the table stream',
      memorySize: MEMORY_MB.projector,
      timeout: projectorTimeout,
    });
    const notifier = new HandlerFunction(this, 'NotifierHandler', {
      ...common,
      name: 'notifier',
      description: 'Fieldpost notifier: email (SES) and webhooks from the notification queue',
      memorySize: MEMORY_MB.notifier,
      timeout: notifierTimeout,
    });
    const picture = new HandlerFunction(this, 'PictureHandler', {
      ...common,
      name: 'picture',
      description: "Fieldpost picture: a player's board as PNG for their 'your move' mail, asked by the notifier",
      memorySize: MEMORY_MB.picture,
      timeout: Duration.seconds(10),
      // The rasterizer needs resvg's WebAssembly and the DejaVu fonts beside the bundle (functions/notify/png.ts).
      assets: PICTURE_ASSETS,
    });
    const deadline = new HandlerFunction(this, 'DeadlineHandler', {
      ...common,
      name: 'deadline',
      description: 'Fieldpost deadline: at a scheduled moment, lapses a window, ends a game on time or sends reminders, if still due',
      memorySize: 512,
      timeout: Duration.seconds(15),
    });
    const schedulerFn = new HandlerFunction(this, 'SchedulerHandler', {
      ...common,
      name: 'scheduler',
      description: "Fieldpost scheduler: one EventBridge Scheduler one-time schedule per game's next deadline or reminder, from the table stream",
      memorySize: 256,
      timeout: Duration.seconds(30),
    });
    const digest = new HandlerFunction(this, 'DigestHandler', {
      ...common,
      name: 'digest',
      description: 'Fieldpost digest: every hour, one mail a day to each player whose digest hour has come, listing the games on their move',
      memorySize: 512,
      timeout: Duration.minutes(5),
    });
    const tournaments = new HandlerFunction(this, 'TournamentsHandler', {
      ...common,
      name: 'tournaments',
      description:
        "Fieldpost tournaments: games for new pairings, results and time-out forfeits, ratings, players' and directors' notices, from the table stream",
      memorySize: 512,
      timeout: Duration.seconds(60),
    });
    this.functions = { api, projector, notifier, picture, deadline, scheduler: schedulerFn, tournaments, digest };

    // Least privilege: data-plane item access on the one table (no table management),
    // stream reading for the projector only, the queue for its producers (projector; notifier's
    // delayed retries) and its consumer only, and SES sending only as the configured identity.
    // Only the API runs the game service, so only it may reach a game's partition (events,
    // HEAD, the SECRET seed, snapshots). The projector and the notifier (which posts to URLs
    // players choose) are held to the partitions they use (functions/ports.ts).
    table.grantReadWriteData(api.fn);
    grantPartitions(table, projector.fn, ['SUMMARY#*', 'INBOX#*', 'LOBBY'], ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem']);
    // Both notification queues (functions/notify/queue.ts): due now to the FIFO queue, due later to the retry queue.
    const grantNotify = (fn: lambda.IFunction) => [queue, retryQueue].forEach((q) => q.grantSendMessages(fn));
    grantNotify(projector.fn);
    grantPartitions(table, notifier.fn, ['PLAYER#*', 'NOTIFIED#*'], ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem']);
    // The stale-turn check reads the game's public summary.
    grantPartitions(table, notifier.fn, ['SUMMARY#*'], ['GetItem']);
    // A webhook retry is a delayed copy of the job sent to the retry queue; a job parked behind another is handed on to the FIFO queue (functions/notify).
    grantNotify(notifier.fn);
    identity.grantSendEmail(notifier.fn);
    // The mail picture is the recipient's view, folded from the game's partition: the picture
    // function reads it (and writes nothing, posts nowhere); the notifier only asks it.
    grantPartitions(table, picture.fn, ['GAME#*'], ['GetItem', 'Query']);
    // This function exactly: no versions or aliases (grantInvoke would add ':*').
    notifier.fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [picture.fn.functionArn] }));
    notifier.fn.addEnvironment('PICTURE_FUNCTION', picture.fn.functionName);
    // The API mails one thing itself: the verification link when a player sets an address
    // (functions/notify/email-verification.ts); sending as the same identity only.
    identity.grantSendEmail(api.fn);

    // Clocks (issue 10): the deadline function runs the game service at a deadline, so it reaches
    // game partitions (read the stream, append conditionally), and nothing else. The scheduler
    // function reads no item at all: the head's summary in the stream record is enough.
    grantPartitions(table, deadline.fn, ['GAME#*'], ['GetItem', 'Query', 'PutItem']);
    // A tournament's scheduled start (issue 14) is a wake of the same function: it appends
    // StartOnSchedule to the tournament's stream; the games follow from the tournaments function.
    grantPartitions(table, deadline.fn, TOURNAMENT_START_PARTITIONS, ['GetItem', 'Query', 'PutItem']);
    this.deadlines = new FieldpostDeadlines(this, 'Deadlines', { planner: schedulerFn.fn, deadline: deadline.fn });
    schedulerFn.fn.addEnvironment('SCHEDULE_GROUP', this.deadlines.group.scheduleGroupName);
    schedulerFn.fn.addEnvironment('DEADLINE_FUNCTION_ARN', deadline.fn.functionArn);
    schedulerFn.fn.addEnvironment('SCHEDULER_ROLE_ARN', this.deadlines.role.roleArn);
    schedulerFn.fn.addEnvironment('SCHEDULE_DLQ_ARN', this.deadlines.deadLetterQueue.queueArn);
    // The daily digest (functions/notify/digest.ts): an hourly rule; the function reads who has
    // it on (DIGESTS) and claims each day there, reads their settings and inbox, records the
    // delivery, mails as the configured identity and asks the picture function for boards.
    grantPartitions(table, digest.fn, ['DIGESTS'], ['Query', 'UpdateItem']);
    grantPartitions(table, digest.fn, ['PLAYER#*'], ['GetItem', 'PutItem']);
    grantPartitions(table, digest.fn, ['INBOX#*'], ['Query']);
    identity.grantSendEmail(digest.fn);
    digest.fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [picture.fn.functionArn] }));
    digest.fn.addEnvironment('PICTURE_FUNCTION', picture.fn.functionName);
    this.digestRule = new events.Rule(this, 'DigestHourly', {
      description: 'Fieldpost daily digest: runs the digest function at the start of every hour (each player has their own hour)',
      schedule: events.Schedule.cron({ minute: '0' }),
      targets: [
        new targets.LambdaFunction(digest.fn, { retryAttempts: 2, maxEventAge: Duration.minutes(30), deadLetterQueue: this.deadlines.deadLetterQueue }),
      ],
    });
    schedulerFn.fn.addEventSource(
      new DynamoEventSource(table, {
        startingPosition: lambda.StartingPosition.TRIM_HORIZON,
        batchSize: PROJECTOR_STREAM.batchSize,
        // A schedule a second later for a wake hours ahead; fewer invocations under load.
        maxBatchingWindow: PROJECTOR_STREAM.maxBatchingWindow,
        bisectBatchOnError: true,
        retryAttempts: PROJECTOR_STREAM.retryAttempts,
        maxRecordAge: PROJECTOR_STREAM.maxRecordAge,
        reportBatchItemFailures: true,
        onFailure: new SqsDlq(streamFailureQueue),
        filters: [WAKE_FILTER, OLD_GAME_HEAD_FILTER, TOURNAMENT_LINE_FILTER].map((f) => lambda.FilterCriteria.filter(f)),
      }),
    );

    // Tournaments (issue 14): the function runs the game service for the games it makes, so it
    // reaches game partitions, and the club, tournament and rating streams; it sends notices.
    grantPartitions(table, tournaments.fn, TOURNAMENT_PARTITIONS, ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'ConditionCheckItem']);
    grantNotify(tournaments.fn);
    tournaments.fn.addEventSource(
      new DynamoEventSource(table, {
        startingPosition: lambda.StartingPosition.TRIM_HORIZON,
        batchSize: PROJECTOR_STREAM.batchSize,
        // A round paired a second after its last game ends; fewer invocations under load.
        maxBatchingWindow: PROJECTOR_STREAM.maxBatchingWindow,
        bisectBatchOnError: true,
        retryAttempts: PROJECTOR_STREAM.retryAttempts,
        maxRecordAge: PROJECTOR_STREAM.maxRecordAge,
        reportBatchItemFailures: true,
        onFailure: new SqsDlq(streamFailureQueue),
        filters: [TOURNAMENT_STREAM_FILTER, GAME_END_FILTER, OLD_GAME_HEAD_FILTER].map((f) => lambda.FilterCriteria.filter(f)),
      }),
    );

    projector.fn.addEventSource(
      new DynamoEventSource(table, {
        // The stream keeps 24 hours; start from its beginning so nothing written between
        // table creation and mapping creation is missed.
        startingPosition: lambda.StartingPosition.TRIM_HORIZON,
        batchSize: PROJECTOR_STREAM.batchSize,
        bisectBatchOnError: true,
        retryAttempts: PROJECTOR_STREAM.retryAttempts,
        maxRecordAge: PROJECTOR_STREAM.maxRecordAge,
        maxBatchingWindow: PROJECTOR_STREAM.maxBatchingWindow,
        reportBatchItemFailures: true,
        // Given up on: the projector reads the batch back from the stream and runs it again
        // (functions/projections/repair.ts); a repair that keeps failing is parked in streamFailureQueue.
        onFailure: new SqsDlq(projectorRepairQueue),
        filters: [lambda.FilterCriteria.filter(STREAM_FILTER)],
      }),
    );
    projector.fn.addEventSource(new SqsEventSource(projectorRepairQueue, { batchSize: 1, reportBatchItemFailures: true }));
    // Stay well inside SES sending quotas (a fresh account may send 1 mail a second): at most 5 + 5 notifiers at once.
    // A FIFO source takes no batching window; its batch holds each message group in order (functions/handlers/notifier.ts).
    notifier.fn.addEventSource(new SqsEventSource(queue, { batchSize: NOTIFIER_QUEUE.batchSize, reportBatchItemFailures: true, maxConcurrency: 5 }));
    notifier.fn.addEventSource(
      new SqsEventSource(retryQueue, {
        batchSize: NOTIFIER_QUEUE.batchSize,
        maxBatchingWindow: NOTIFIER_QUEUE.maxBatchingWindow,
        reportBatchItemFailures: true,
        maxConcurrency: 5,
      }),
    );

    this.api = new FieldpostApi(this, 'Api', { handler: api.fn, config });
    // With no API Gateway stage in front, this is what bounds the API's concurrent requests (the rest are answered 429).
    if (config.apiConcurrency !== undefined) (api.fn.node.defaultChild as lambda.CfnFunction).reservedConcurrentExecutions = config.apiConcurrency;
    // The one-click unsubscribe links in notice mail point at the API (functions/notify/unsubscribe.ts).
    notifier.fn.addEnvironment('API_URL', this.api.url);

    this.web = new FieldpostWeb(this, 'Web', {
      apiDomain: this.api.originDomain,
      userPoolClient: this.api.userPoolClient,
      signInUrl: this.api.signInDomain.baseUrl(),
      logRetention: config.logRetention,
      ...(props.webSource ? { source: props.webSource } : {}),
      ...(config.wafRateLimit !== undefined ? { wafRateLimit: config.wafRateLimit } : {}),
    });
    // Sign-in may come back to the configured app URL or to the distribution's own address.
    const webUrl = `https://${this.web.distribution.distributionDomainName}`;
    (this.api.userPoolClient.node.defaultChild as cognito.CfnUserPoolClient).callbackUrLs = [`${config.appUrl}/auth/callback`, `${webUrl}/auth/callback`];
    (this.api.userPoolClient.node.defaultChild as cognito.CfnUserPoolClient).logoutUrLs = [config.appUrl, webUrl];

    this.alarms = new FieldpostAlarms(this, 'Alarms', {
      functions: {
        api: api.fn,
        projector: projector.fn,
        notifier: notifier.fn,
        picture: picture.fn,
        deadline: deadline.fn,
        scheduler: schedulerFn.fn,
        tournaments: tournaments.fn,
        digest: digest.fn,
      },
      streamConsumer: projector.fn,
      deadLetterQueues: {
        notify: deadLetterQueue,
        notifyRetry: retryDeadLetterQueue,
        streamFailure: streamFailureQueue,
        deadline: this.deadlines.deadLetterQueue,
      },
      apiServerErrors: this.api.serverErrors,
      ...(config.alarmEmail ? { alarmEmail: config.alarmEmail } : {}),
    });

    const out = (id: string, value: string, description: string): void => {
      new CfnOutput(this, id, { value, description });
    };
    out('WebUrl', webUrl, 'The web client (CloudFront; the API is under /v1 on the same origin)');
    out(
      'ApiUrl',
      this.api.url,
      `Base URL of the API (${config.frontDoor === 'functionUrl' ? 'the Lambda function URL' : 'the HTTP API'}); routes start with /v1`,
    );
    out('Region', this.region, 'Region of the user pool and API');
    out('UserPoolId', this.api.userPool.userPoolId, 'Cognito user pool: create player accounts here');
    out('UserPoolClientId', this.api.userPoolClient.userPoolClientId, 'App client id for sign-in (no secret)');
    out('TableName', table.tableName, 'The event and read-model table');
    out('NotifyQueueUrl', queue.queueUrl, 'Notification jobs due now (FIFO, a message group per recipient and game)');
    out('NotifyDeadLetterQueueUrl', deadLetterQueue.queueUrl, 'Notification jobs that failed repeatedly (FIFO)');
    out('NotifyRetryQueueUrl', retryQueue.queueUrl, 'Notification jobs due later (retries)');
    out('NotifyRetryDeadLetterQueueUrl', retryDeadLetterQueue.queueUrl, 'Notification retries that failed repeatedly');
    out(
      'StreamFailureQueueUrl',
      streamFailureQueue.queueUrl,
      "Stream batches given up on (shard and sequence numbers): the projector's after its repairs, the scheduler's and tournaments' at once",
    );
    out('DeadlineDeadLetterQueueUrl', this.deadlines.deadLetterQueue.queueUrl, 'Deadline wakes that still failed after their retries');
    out('ScheduleGroup', this.deadlines.group.scheduleGroupName, "EventBridge Scheduler group of the games' one-time deadline schedules");
    out('AlarmTopicArn', this.alarms.topic.topicArn, 'SNS topic every alarm publishes to');
    out('MailIdentity', identity.emailIdentityName, 'SES identity to verify before mail can be sent');
    identity.dkimRecords.forEach((r, i) => {
      // Only meaningful for a domain identity: publish these CNAMEs in its DNS.
      if (!config.mailIdentity.includes('@')) out(`DkimRecord${i + 1}`, `${r.name} CNAME ${r.value}`, 'Easy DKIM record');
    });

    suppressAcceptedFindings(this, config);
  }
}
