import type { Env } from '../environment.js';
import type { SESv2Client } from '@aws-sdk/client-sesv2';
import { AUTO_SUBMITTED_HEADERS } from './unsubscribe.js';

/** One outgoing mail. `deliveryId` is stable across retries so duplicates can be recognised. */
export interface OutgoingMail {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  readonly deliveryId: string;
  /** More headers (a notice's List-Unsubscribe); every mail also says it is Auto-Submitted (RFC 3834). */
  readonly headers?: Readonly<Record<string, string>>;
  readonly attachments?: readonly MailAttachment[];
}

export interface MailAttachment {
  readonly filename: string;
  readonly contentType: string;
  readonly content: Uint8Array;
}

/** The headers every outgoing mail carries, SMTP and SES alike. */
export const mailHeaders = (m: OutgoingMail): Record<string, string> => ({ ...m.headers, ...AUTO_SUBMITTED_HEADERS, 'X-Fieldpost-Delivery': m.deliveryId });

export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
}

/** Amazon SES v2 (in AWS). The From address must be a verified SES identity. */
export class SesMailer implements Mailer {
  /** `client` may be a function that makes it on the first mail (mailerFromEnv). */
  constructor(
    private readonly client: SESv2Client | (() => Promise<SESv2Client>),
    private readonly from: string,
    private readonly configurationSet?: string,
  ) {}
  async send(m: OutgoingMail): Promise<void> {
    const { SendEmailCommand } = await import('@aws-sdk/client-sesv2');
    const client = typeof this.client === 'function' ? await this.client() : this.client;
    await client.send(
      new SendEmailCommand({
        FromEmailAddress: this.from,
        Destination: { ToAddresses: [m.to] },
        ...(this.configurationSet ? { ConfigurationSetName: this.configurationSet } : {}),
        Content: {
          Simple: {
            Subject: { Data: m.subject, Charset: 'UTF-8' },
            Body: { Text: { Data: m.text, Charset: 'UTF-8' }, Html: { Data: m.html, Charset: 'UTF-8' } },
            Headers: Object.entries(mailHeaders(m)).map(([Name, Value]) => ({ Name, Value })),
            // SES v2 attaches files to simple content itself (the SDK base64-encodes them).
            ...(m.attachments?.length
              ? {
                  Attachments: m.attachments.map((a) => ({
                    FileName: a.filename,
                    ContentType: a.contentType,
                    ContentDisposition: 'ATTACHMENT' as const,
                    ContentTransferEncoding: 'BASE64' as const,
                    RawContent: a.content,
                  })),
                }
              : {}),
          },
        },
        EmailTags: [{ Name: 'fieldpost', Value: 'notice' }],
      }),
    );
  }
}

/**
 * The deployed mailer: SES in the Lambda's region. SMTP (nodemailer) is the local runtime's
 * (functions/local/smtp-mailer.ts), so it never enters a Lambda bundle.
 */
export function mailerFromEnv(env: Env): Mailer {
  // The SES SDK is loaded with the first mail, not at cold start: most API calls send none.
  let client: Promise<SESv2Client> | undefined;
  const ses = () => (client ??= import('@aws-sdk/client-sesv2').then((m) => new m.SESv2Client({})));
  return new SesMailer(ses, env['MAIL_FROM'] ?? 'Fieldpost <turns@fieldpost.local>', env['SES_CONFIGURATION_SET']);
}
