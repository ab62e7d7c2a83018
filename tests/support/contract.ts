import type { Checker, Doc } from './contract-checker.js';

/**
 * Every reply a test receives from a local Fieldpost API (http://127.0.0.1:<port>/v1/...) is
 * checked against that server's own GET /v1/openapi.json (contract-checker.ts). A mismatch rejects
 * the fetch, so the test that made the request fails, with the operation, status and what did not
 * match. Loaded for every test file (vitest setupFiles): end-to-end tests need do nothing to be
 * checked, and a file that asks no local API never loads the checker and its JSON Schema validator.
 */

const LOCAL = /^http:\/\/127\.0\.0\.1:\d+$/;
const checkers = new Map<string, Promise<Checker>>();
const realFetch = globalThis.fetch;

async function checkerFor(origin: string): Promise<Checker> {
  let c = checkers.get(origin);
  if (!c) {
    c = Promise.all([realFetch(`${origin}/v1/openapi.json`), import('./contract-checker.js')]).then(async ([r, { contractChecker }]) =>
      contractChecker((await r.json()) as Doc),
    );
    checkers.set(origin, c);
    // A server that is gone (a test that stopped its runtime) leaves nothing cached for the next one on that port.
    c.catch(() => checkers.delete(origin));
  }
  return c;
}

globalThis.fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
  const res = await realFetch(input, init);
  const url = new URL(input instanceof Request ? input.url : String(input));
  if (!LOCAL.test(url.origin) || !url.pathname.startsWith('/v1/') || url.pathname === '/v1/openapi.json') return res;
  const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
  const text = await res.clone().text();
  const problem = (await checkerFor(url.origin)).check(method, url.pathname, res.status, res.headers.get('content-type') ?? '', text);
  if (problem) throw new Error(`The reply breaks the API document: ${problem}\n${text.slice(0, 500)}`);
  return res;
};
