import { createHash, randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { sha256, sha256Js, toHex } from '../../domain/kernel/index.js';
import { nodeSha256 } from '../../functions/app/adapters.js';

describe('the kernel hashes with node:crypto on the server (issue 16)', () => {
  it('the injected SHA-256 gives the same digests as the plain TypeScript one, on every length around a block', () => {
    for (let len = 0; len < 200; len++) {
      const data = randomBytes(len);
      expect(toHex(sha256(data))).toBe(toHex(sha256Js(data)));
      expect(toHex(sha256(data))).toBe(createHash('sha256').update(data).digest('hex'));
    }
  });

  it('once the service adapters are loaded, the kernel uses it: hashing is several times faster than the plain one', () => {
    const data = randomBytes(300);
    const time = (f: (d: Uint8Array) => Uint8Array) => {
      const t0 = performance.now();
      for (let i = 0; i < 3000; i++) f(data);
      return performance.now() - t0;
    };
    time(sha256Js);
    time(sha256);
    expect(time(sha256)).toBeLessThan(time(sha256Js) / 2);
    expect(time(nodeSha256)).toBeLessThan(time(sha256Js) / 2);
  });
});
