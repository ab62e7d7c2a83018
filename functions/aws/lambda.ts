import { awsCall, type AwsClientConfig } from './call.js';

/** What the Lambda bundles use of @aws-sdk/client-lambda: Invoke, over Lambda's REST protocol (functions/aws/call.ts says why). */

export class InvokeCommand {
  constructor(readonly input: { FunctionName: string; Payload?: Uint8Array; InvocationType?: 'RequestResponse' | 'Event' | 'DryRun' }) {}
}

export class LambdaClient {
  constructor(readonly config: AwsClientConfig = {}) {}

  async send(command: InvokeCommand): Promise<{ StatusCode: number; FunctionError?: string; ExecutedVersion?: string; Payload: Uint8Array }> {
    const { FunctionName, Payload, InvocationType } = command.input;
    const res = await awsCall(this.config, {
      service: 'lambda',
      method: 'POST',
      path: `/2015-03-31/functions/${encodeURIComponent(FunctionName)}/invocations`,
      headers: { 'content-type': 'application/octet-stream', ...(InvocationType ? { 'x-amz-invocation-type': InvocationType } : {}) },
      body: Payload ?? new Uint8Array(),
    });
    const functionError = res.headers.get('x-amz-function-error');
    const version = res.headers.get('x-amz-executed-version');
    return {
      StatusCode: res.status,
      ...(functionError ? { FunctionError: functionError } : {}),
      ...(version ? { ExecutedVersion: version } : {}),
      Payload: res.body,
    };
  }
}
