import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Notice } from '../../functions/notify/decide.js';
import { webhookPayload } from '../../functions/notify/payloads.js';
import { renderNotice } from '../../functions/notify/render.js';
import { computeSignature, signatureHeader, verifySignature } from '../../functions/notify/signature.js';
import { maskUrl, signedRequest } from '../../functions/notify/webhook.js';
import { checkWebhookUrl } from '../../functions/notify/address-policy.js';

const SECRET = 'whsec_test_0123456789abcdef';
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

describe('webhook signatures', () => {
  it('sign HMAC-SHA256 over "<t>.<body>" in a t=...,v1=... header', () => {
    const body = '{"hello":"world"}';
    const header = signatureHeader(SECRET, 1700000000, body);
    expect(header).toBe(`t=1700000000,v1=${createHmac('sha256', SECRET).update(`1700000000.${body}`).digest('hex')}`);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
  });

  it('verify the right secret and body, and refuse anything else', () => {
    const body = JSON.stringify({ a: 1 });
    const header = signatureHeader(SECRET, 1700000000, body);
    expect(verifySignature({ header, body, secret: SECRET, nowSeconds: 1700000100 })).toEqual({ ok: true, timestamp: 1700000000 });
    expect(verifySignature({ header, body: body + ' ', secret: SECRET, nowSeconds: 1700000100 })).toEqual({ ok: false, reason: 'no-match' });
    expect(verifySignature({ header, body, secret: 'other-secret-xxxxxxxx', nowSeconds: 1700000100 })).toEqual({ ok: false, reason: 'no-match' });
    expect(verifySignature({ header, body, secret: SECRET, nowSeconds: 1700000000 + 301 })).toEqual({ ok: false, reason: 'too-old' });
    expect(verifySignature({ header, body, secret: SECRET, nowSeconds: 1700000000 - 301 })).toEqual({ ok: false, reason: 'in-future' });
    expect(verifySignature({ header: 'v1=abc', body, secret: SECRET, nowSeconds: 1700000000 })).toEqual({ ok: false, reason: 'malformed' });
    expect(verifySignature({ header: undefined, body, secret: SECRET, nowSeconds: 1700000000 })).toEqual({ ok: false, reason: 'malformed' });
    // Several v1 entries (secret rotation): any one matching is enough.
    const two = `t=1700000000,v1=${'0'.repeat(64)},v1=${computeSignature(SECRET, 1700000000, body)}`;
    expect(verifySignature({ header: two, body, secret: SECRET, nowSeconds: 1700000000 }).ok).toBe(true);
  });

  it('sign exactly the bytes that are sent, with a delivery id header', () => {
    const req = signedRequest({ x: 'é' }, { secret: SECRET, deliveryId: 'dlv_1', kind: 'turn', nowSeconds: 1700000000 });
    expect(req.headers['Fieldpost-Delivery']).toBe('dlv_1');
    expect(req.headers['Fieldpost-Event']).toBe('game.turn');
    expect(verifySignature({ header: req.headers['Fieldpost-Signature'], body: req.body, secret: SECRET, nowSeconds: 1700000000 }).ok).toBe(true);
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
