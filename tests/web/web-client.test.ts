import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { contentSecurityPolicy, webClientHandler } from '../../functions/local/web-client.js';

/** The local runtime's file server for the web client (what CloudFront and S3 do in AWS). */
const base = mkdtempSync(join(tmpdir(), 'fieldpost-web-'));
const root = join(base, 'dist');
mkdirSync(join(root, 'assets'), { recursive: true });
writeFileSync(join(root, 'index.html'), '<!doctype html><title>Fieldpost</title>');
writeFileSync(join(root, 'assets', 'index-abc.js'), 'console.log(1)');
writeFileSync(join(base, 'outside-the-root.txt'), 'secret');
const serve = webClientHandler(root);
afterAll(() => rmSync(base, { recursive: true, force: true }));
const body = (r: ReturnType<typeof serve>) => Buffer.from(r!.body!, 'base64').toString('utf8');

describe('the web client on the local runtime', () => {
  it.each(['/', '/new', '/settings', '/clubs', '/auth/callback', '/games/AbC_12-x'])('answers the app page %s with index.html, never cached', (path) => {
    const r = serve('GET', path);
    expect(r?.statusCode).toBe(200);
    expect(body(r)).toContain('<title>Fieldpost</title>');
    expect(r!.headers).toMatchObject({ 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' });
  });

  it('sends the Content-Security-Policy and the other security headers with every file', () => {
    for (const path of ['/', '/assets/index-abc.js']) {
      expect(serve('GET', path)!.headers).toMatchObject({
        'content-security-policy': contentSecurityPolicy(),
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'DENY',
      });
    }
    expect(contentSecurityPolicy()).toContain("script-src 'self';");
    expect(contentSecurityPolicy()).not.toContain('unsafe');
    expect(contentSecurityPolicy(['https://x.auth.eu-west-1.amazoncognito.com'])).toContain("connect-src 'self' https://x.auth.eu-west-1.amazoncognito.com;");
  });

  it('serves the hashed assets with their type, cached for a year', () => {
    const r = serve('GET', '/assets/index-abc.js');
    expect(body(r)).toBe('console.log(1)');
    expect(r!.headers).toMatchObject({ 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=31536000, immutable' });
  });

  it('tells the page to sign in locally', () => {
    expect(JSON.parse(serve('GET', '/config.json')!.body!)).toEqual({ auth: 'local' });
  });

  it('leaves everything else to the API: /v1 routes, other methods, unknown pages, missing files, paths out of its folder', () => {
    for (const path of [
      '/v1/games',
      '/games/a/b',
      '/games/' + 'x'.repeat(101),
      '/__proto__',
      '/assets/missing.js',
      '/assets/../../outside-the-root.txt',
      '/assets/',
    ]) {
      expect(serve('GET', path), path).toBeUndefined();
    }
    expect(serve('POST', '/')).toBeUndefined();
    expect(serve('DELETE', '/assets/index-abc.js')).toBeUndefined();
  });
});
