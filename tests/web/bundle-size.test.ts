import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { WEB_DIST } from '../../functions/local/web-client.js';

/**
 * The budget: under 150 KB of compressed JavaScript for the first page. The first page loads
 * index.html's module script and whatever it preloads; every other page is a chunk of its own
 * (web/src/main.tsx). The build is made by the test run's global setup.
 */
const BUDGET = 150 * 1024;

describe('the web client build', () => {
  it('sends under 150 KB of gzip-compressed JavaScript for the first page', () => {
    const html = readFileSync(join(WEB_DIST, 'index.html'), 'utf8');
    const scripts = [...html.matchAll(/<(?:script[^>]*\bsrc|link[^>]*rel="modulepreload"[^>]*\bhref)="\/([^"]+\.js)"/g)].map((m) => m[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    const bytes = scripts.reduce((sum, f) => sum + gzipSync(readFileSync(join(WEB_DIST, f)), { level: 9 }).length, 0);
    expect(bytes).toBeLessThan(BUDGET);
    // The game page (the kernel's renderer, the engines' command lists) stays out of the first page.
    const first = scripts.map((f) => readFileSync(join(WEB_DIST, f), 'utf8')).join('\n');
    expect(first).not.toContain('data-piece');
  });

  it('loads no inline script, so the Content-Security-Policy can forbid them', () => {
    const html = readFileSync(join(WEB_DIST, 'index.html'), 'utf8');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/\sstyle=/);
  });
});
