import { readdirSync, readFileSync } from 'node:fs';
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

  it('keeps every page under the budget too, with the chunks it imports (the game page is the largest)', () => {
    const chunk = (f: string) => readFileSync(join(WEB_DIST, 'assets', f), 'utf8');
    /** A chunk and every chunk it imports statically (Vite writes them as from"./x.js"). */
    const closure = (f: string, seen = new Set<string>()): Set<string> => {
      if (seen.has(f)) return seen;
      seen.add(f);
      for (const m of chunk(f).matchAll(/(?:from|import)\s*"\.\/([\w.-]+\.js)"/g)) closure(m[1]!, seen);
      return seen;
    };
    const files = readdirSync(join(WEB_DIST, 'assets'));
    const page = (name: string) => files.find((f) => f.startsWith(`${name}-`) && f.endsWith('.js'))!;
    for (const name of ['games', 'new-game', 'game', 'settings', 'clubs']) {
      expect(page(name), name).toBeDefined();
      const bytes = [...closure(page(name))].reduce((sum, f) => sum + gzipSync(chunk(f), { level: 9 }).length, 0);
      expect(bytes, name).toBeLessThan(BUDGET);
    }
  });

  it('loads no inline script, so the Content-Security-Policy can forbid them', () => {
    const html = readFileSync(join(WEB_DIST, 'index.html'), 'utf8');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/\sstyle=/);
  });
});
