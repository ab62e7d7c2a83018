import { canonicalJson } from './canonical.js';
import { fromHex, hmacSha256, sha256Hex, utf8 } from './sha256.js';
import { InvariantError } from './errors.js';

/**
 * The only source of chance an engine ever sees. `decide` draws from it and writes the
 * results into its events, so `evolve` and replay never need randomness.
 */
export interface Rng {
  /** Uniform integer in [0, n). */
  int(n: number): number;
  /** One die: 1..sides. */
  die(sides: number): number;
  /** A new array, Fisher-Yates shuffled. */
  shuffle<T>(items: readonly T[]): T[];
  /** How many derivation blocks have been used so far (the next draw uses this index). */
  readonly counter: number;
}

export interface SeedInput {
  /** Secret server seed, hex; revealed when the game ends. */
  readonly seed: string;
  readonly gameId: string;
  /** Entropy each seat added when it joined, in seat order ('' where none). */
  readonly entropy: readonly string[];
  /** First unused derivation index. */
  readonly counter: number;
}

/** SHA-256 of the seed, hex: the public commitment written into the first event. */
export const seedCommitment = (seedHex: string): string => sha256Hex(seedHex);

export const entropyDigest = (entropy: readonly string[]): string => sha256Hex(canonicalJson(entropy));

/**
 * Draw k is HMAC-SHA256(seed, "gameId|entropyDigest|k"); its first four bytes, read
 * big-endian, give an unsigned 32-bit value, turned into a uniform integer below n by
 * rejection (a value at or above the largest multiple of n is discarded and the next
 * index used). Anyone holding the revealed seed can recompute every draw.
 */
export function deriveUint32(seedHex: string, gameId: string, digest: string, k: number): number {
  const block = hmacSha256(fromHex(seedHex), utf8(`${gameId}|${digest}|${k}`));
  return ((block[0]! << 24) | (block[1]! << 16) | (block[2]! << 8) | block[3]!) >>> 0;
}

export function seededRng(input: SeedInput): Rng {
  const digest = entropyDigest(input.entropy);
  let counter = input.counter;
  const int = (n: number): number => {
    if (!Number.isInteger(n) || n < 1 || n > 0xffffffff) throw new InvariantError(`bad range ${n}`);
    const limit = Math.floor(0x100000000 / n) * n;
    for (;;) {
      const x = deriveUint32(input.seed, input.gameId, digest, counter++);
      if (x < limit) return x % n;
    }
  };
  return withHelpers(int, () => counter);
}

function withHelpers(int: (n: number) => number, counter: () => number): Rng {
  return {
    int,
    die: (sides) => int(sides) + 1,
    shuffle<T>(items: readonly T[]): T[] {
      const out = items.slice();
      for (let i = out.length - 1; i > 0; i--) {
        const j = int(i + 1);
        [out[i], out[j]] = [out[j]!, out[i]!];
      }
      return out;
    },
    get counter() {
      return counter();
    },
  };
}

/**
 * A scripted source for tests: `die(s)` returns the next scripted face (1..s) and
 * `int(n)` the next scripted value (0..n-1). Shuffles keep the order given unless
 * `shuffleWith` is set, and consume nothing. Running out of script is a test error.
 */
export function scriptedRng(script: readonly number[], shuffleWith?: <T>(items: readonly T[]) => T[]): Rng {
  let i = 0;
  const next = (lo: number, hi: number): number => {
    const v = script[i++];
    if (v === undefined) throw new InvariantError(`scripted dice ran out after ${i - 1} draws`);
    if (v < lo || v > hi) throw new InvariantError(`scripted value ${v} outside ${lo}..${hi}`);
    return v;
  };
  return {
    int: (n) => next(0, n - 1),
    die: (sides) => next(1, sides),
    shuffle: (items) => (shuffleWith ? shuffleWith(items) : items.slice()),
    get counter() {
      return i;
    },
  };
}
