import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { sha256, sha256Js, toHex } from '../../domain/kernel/index.js';
import '../../functions/app/adapters.js';

/** Every algorithm node:crypto's createHash or one-shot hash is asked for: the adapters must route the kernel's hashing through it. */
const hashedWith = vi.hoisted(() => [] as string[]);
vi.mock('node:crypto', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:crypto')>();
  return {
    ...real,
    createHash: (algorithm: string) => {
      hashedWith.push(algorithm);
      return real.createHash(algorithm);
    },
    hash: (algorithm: string, data: Uint8Array, encoding: 'buffer') => {
      hashedWith.push(algorithm);
      return real.hash(algorithm, data, encoding);
    },
  };
});

describe('the kernel hashes with node:crypto on the server (issue 16)', () => {
  it('the injected SHA-256 gives the same digests as the plain TypeScript one, on every length around a block', () => {
    for (let len = 0; len < 200; len++) {
      const data = randomBytes(len);
      expect(toHex(sha256(data))).toBe(toHex(sha256Js(data)));
      expect(toHex(sha256(data))).toBe(createHash('sha256').update(data).digest('hex'));
    }
  });

  it('once the service adapters are loaded, the kernel hashes through node:crypto (the speed-up is measured by npm run bench)', () => {
    const before = hashedWith.length;
    sha256(randomBytes(300));
    expect(hashedWith.slice(before)).toEqual(['sha256']);
    sha256Js(randomBytes(300));
    expect(hashedWith.slice(before)).toEqual(['sha256']);
  });
});
