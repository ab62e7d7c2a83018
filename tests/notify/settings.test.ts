import { describe, expect, it } from 'vitest';
import { mergeSettings, publicSettings, settingsBody } from '../../functions/http/routes/settings.js';
import { AppError, type NotificationSettings } from '../../functions/ports.js';

const current: NotificationSettings = {
  email: 'bob@example.org',
  webhooks: [{ id: 'wh_0123456789abcdef', url: 'https://discord.com/api/webhooks/123456789012345678/tokentokentokentoken', secret: 'secret-0123456789-WXYZ', format: 'discord' }],
};
let n = 0;
const ids = () => `wh_${String(++n).padStart(16, '0')}`;
const codeOf = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return e instanceof AppError ? e.code : 'not-an-AppError';
  }
  return 'no error';
};

describe('notification settings', () => {
  it('keep what the request leaves out, including a webhook\'s secret when it names the id', () => {
    const next = mergeSettings(current, settingsBody.parse({ webhooks: [{ id: 'wh_0123456789abcdef', format: 'slack' }] }), false, ids);
    expect(next.email).toBe('bob@example.org');
    expect(next.webhooks).toEqual([{ ...current.webhooks[0]!, format: 'slack' }]);
    expect(mergeSettings(current, settingsBody.parse({ email: null }), false, ids)).toEqual({ webhooks: current.webhooks });
  });

  it('need a url and, for JSON receivers, a signing secret for a new webhook; chat webhooks get one made up', () => {
    expect(codeOf(() => mergeSettings(current, settingsBody.parse({ webhooks: [{ secret: 'x'.repeat(16) }] }), false, ids))).toBe('settings/webhook-url-required');
    expect(codeOf(() => mergeSettings(current, settingsBody.parse({ webhooks: [{ url: 'https://example.org/h' }] }), false, ids))).toBe('settings/webhook-secret-required');
    expect(codeOf(() => mergeSettings(current, settingsBody.parse({ webhooks: [{ id: 'wh_ffffffffffffffff' }] }), false, ids))).toBe('settings/unknown-webhook');
    expect(codeOf(() => mergeSettings(current, settingsBody.parse({ webhooks: [{ url: 'http://example.org/h', secret: 'x'.repeat(16) }] }), false, ids))).toBe('settings/bad-webhook-url');
    const slack = mergeSettings(undefined, settingsBody.parse({ webhooks: [{ url: 'https://hooks.slack.com/services/T000/B000/XXXXXXXXXXXXXXXX', format: 'slack' }] }), false, ids);
    expect(slack.webhooks[0]!.secret.length).toBeGreaterThanOrEqual(32);
  });

  it('are validated at the edge: email shape, secret length, at most five webhooks, no unknown fields', () => {
    expect(settingsBody.safeParse({ email: 'not-an-email' }).success).toBe(false);
    expect(settingsBody.safeParse({ webhooks: [{ url: 'https://x.org', secret: 'short' }] }).success).toBe(false);
    expect(settingsBody.safeParse({ webhooks: Array.from({ length: 6 }, () => ({ url: 'https://x.org', secret: 'x'.repeat(16) })) }).success).toBe(false);
    expect(settingsBody.safeParse({ sms: '+1' }).success).toBe(false);
  });

  it('are shown without secrets and with token-bearing URLs masked', () => {
    const shown = publicSettings(current);
    expect(shown).toEqual({ email: 'bob@example.org', webhooks: [{ id: 'wh_0123456789abcdef', url: 'https://discord.com/api/webhooks/1234…/toke…', format: 'discord', secretHint: '…WXYZ' }] });
    expect(JSON.stringify(shown)).not.toContain('secret-0123456789');
    expect(JSON.stringify(shown)).not.toContain('tokentokentoken');
  });
});
