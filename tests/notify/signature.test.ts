import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Notice } from '../../functions/notify/decide.js';
import { webhookPayload } from '../../functions/notify/payloads.js';
import { renderNotice } from '../../functions/notify/render.js';
import { computeSignature, isStandardSecret, newWebhookSecret, signatureHeader, verifySignature } from '../../functions/notify/signature.js';
import { maskUrl, signedRequest } from '../../functions/notify/webhook.js';
import { checkWebhookUrl } from '../../functions/notify/address-policy.js';

const SECRET = 'whsec_' + Buffer.from('fieldpost-test-key-0123456789').toString('base64');
const HASH = 'a1'.repeat(32);

const notice: Notice = {
  key: 'g1#turn#p2#7',
  kind: 'turn',
  gameId: 'g1',
  title: 'Dice Race (test fixture)',
  engine: 'dice-race',
  player: 'bob',
  seats: ['p2'],
  sides: ['Player 2'],
  asked: [{ seat: 'p2', name: 'Player 2', kind: 'move', prompt: 'Roll a die or play your card', deadline: '2026-12-01T12:00:00.000Z' }],
  opponents: [{ seat: 'p1', name: 'Player 1', player: 'alice' }],
  version: 7,
  hash: HASH,
  at: '2026-11-21T10:00:00.000Z',
};

describe('webhook signatures (Standard Webhooks)', () => {
  const ID = 'dlv_0123';
  const hdrs = (signature: string, timestamp = '1700000000', id = ID) => ({ id, timestamp, signature });

  it('sign "<id>.<timestamp>.<body>" with HMAC-SHA256 keyed by the base64 key after whsec_, as v1,<base64>', () => {
    const body = '{"hello":"world"}';
    const key = Buffer.from(SECRET.slice('whsec_'.length), 'base64');
    expect(signatureHeader([SECRET], ID, 1700000000, body)).toBe(`v1,${createHmac('sha256', key).update(`${ID}.1700000000.${body}`).digest('base64')}`);
    // The specification's own example (standard-webhooks spec, "Verifying webhook authenticity").
    expect(computeSignature('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}')).toBe(
      'g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    );
  });

  it('carry one signature per secret while a secret is rotated, separated by a space', () => {
    const body = '{}';
    const older = newWebhookSecret();
    const header = signatureHeader([SECRET, older], ID, 1700000000, body);
    expect(header.split(' ')).toHaveLength(2);
    for (const secret of [SECRET, older]) expect(verifySignature({ headers: hdrs(header), body, secret, nowSeconds: 1700000000 }).ok).toBe(true);
  });

  it('verify the right secret, id and body, and refuse anything else', () => {
    const body = JSON.stringify({ a: 1 });
    const header = signatureHeader([SECRET], ID, 1700000000, body);
    expect(verifySignature({ headers: hdrs(header), body, secret: SECRET, nowSeconds: 1700000100 })).toEqual({ ok: true, timestamp: 1700000000 });
    expect(verifySignature({ headers: hdrs(header), body: body + ' ', secret: SECRET, nowSeconds: 1700000100 })).toEqual({ ok: false, reason: 'no-match' });
    expect(verifySignature({ headers: hdrs(header, '1700000000', 'dlv_other'), body, secret: SECRET, nowSeconds: 1700000100 })).toEqual({
      ok: false,
      reason: 'no-match',
    });
    expect(verifySignature({ headers: hdrs(header), body, secret: newWebhookSecret(), nowSeconds: 1700000100 })).toEqual({ ok: false, reason: 'no-match' });
    expect(verifySignature({ headers: hdrs(header), body, secret: SECRET, nowSeconds: 1700000000 + 301 })).toEqual({ ok: false, reason: 'too-old' });
    expect(verifySignature({ headers: hdrs(header), body, secret: SECRET, nowSeconds: 1700000000 - 301 })).toEqual({ ok: false, reason: 'in-future' });
    expect(verifySignature({ headers: hdrs('v2,abc'), body, secret: SECRET, nowSeconds: 1700000000 })).toEqual({ ok: false, reason: 'malformed' });
    expect(verifySignature({ headers: { id: ID }, body, secret: SECRET, nowSeconds: 1700000000 })).toEqual({ ok: false, reason: 'malformed' });
  });

  it("make secrets of the specification's form, and refuse others as a player's own", () => {
    const s = newWebhookSecret();
    expect(s).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(isStandardSecret(s)).toBe(true);
    expect(isStandardSecret('whsec_' + Buffer.alloc(16).toString('base64'))).toBe(false);
    expect(isStandardSecret('x'.repeat(40))).toBe(false);
  });

  it('sign exactly the bytes that are sent, with the delivery id and timestamp headers, and the event type in the body', () => {
    const req = signedRequest({ type: 'game.turn', x: 'é' }, { secrets: [SECRET], deliveryId: 'dlv_1', nowSeconds: 1700000000 });
    expect(req.headers['webhook-id']).toBe('dlv_1');
    expect(req.headers['webhook-timestamp']).toBe('1700000000');
    expect(Object.keys(req.headers).filter((h) => h.toLowerCase().startsWith('fieldpost'))).toEqual([]);
    expect(JSON.parse(req.body).type).toBe('game.turn');
    const headers = { id: req.headers['webhook-id'], timestamp: req.headers['webhook-timestamp'], signature: req.headers['webhook-signature'] };
    expect(verifySignature({ headers, body: req.body, secret: SECRET, nowSeconds: 1700000000 }).ok).toBe(true);
  });
});

describe('notice content', () => {
  it('mail names the game, the opponent, what is asked, the deadline, a link and the receipt hash', () => {
    const r = renderNotice(notice, 'https://play.example.org/');
    expect(r.subject).toBe('Your move in Dice Race (test fixture) against alice (Player 1)');
    expect(r.text).toContain('Dice Race (test fixture) (game g1)');
    expect(r.text).toContain('alice (Player 1)');
    expect(r.text).toContain('Player 2: Roll a die or play your card');
    expect(r.text).toContain('Deadline: 2026-12-01T12:00:00.000Z');
    expect(r.text).toContain('https://play.example.org/games/g1');
    expect(r.text).toContain(`event hash ${HASH}`);
    expect(r.html).toContain('<a href="https://play.example.org/games/g1">');
    const noDeadline = renderNotice({ ...notice, asked: [{ ...notice.asked[0]!, deadline: undefined }] as Notice['asked'] }, 'https://x');
    expect(noDeadline.text).toContain('Deadline: none set.');
  });

  it('ended and invited notices say the result and who invited', () => {
    const ended = renderNotice(
      { ...notice, kind: 'ended', asked: [], outcome: { winners: ['p2'], reason: 'reached 20', result: 'won', score: { p1: 12, p2: 21 } } },
      'https://x',
    );
    expect(ended.subject).toBe('Dice Race (test fixture) is over: you won');
    expect(ended.text).toContain('Score: Player 1 12, Player 2 21.');
    const invited = renderNotice({ ...notice, kind: 'invited', asked: [], invitedBy: 'alice' }, 'https://x');
    expect(invited.subject).toBe('alice invited you to Dice Race (test fixture)');
  });

  it('html-escapes player-chosen text', () => {
    const r = renderNotice({ ...notice, opponents: [{ seat: 'p1', name: '<script>', player: 'a&b' }] }, 'https://x');
    expect(r.html).not.toContain('<script>');
    expect(r.html).toContain('&lt;script&gt;');
  });
});

describe('payload formats', () => {
  const r = renderNotice(notice, 'https://play.example.org');
  it('json carries the game, the ask, the link and the receipt', () => {
    const p = webhookPayload('json', notice, r, 'dlv_x') as Record<string, any>;
    expect(p).toMatchObject({
      id: 'dlv_x',
      type: 'game.turn',
      apiVersion: 'fieldpost-webhook/1',
      player: 'bob',
      seats: ['p2'],
      game: { id: 'g1', url: 'https://play.example.org/games/g1', version: 7, hash: HASH },
    });
    expect(p['asked'][0].prompt).toBe('Roll a die or play your card');
  });
  it('discord: content and an embed with link and receipt, mentions disabled', () => {
    const p = webhookPayload('discord', { ...notice, player: '@everyone' }, renderNotice({ ...notice, player: '@everyone' }, 'https://x'), 'dlv_x') as Record<
      string,
      any
    >;
    expect(typeof p['content']).toBe('string');
    expect(p['allowed_mentions']).toEqual({ parse: [] });
    expect(p['embeds'][0].url).toBe('https://x/games/g1');
    expect(p['embeds'][0].footer.text).toContain(HASH);
  });
  it('slack: text fallback and blocks with an escaped link', () => {
    const p = webhookPayload(
      'slack',
      { ...notice, opponents: [{ seat: 'p1', name: 'P<1>', player: 'alice' }] },
      renderNotice({ ...notice, opponents: [{ seat: 'p1', name: 'P<1>', player: 'alice' }] }, 'https://x'),
      'dlv_x',
    ) as Record<string, any>;
    expect(typeof p['text']).toBe('string');
    const blocks = JSON.stringify(p['blocks']);
    expect(blocks).toContain('<https://x/games/g1|Open the game>');
    expect(blocks).toContain('P&lt;1&gt;');
    expect(blocks).toContain(HASH);
  });
});

describe('webhook URLs', () => {
  it('must be https in AWS; http is allowed locally; never with credentials', () => {
    const problem = (url: string, allowPrivate: boolean) => {
      const v = checkWebhookUrl(url, { allowPrivate });
      return v.ok ? undefined : v.reason;
    };
    expect(problem('http://127.0.0.1:9/x', false)).toBe('must use https');
    expect(problem('http://127.0.0.1:9/x', true)).toBeUndefined();
    expect(problem('https://u:p@example.org/', false)).toMatch(/user name/);
    expect(problem('ftp://example.org/', true)).toBeDefined();
    expect(problem('nope', true)).toBe('is not a URL');
  });
  it('are masked where they carry tokens', () => {
    expect(maskUrl('https://discord.com/api/webhooks/123456789012345678/abcdefghijklmnopqrstuvwxyz')).toBe('https://discord.com/api/webhooks/1234…/abcd…');
    expect(maskUrl('https://example.org/hook?token=secret')).toBe('https://example.org/hook?…');
  });
});
