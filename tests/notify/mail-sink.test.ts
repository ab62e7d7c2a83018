import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailHttp, startMailSink, type MailSink } from '../../functions/local/mail-sink.js';
import { SmtpMailer } from '../../functions/local/smtp-mailer.js';

let sink: MailSink;
let mailer: SmtpMailer;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fieldpost-sink-'));
  sink = await startMailSink({ dir });
  mailer = new SmtpMailer({ host: '127.0.0.1', port: sink.port }, 'Fieldpost <turns@fieldpost.test>');
});
afterAll(async () => {
  mailer.close();
  await sink.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('local mail sink', () => {
  it('keeps each message as an .eml file and lists it decoded', async () => {
    const hash = 'ab'.repeat(32);
    const text = `Zug für Spieler 2 — it is your move.\nReceipt: version 12, event hash ${hash}. ${'long line '.repeat(20)}\n`;
    await mailer.send({ to: 'bob@example.org', subject: 'Your move — Dice Race', text, html: '<p>x</p>', deliveryId: 'dlv_test1' });
    const [m] = sink.list();
    expect(m).toMatchObject({ to: 'bob@example.org', subject: 'Your move — Dice Race', deliveryId: 'dlv_test1', messageId: '<dlv_test1@fieldpost.test>' });
    expect(m!.from).toContain('turns@fieldpost.test');
    expect(m!.id).toMatch(/\.eml$/);
    expect(m!.text.replace(/\r\n/g, '\n')).toBe(text);
  });

  it('serves the list and the raw message over HTTP, and nothing outside its folder', () => {
    const list = mailHttp(dir, 'GET', '/local/mail')!;
    expect(list.statusCode).toBe(200);
    const body = JSON.parse(list.body);
    expect(body.count).toBe(1);
    const raw = mailHttp(dir, 'GET', body.mails[0].raw)!;
    expect(raw.headers['content-type']).toBe('message/rfc822');
    expect(Buffer.from(raw.body, 'base64').toString('latin1')).toContain('X-Fieldpost-Delivery: dlv_test1');
    expect(mailHttp(dir, 'GET', '/local/mail/..%2F..%2Fetc%2Fpasswd')!.statusCode).toBe(404);
    expect(mailHttp(dir, 'GET', '/local/mail/nope.eml')!.statusCode).toBe(404);
    expect(mailHttp(dir, 'POST', '/local/mail')!.statusCode).toBe(405);
    expect(mailHttp(dir, 'GET', '/v1/health')).toBeUndefined();
  });

  it('answers a malformed percent-encoding in the id with 400, not a server error', () => {
    for (const path of ['/local/mail/%ZZ', '/local/mail/%', '/local/mail/abc%E0%A4%A.eml']) {
      const r = mailHttp(dir, 'GET', path)!;
      expect(r.statusCode).toBe(400);
      expect(JSON.parse(r.body)).toMatchObject({ code: 'local/bad-mail-id', message: expect.stringContaining('percent-encoding') });
    }
  });
});
