import { createTransport, type Transporter } from 'nodemailer';
import { mailHeaders, type Mailer, type OutgoingMail } from '../notify/mailer.js';

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

/** SMTP_URL (smtp://user:pass@host:port, smtps:// for TLS): mail through a relay instead of the local sink. */
export function smtpMailerFromUrl(url: string, from: string): SmtpMailer {
  const u = new URL(url);
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
