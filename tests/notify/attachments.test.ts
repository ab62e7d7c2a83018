import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { afterAll, describe, expect, it } from 'vitest';
import { readRawMail, startMailSink } from '../../functions/local/mail-sink.js';
import { SesMailer, type OutgoingMail } from '../../functions/notify/mailer.js';
import { SmtpMailer } from '../../functions/local/smtp-mailer.js';

/** The board picture travels as a real attachment on both mail paths: SMTP (nodemailer) and SES v2. */
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
const mail: OutgoingMail = {
  to: 'alice@example.org',
  subject: 'Your move',
  text: 'It is your move.\n',
  html: '<p>It is your move.</p>',
  deliveryId: 'dlv_pic1',
  attachments: [{ filename: 'board.png', contentType: 'image/png', content: PNG }],
};

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('mail attachments', () => {
  it('SMTP: a multipart message with board.png as a base64 image/png attachment', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fieldpost-attach-'));
    dirs.push(dir);
    const sink = await startMailSink({ dir });
    const smtp = new SmtpMailer({ host: '127.0.0.1', port: sink.port }, 'Fieldpost <turns@fieldpost.test>');
    try {
      await smtp.send(mail);
      const [m] = sink.list();
      const raw = readRawMail(dir, m!.id)!.toString('latin1');
      expect(raw).toMatch(/Content-Type: multipart\/mixed/);
      expect(raw).toMatch(/Content-Type: image\/png; name=board\.png/);
      expect(raw).toMatch(/Content-Disposition: attachment; filename=board\.png/);
      expect(raw).toContain(Buffer.from(PNG).toString('base64'));
    } finally {
      smtp.close();
      await sink.stop();
    }
  });

  it('SES: the attachment rides on the simple content, and a mail without one has none', async () => {
    const sent: SendEmailCommand[] = [];
    const client = { send: async (c: SendEmailCommand) => void sent.push(c) } as unknown as SESv2Client;
    const ses = new SesMailer(client, 'turns@example.org');
    await ses.send(mail);
    await ses.send({ ...mail, attachments: [] });
    expect(sent[0]!.input.Content?.Simple?.Attachments).toEqual([
      { FileName: 'board.png', ContentType: 'image/png', ContentDisposition: 'ATTACHMENT', ContentTransferEncoding: 'BASE64', RawContent: PNG },
    ]);
    expect(sent[1]!.input.Content?.Simple?.Attachments).toBeUndefined();
  });
});
