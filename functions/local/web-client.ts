import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, resolve, sep } from 'node:path';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

/**
 * The web client (web/) on the local runtime: `npm start` builds it with Vite when its build
 * is missing or older than its sources, and serves web/dist at / beside the API, as
 * CloudFront does in AWS (infra/web.ts), with the same security headers.
 */

export const WEB_DIR = resolve(import.meta.dirname, '../../web');
export const WEB_DIST = join(WEB_DIR, 'dist');

/** The Content-Security-Policy of the web client's pages: only its own scripts, styles and API. */
export const contentSecurityPolicy = (connect: readonly string[] = []): string =>
  [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' blob: data:",
    `connect-src 'self'${connect.map((c) => ` ${c}`).join('')}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');

const newest = (path: string): number => {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(st.mtimeMs, ...readdirSync(path).map((f) => newest(join(path, f))));
};

/** Whether web/dist is missing or older than any source of the web client (or the code it imports from domain/ and functions/). */
export function webBuildStale(): boolean {
  const built = join(WEB_DIST, 'index.html');
  if (!existsSync(built)) return true;
  const sources = [
    join(WEB_DIR, 'src'),
    join(WEB_DIR, 'index.html'),
    join(WEB_DIR, 'vite.config.ts'),
    resolve(WEB_DIR, '../domain'),
    resolve(WEB_DIR, '../functions/cli'),
  ];
  return Math.max(...sources.filter(existsSync).map(newest)) > statSync(built).mtimeMs;
}

/** Builds web/ into web/dist with Vite (a second or two), unless the build is up to date. */
export async function ensureWebBuild(log: (line: string) => void = () => {}): Promise<void> {
  if (!webBuildStale()) return;
  log('Building the web client (web/ → web/dist) ...');
  const { build } = await import('vite');
  await build({ configFile: join(WEB_DIR, 'vite.config.ts'), logLevel: 'warn' });
}

const TYPES = new Map([
  ['.html', 'text/html; charset=utf-8'],
  ['.js', 'text/javascript; charset=utf-8'],
  ['.css', 'text/css; charset=utf-8'],
  ['.svg', 'image/svg+xml'],
  ['.json', 'application/json; charset=utf-8'],
  ['.png', 'image/png'],
  ['.ico', 'image/x-icon'],
]);

/** The addresses the app answers itself (main.tsx): each is the app's index.html. */
const APP_PAGES = /^\/(?:|new|settings|clubs|auth\/callback|games\/[A-Za-z0-9_-]{1,100})$/;

export function securityHeaders(): Record<string, string> {
  return {
    'content-security-policy': contentSecurityPolicy(),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'x-frame-options': 'DENY',
  };
}

/**
 * GET answers for the web client's files under `root`: /config.json (local sign-in), the
 * hashed assets (cached for a year), and index.html for every page of the app. Undefined for
 * anything else, which goes on to the API.
 */
export function webClientHandler(root: string = WEB_DIST): (method: string, path: string) => APIGatewayProxyStructuredResultV2 | undefined {
  const base = resolve(root);
  const file = (rel: string, cache: string): APIGatewayProxyStructuredResultV2 | undefined => {
    const full = resolve(base, rel);
    if (!full.startsWith(base + sep) || !existsSync(full) || !statSync(full).isFile()) return undefined;
    return {
      statusCode: 200,
      headers: { 'content-type': TYPES.get(extname(full)) ?? 'application/octet-stream', 'cache-control': cache, ...securityHeaders() },
      body: readFileSync(full).toString('base64'),
      isBase64Encoded: true,
    };
  };
  return (method, path) => {
    if (method !== 'GET' && method !== 'HEAD') return undefined;
    if (path === '/config.json')
      return {
        statusCode: 200,
        headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
        body: JSON.stringify({ auth: 'local' }),
      };
    if (path.startsWith('/assets/')) return file(path.slice(1), 'public, max-age=31536000, immutable');
    if (APP_PAGES.test(path)) return file('index.html', 'no-cache');
    return undefined;
  };
}
