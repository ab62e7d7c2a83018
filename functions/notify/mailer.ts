import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { createTransport, type Transporter } from 'nodemailer';
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
  constructor(
    private readonly client: SESv2Client,
    private readonly from: string,
    private readonly configurationSet?: string,
  ) {}
  async send(m: OutgoingMail): Promise<void> {
    await this.client.send(
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

/** Plain SMTP through nodemailer: locally into the mail sink, or any relay a club runs. */
export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;
  constructor(
    opts: { host: string; port: number; secure?: boolean; user?: string; pass?: string },
    private readonly from: string,
  ) {
    this.transport = createTransport({
      host: opts.host,
      port: opts.port,
      secure: opts.secure ?? false,
      // The local sink speaks plain SMTP on loopback; a real relay negotiates STARTTLS itself.
      ignoreTLS: opts.host === '127.0.0.1' || opts.host === 'localhost',
      ...(opts.user ? { auth: { user: opts.user, pass: opts.pass ?? '' } } : {}),
    });
  }
  async send(m: OutgoingMail): Promise<void> {
    const domain = /@([^>\s]+)/.exec(this.from)?.[1] ?? 'fieldpost.local';
    await this.transport.sendMail({
      from: this.from,
      to: m.to,
      subject: m.subject,
      text: m.text,
      html: m.html,
      messageId: `<${m.deliveryId}@${domain}>`,
      ...(m.attachments?.length
        ? { attachments: m.attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, content: Buffer.from(a.content) })) }
        : {}),
      headers: mailHeaders(m),
    });
  }
  close(): void {
    this.transport.close();
  }
}

/** SMTP_URL (smtp://host:port) selects SMTP; otherwise SES in the Lambda's region. */
export function mailerFromEnv(env: Readonly<Record<string, string | undefined>>): Mailer {
  const from = env['MAIL_FROM'] ?? 'Fieldpost <turns@fieldpost.local>';
  const smtp = env['SMTP_URL'];
  if (smtp) {
    const u = new URL(smtp);
    return new SmtpMailer(
      {
        host: u.hostname,
        port: Number(u.port || 25),
        secure: u.protocol === 'smtps:',
        ...(u.username ? { user: decodeURIComponent(u.username), pass: decodeURIComponent(u.password) } : {}),
      },
      from,
    );
  }
  return new SesMailer(new SESv2Client({}), from, env['SES_CONFIGURATION_SET']);
}
