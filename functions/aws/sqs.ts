import { awsJson10, type AwsClientConfig } from './call.js';

/** What the Lambda bundles use of @aws-sdk/client-sqs, over SQS's JSON protocol (functions/aws/call.ts says why). */

export class SendMessageBatchCommand {
  constructor(readonly input: { QueueUrl: string; Entries: { Id: string; MessageBody: string; DelaySeconds?: number }[] }) {}
}

export class SQSClient {
  constructor(readonly config: AwsClientConfig = {}) {}

  async send(command: SendMessageBatchCommand): Promise<{ Successful?: { Id: string }[]; Failed?: { Id: string; Code?: string; Message?: string }[] }> {
    return awsJson10(this.config, 'sqs', 'AmazonSQS.SendMessageBatch', command.input);
  }
}
