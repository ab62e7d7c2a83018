import { NagSuppressions } from 'cdk-nag';
import type { FieldpostConfig } from './config.js';
import type { FieldpostStack } from './fieldpost-stack.js';

/**
 * The cdk-nag AwsSolutions findings this stack accepts, each with the reason. Suppressions
 * are attached to the exact resource (never the whole stack) so a new resource of the
 * same kind is checked afresh.
 */
export function suppressAcceptedFindings(stack: FieldpostStack, config: FieldpostConfig): void {
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
  const projectorPolicy = stack.functions.projector.role.node.tryFindChild('DefaultPolicy');
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

  NagSuppressions.addResourceSuppressions(stack.api.healthRoute, [
    {
      id: 'AwsSolutions-APIG4',
      reason:
        'GET /v1/health is the unauthenticated liveness probe: it returns only service status, no game ' +
        'or player data; every other /v1 route uses the Cognito JWT authorizer.',
    },
  ]);

  NagSuppressions.addResourceSuppressions(stack.api.unsubscribeRoute, [
    {
      id: 'AwsSolutions-APIG4',
      reason:
        'POST /v1/unsubscribe is the one-click unsubscribe of notification mail (RFC 8058): mail providers ' +
        'call it without signing in. It acts only on a link signed with the player key (HMAC over player and ' +
        'notice kind), and can only stop one kind of mail to that player.',
    },
  ]);

  NagSuppressions.addResourceSuppressions(stack.notifications.streamFailureQueue, [
    {
      id: 'AwsSolutions-SQS3',
      reason:
        'This queue is itself a dead-letter destination: the on-failure target of the table stream ' +
        'mapping. It keeps messages 14 days and its depth is alarmed; nothing consumes it automatically.',
    },
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
