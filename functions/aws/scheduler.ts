import { randomUUID } from 'node:crypto';
import { AwsServiceError, awsCall, type AwsClientConfig, type ErrorFactory } from './call.js';

/**
 * What the Lambda bundles use of @aws-sdk/client-scheduler, over EventBridge Scheduler's REST
 * JSON protocol (functions/aws/call.ts says why): CreateSchedule, and its ConflictException
 * (a schedule of that name exists, which functions/deadlines/schedules.ts takes as done).
 */

export class ConflictException extends AwsServiceError {}

const toError: ErrorFactory = (name, ...rest) => (name === 'ConflictException' ? new ConflictException(name, ...rest) : new AwsServiceError(name, ...rest));

export class CreateScheduleCommand {
  constructor(readonly input: { Name: string; ClientToken?: string } & Record<string, unknown>) {}
}

export class SchedulerClient {
  constructor(readonly config: AwsClientConfig = {}) {}

  async send(command: CreateScheduleCommand): Promise<{ ScheduleArn?: string }> {
    const { Name, ...rest } = command.input;
    // The SDK fills the idempotency token when none is given; so does this.
    const body = JSON.stringify({ ...rest, ClientToken: rest.ClientToken ?? randomUUID() });
    const res = await awsCall(
      this.config,
      { service: 'scheduler', method: 'POST', path: `/schedules/${encodeURIComponent(Name)}`, headers: { 'content-type': 'application/json' }, body },
      toError,
    );
    return JSON.parse(new TextDecoder().decode(res.body)) as { ScheduleArn?: string };
  }
}
