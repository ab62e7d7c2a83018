import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fromWireImage } from '../../functions/projections/stream-image.js';
import { runScript } from '../support/run-script.js';

/** Strings from outside (stream images, command-line words) that name Object's own members stay plain keys or unknown names. */
describe("keys named after Object's own members", () => {
  it('a stream image map keeps "__proto__" and "constructor" as own keys', () => {
    const image = JSON.parse('{"recent":{"M":{"__proto__":{"M":{"from":{"N":"1"}}},"constructor":{"N":"2"}}}}') as Record<string, unknown>;
    const out = fromWireImage(image) as { recent: Record<string, unknown> };
    expect(Object.keys(out.recent)).toEqual(['__proto__', 'constructor']);
    expect(Object.getPrototypeOf(out.recent)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(out.recent, '__proto__')?.value).toEqual({ from: 1 });
  });

  it('the terminal client calls "constructor" or "__proto__" an unknown command', async () => {
    const home = mkdtempSync(join(tmpdir(), 'fieldpost-keys-'));
    try {
      for (const word of ['constructor', '__proto__', 'toString']) {
        const r = await runScript('functions/cli/main.ts', [word], { FIELDPOST_HOME: home, FIELDPOST_URL: '' });
        expect([word, r.code, r.err.split('\n')[0]]).toEqual([word, 2, `unknown command "${word}"`]);
      }
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  }, 60_000);
});
