import { awsCall, type AwsClientConfig } from './call.js';

/**
 * What the Lambda bundles use of @aws-sdk/client-sesv2: SendEmail with simple content, over
 * SES v2's REST JSON protocol (functions/aws/call.ts says why). Attachments' bytes go as base64,
 * as the SDK sends them.
 */

type Input = Record<string, unknown> & {
  Content?: { Simple?: Record<string, unknown> & { Attachments?: (Record<string, unknown> & { RawContent?: Uint8Array })[] } };
};

export class SendEmailCommand {
  constructor(readonly input: Input) {}
}

function wire(input: Input): unknown {
  const simple = input.Content?.Simple;
  if (!simple?.Attachments) return input;
  const Attachments = simple.Attachments.map((a) => (a.RawContent ? { ...a, RawContent: Buffer.from(a.RawContent).toString('base64') } : a));
  return { ...input, Content: { ...input.Content, Simple: { ...simple, Attachments } } };
}

export class SESv2Client {
  constructor(readonly config: AwsClientConfig = {}) {}

  async send(command: SendEmailCommand): Promise<{ MessageId?: string }> {
    const res = await awsCall(this.config, {
      service: 'ses',
      hostPrefix: 'email',
      method: 'POST',
      path: '/v2/email/outbound-emails',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(wire(command.input)),
    });
    return JSON.parse(new TextDecoder().decode(res.body)) as { MessageId?: string };
  }
}
