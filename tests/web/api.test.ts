import { afterEach, describe, expect, it } from 'vitest';

/**
 * web/src/api.ts is typed for the browser (tsc -p web); loaded by a path the root type check does
 * not follow, so the Node-typed tests need no DOM library.
 */
const MODULE = '../../web/src/api.js';
const { api } = (await import(/* @vite-ignore */ MODULE)) as { api: <T = unknown>(method: string, path: string, body?: unknown) => Promise<T> };

/** The web client's side of a 503: wait Retry-After, send the same command (same commandId) again. */
const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

function fakeServer(replies: Response[]) {
  const sent: { at: number; method: string; body: string }[] = [];
  globalThis.fetch = (async (_url: string, init: RequestInit) => {
    sent.push({ at: Date.now(), method: String(init.method), body: String(init.body) });
    return replies.shift()!;
  }) as unknown as typeof fetch;
  return sent;
}
const busy = () => new Response(JSON.stringify({ code: 'store/unavailable', message: 'busy' }), { status: 503, headers: { 'retry-after': '1' } });

describe('web api() and a 503', () => {
  it('waits Retry-After and resends a command with the same commandId', async () => {
    const sent = fakeServer([busy(), new Response(JSON.stringify({ version: 5, duplicate: true }), { status: 200 })]);
    const r = await api<{ duplicate: boolean }>('POST', '/v1/games/g/commands', { commandId: 'web-1', command: { type: 'Roll' } });
    expect(r.duplicate).toBe(true);
    expect(sent).toHaveLength(2);
    expect(sent[1]!.body).toBe(sent[0]!.body);
    expect(sent[1]!.at - sent[0]!.at).toBeGreaterThanOrEqual(990);
  });

  it('does not resend a request without a commandId, and gives up after two resends', async () => {
    const once = fakeServer([busy()]);
    await expect(api('PUT', '/v1/me/settings', { emailOff: [] })).rejects.toMatchObject({ status: 503, code: 'store/unavailable' });
    expect(once).toHaveLength(1);
    const thrice = fakeServer([busy(), busy(), busy()]);
    await expect(api('GET', '/v1/me/games')).rejects.toMatchObject({ status: 503 });
    expect(thrice).toHaveLength(3);
  }, 10_000);
});

describe('web api() and a request that got no reply', () => {
  /** A server that drops the first `drops` connections (killed, restarting), then answers. */
  function droppingServer(drops: number, reply: () => Response) {
    const sent: { at: number; body: string }[] = [];
    globalThis.fetch = (async (_url: string, init: RequestInit) => {
      sent.push({ at: Date.now(), body: String(init.body) });
      if (sent.length <= drops) throw new TypeError('fetch failed');
      return reply();
    }) as unknown as typeof fetch;
    return sent;
  }

  it('resends a command with the same commandId after a moment', async () => {
    const sent = droppingServer(1, () => new Response(JSON.stringify({ version: 5, duplicate: true }), { status: 200 }));
    const r = await api<{ duplicate: boolean }>('POST', '/v1/games/g/commands', { commandId: 'web-2', command: { type: 'Roll' } });
    expect(r.duplicate).toBe(true);
    expect(sent).toHaveLength(2);
    expect(sent[1]!.body).toBe(sent[0]!.body);
    expect(sent[1]!.at - sent[0]!.at).toBeGreaterThanOrEqual(990);
  });

  it('does not resend a request without a commandId, and gives up after two resends', async () => {
    const once = droppingServer(1, () => new Response('{}', { status: 200 }));
    await expect(api('PUT', '/v1/me/settings', { emailOff: [] })).rejects.toMatchObject({ status: 0, code: 'network/unreachable' });
    expect(once).toHaveLength(1);
    const thrice = droppingServer(3, () => new Response('{}', { status: 200 }));
    await expect(api('GET', '/v1/me/games')).rejects.toMatchObject({ status: 0 });
    expect(thrice).toHaveLength(3);
  }, 10_000);
});
