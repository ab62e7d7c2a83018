import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';

/**
 * The local mail sink: an SMTP server on 127.0.0.1 that accepts every message and writes
 * it, byte for byte, as a .eml file in a folder, so a person (or a test) can read what
 * Fieldpost sent. Nothing is relayed anywhere.
 */
export interface MailSink {
  readonly port: number;
  readonly dir: string;
  /** smtp://127.0.0.1:<port>, for SMTP_URL. */
  readonly url: string;
  list(): MailSummary[];
  stop(): Promise<void>;
}

export interface MailSummary {
  /** File name: the id used by /local/mail/<id>. */
  readonly id: string;
  readonly from: string;
  readonly to: string;
  readonly subject: string;
  readonly date: string;
  readonly messageId: string;
  readonly deliveryId: string;
  readonly size: number;
  /** The plain-text part, decoded. */
  readonly text: string;
}

export async function startMailSink(opts: { dir: string; port?: number }): Promise<MailSink> {
  mkdirSync(opts.dir, { recursive: true });
  let n = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    size: 10 * 1024 * 1024,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        try {
          const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${String(++n).padStart(4, '0')}-${process.pid}.eml`;
          writeFileSync(join(opts.dir, name), Buffer.concat(chunks));
          callback();
        } catch (e) {
          callback(e as Error);
        }
      });
    },
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(opts.port ?? 0, '127.0.0.1', () => ok());
  });
  server.on('error', (e) => console.error(`[mail sink] ${(e as Error).message}`));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    dir: opts.dir,
    url: `smtp://127.0.0.1:${port}`,
    list: () => listMail(opts.dir),
    stop: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

const SAFE_ID = /^[A-Za-z0-9._-]+\.eml$/;

export function listMail(dir: string): MailSummary[] {
  let names: string[];
  try {
    names = readdirSync(dir)
      .filter((f) => SAFE_ID.test(f))
      .sort();
  } catch {
    return [];
  }
  return names.map((id) => summarizeMail(id, readFileSync(join(dir, id))));
}

/** The raw .eml, or undefined for an unknown (or unsafe) id. */
export function readRawMail(dir: string, id: string): Buffer | undefined {
  if (!SAFE_ID.test(id)) return undefined;
  try {
    if (!statSync(join(dir, id)).isFile()) return undefined;
    return readFileSync(join(dir, id));
  } catch {
    return undefined;
  }
}

export function summarizeMail(id: string, raw: Buffer): MailSummary {
  const { headers, body } = splitMessage(raw.toString('latin1'));
  const h = (k: string) => decodeWords(headers.get(k) ?? '');
  return {
    id,
    from: h('from'),
    to: h('to'),
    subject: h('subject'),
    date: h('date'),
    messageId: h('message-id'),
    deliveryId: h('x-fieldpost-delivery'),
    size: raw.length,
    text: textPart(headers, body),
  };
}

function splitMessage(s: string): { headers: Map<string, string>; body: string } {
  const m = /\r?\n\r?\n/.exec(s);
  const head = m ? s.slice(0, m.index) : s;
  const body = m ? s.slice(m.index + m[0].length) : '';
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i > 0) {
      const k = line.slice(0, i).trim().toLowerCase();
      if (!headers.has(k)) headers.set(k, line.slice(i + 1).trim());
    }
  }
  return { headers, body };
}

function decodeBody(body: string, encoding: string, charset: string): string {
  let bytes: Buffer;
  const enc = encoding.toLowerCase();
  if (enc === 'base64') bytes = Buffer.from(body.replace(/\s+/g, ''), 'base64');
  else if (enc === 'quoted-printable')
    bytes = Buffer.from(
      body.replace(/=\r?\n/g, '').replace(/=([0-9A-Fa-f]{2})/g, (_, x: string) => String.fromCharCode(parseInt(x, 16))),
      'latin1',
    );
  else bytes = Buffer.from(body, 'latin1');
  return bytes.toString(/utf-?8/i.test(charset) || charset === '' ? 'utf8' : 'latin1');
}

const param = (header: string, name: string) => new RegExp(`${name}="?([^";]+)"?`, 'i').exec(header)?.[1] ?? '';

function textPart(headers: Map<string, string>, body: string, depth = 0): string {
  const type = headers.get('content-type') ?? 'text/plain';
  if (/^multipart\//i.test(type) && depth < 4) {
    const boundary = param(type, 'boundary');
    if (!boundary) return '';
    for (const part of body.split(`--${boundary}`).slice(1)) {
      if (part.startsWith('--')) break;
      // The line break before a boundary belongs to the boundary, not to the part.
      const p = splitMessage(part.replace(/^\r?\n/, '').replace(/\r?\n$/, ''));
      const t = textPart(p.headers, p.body, depth + 1);
      if (t) return t;
    }
    return '';
  }
  if (!/^text\/plain/i.test(type)) return '';
  return decodeBody(body, headers.get('content-transfer-encoding') ?? '7bit', param(type, 'charset'));
}

/** RFC 2047 encoded words (=?UTF-8?Q?...?= / =?UTF-8?B?...?=) in headers. */
function decodeWords(s: string): string {
  return s.replace(/\?=\s+=\?/g, '?==?').replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_, charset: string, enc: string, text: string) => {
    const bytes =
      enc.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64')
        : Buffer.from(
            text.replace(/_/g, ' ').replace(/=([0-9A-Fa-f]{2})/g, (_m, x: string) => String.fromCharCode(parseInt(x, 16))),
            'latin1',
          );
    return bytes.toString(/utf-?8/i.test(charset) ? 'utf8' : 'latin1');
  });
}

/**
 * GET /local/mail (JSON list, newest last) and GET /local/mail/<id> (the raw .eml) for the
 * local runtime's HTTP server. Answers undefined for other paths.
 */
export function mailHttp(
  dir: string,
  method: string,
  path: string,
): { statusCode: number; headers: Record<string, string>; body: string; isBase64Encoded?: boolean } | undefined {
  if (path !== '/local/mail' && !path.startsWith('/local/mail/')) return undefined;
  if (method !== 'GET')
    return {
      statusCode: 405,
      headers: { 'content-type': 'application/json', allow: 'GET' },
      body: JSON.stringify({ code: 'http/method-not-allowed', message: 'Use GET' }),
    };
  if (path === '/local/mail' || path === '/local/mail/') {
    const mails = listMail(dir);
    return {
      statusCode: 200,
      headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
      body: JSON.stringify({ dir, count: mails.length, mails: mails.map((m) => ({ ...m, raw: `/local/mail/${m.id}` })) }),
    };
  }
  let id: string;
  try {
    id = decodeURIComponent(path.slice('/local/mail/'.length));
  } catch {
    // A stray % (such as /local/mail/%ZZ) is the caller's mistake, not the server's.
    return {
      statusCode: 400,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        code: 'local/bad-mail-id',
        message: 'The mail id in the path is not valid percent-encoding; take the id (or the raw link) from GET /local/mail',
      }),
    };
  }
  const raw = readRawMail(dir, id);
  if (!raw)
    return {
      statusCode: 404,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: 'local/mail-not-found', message: 'No such mail in the sink' }),
    };
  return { statusCode: 200, headers: { 'content-type': 'message/rfc822', 'cache-control': 'no-store' }, body: raw.toString('base64'), isBase64Encoded: true };
}
