import { NagSuppressions } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { PUBLIC_ROUTES } from './api.js';
import type { FieldpostConfig } from './config.js';

/** The wildcards in the deployment handler's policy (aws-cdk-lib's own grants), and only those. */
export const BUCKET_DEPLOYMENT_WILDCARDS = [
  'Action::s3:GetBucket*',
  'Action::s3:GetObject*',
  'Action::s3:List*',
  'Action::s3:Abort*',
  'Action::s3:DeleteObject*',
  'Resource::arn:<AWS::Partition>:s3:::cdk-hnb659fds-assets-<AWS::AccountId>-<AWS::Region>/*',
  { regex: '/^Resource::<WebSite[0-9A-F]{8}\\.Arn>\\/\\*$/g' },
  'Resource::*',
] as const;

/** The parts of the stack whose findings are accepted (a narrow view, so this file does not import the stack). */
export interface ReviewedResources {
  readonly functions: Readonly<Record<string, { readonly fn: IConstruct; readonly role: IConstruct }>>;
  readonly api: { readonly publicRoutes: readonly IConstruct[]; readonly userPool: IConstruct };
  readonly deadlines: { readonly deadLetterQueue: IConstruct };
  readonly web: { readonly distribution: IConstruct; readonly deployRole: IConstruct; readonly webAcl?: IConstruct | undefined };
  readonly node: IConstruct['node'];
}

/**
 * The cdk-nag AwsSolutions findings this stack accepts, each with the reason. Suppressions
 * are attached to the exact resource (never the whole stack) so a new resource of the
 * same kind is checked afresh.
 */
export function suppressAcceptedFindings(stack: ReviewedResources, config: FieldpostConfig): void {
  for (const handler of Object.values(stack.functions)) {
    NagSuppressions.addResourceSuppressions(handler.fn, [
      {
        id: 'AwsSolutions-L1',
        reason:
          'Node.js 22 is the runtime the project targets (issue 3) and is supported by Lambda until 2027; ' +
          'the bundle is built with target node22, so moving to a newer runtime is a deliberate, tested change.',
      },
    ]);
  }

  // The grants above this call all land in the projector role's DefaultPolicy.
  const projectorPolicy = stack.functions['projector']?.role.node.tryFindChild('DefaultPolicy');
  if (!projectorPolicy) throw new Error('the projector role has no DefaultPolicy to suppress on');
  NagSuppressions.addResourceSuppressions(projectorPolicy, [
    {
      id: 'AwsSolutions-IAM5',
      appliesTo: ['Resource::*'],
      reason:
        'dynamodb:ListStreams, added by the stream event source mapping grant, has no resource-level ' +
        'permissions; every other stream action is scoped to the table stream ARN.',
    },
  ]);

  // The tournaments function reads the stream like the projector.
  const tournamentsPolicy = stack.functions['tournaments']?.role.node.tryFindChild('DefaultPolicy');
  if (!tournamentsPolicy) throw new Error('the tournaments role has no DefaultPolicy to suppress on');
  NagSuppressions.addResourceSuppressions(tournamentsPolicy, [
    {
      id: 'AwsSolutions-IAM5',
      appliesTo: ['Resource::*'],
      reason:
        'dynamodb:ListStreams, added by the stream event source mapping grant, has no resource-level ' +
        'permissions; every other stream action is scoped to the table stream ARN.',
    },
  ]);

  // The scheduler function reads the stream like the projector, and makes schedules whose names
  // are per game and moment, so its grant names the group, not each schedule.
  const schedulerPolicy = stack.functions['scheduler']?.role.node.tryFindChild('DefaultPolicy');
  if (!schedulerPolicy) throw new Error('the scheduler role has no DefaultPolicy to suppress on');
  NagSuppressions.addResourceSuppressions(schedulerPolicy, [
    {
      id: 'AwsSolutions-IAM5',
      appliesTo: [
        'Resource::*',
        { regex: '/^Resource::arn:<AWS::Partition>:scheduler:<AWS::Region>:<AWS::AccountId>:schedule\\/[A-Za-z0-9-]*Deadlines-Group-[0-9A-F]+\\/\\*$/g' },
      ],
      reason:
        'dynamodb:ListStreams (from the stream event source mapping) has no resource-level permissions; ' +
        'scheduler:CreateSchedule is limited to the one Fieldpost schedule group, whose schedules are named per game and moment when they are made.',
    },
  ]);

  NagSuppressions.addResourceSuppressions(stack.deadlines.deadLetterQueue, [
    {
      id: 'AwsSolutions-SQS3',
      reason:
        "This queue is itself a dead-letter destination: EventBridge Scheduler's for deadline wakes that failed " +
        'after their retries. It keeps messages 14 days and its depth is alarmed; nothing consumes it automatically.',
    },
  ]);

  for (const [i, route] of stack.api.publicRoutes.entries()) {
    const { path, why } = PUBLIC_ROUTES[i]!;
    NagSuppressions.addResourceSuppressions(route, [
      { id: 'AwsSolutions-APIG4', reason: `GET ${path} is open without a token: ${why}. Every other /v1 route uses the Cognito JWT authorizer.` },
    ]);
  }

  NagSuppressions.addResourceSuppressions(stack.web.distribution, [
    {
      id: 'AwsSolutions-CFR1',
      reason: 'Correspondence players and clubs are anywhere in the world; there is no country to keep out.',
    },
    // With wafRateLimit set the distribution has a web ACL, and there is nothing to accept.
    ...(stack.web.webAcl
      ? []
      : [
          {
            id: 'AwsSolutions-CFR2',
            reason:
              'WAF costs a monthly fee per web ACL that a hobby club would pay for little: the files are static, ' +
              'every API route but four needs a Cognito token, and the API counts its own fair limits (and, as a club ' +
              'chooses, its reserved concurrency or the HTTP API stage throttling bound it). ' +
              'A club that wants a per-address rate rule at the edge sets wafRateLimit (infra/config.ts).',
          },
        ]),
    {
      id: 'AwsSolutions-CFR4',
      reason:
        "The distribution's default *.cloudfront.net certificate has a fixed security policy; a club that attaches " +
        'its own domain with an ACM certificate sets minimumProtocolVersion TLSv1.2_2021 there.',
    },
  ]);
  // aws-cdk-lib's BucketDeployment copies web/dist into the site bucket with one singleton function per stack.
  const deployPolicy = stack.web.deployRole.node.tryFindChild('DefaultPolicy');
  if (!deployPolicy) throw new Error('the web deployment role has no DefaultPolicy to suppress on');
  NagSuppressions.addResourceSuppressions(deployPolicy, [
    {
      id: 'AwsSolutions-IAM5',
      appliesTo: [...BUCKET_DEPLOYMENT_WILDCARDS],
      reason:
        "aws-cdk-lib's BucketDeployment grants read on the CDK asset bucket and read/write on the site bucket's objects " +
        '(s3:GetObject*, s3:List*, s3:DeleteObject*, ...) and invalidates the distribution (no resource-level ' +
        'permission: Resource::*); used only at deploy time.',
    },
  ]);
  const deployment = stack.node.children.find((c) => c.node.id.startsWith('Custom::CDKBucketDeployment'));
  if (!deployment) throw new Error('no BucketDeployment handler found to review');
  NagSuppressions.addResourceSuppressions(deployment, [
    { id: 'AwsSolutions-L1', reason: "The BucketDeployment handler's runtime is chosen by aws-cdk-lib and moves with it." },
  ]);

  const pool = stack.api.userPool;
  if (config.cognitoPlan !== 'plus') {
    NagSuppressions.addResourceSuppressions(pool, [
      {
        id: 'AwsSolutions-COG8',
        reason:
          'Essentials tier by default: a hobby club pays per monthly active user for Plus. Deploy with ' +
          '-c cognitoPlan=plus to enable Plus with threat protection enforced.',
      },
    ]);
  }
  if (config.mfa !== 'required') {
    NagSuppressions.addResourceSuppressions(pool, [
      {
        id: 'AwsSolutions-COG2',
        reason:
          'MFA is optional (TOTP) by default so players can join without an authenticator app; accounts ' +
          'only reach game moves. Deploy with -c mfa=required to enforce it.',
      },
    ]);
  }
}
