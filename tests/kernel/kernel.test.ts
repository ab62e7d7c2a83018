import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  canSee,
  canonicalJson,
  hmacSha256,
  scriptedRng,
  seededRng,
  sha256,
  toHex,
  utf8,
  verifyLog,
  createRegistry,
  type EventEnvelope,
} from '../../domain/kernel/index.js';
import { diceRace } from '../fixtures/dice-race.js';
import { MemoryGame } from './play.js';

const SEED = 'ab'.repeat(32);
const engines = createRegistry([diceRace]);

function playToEnd(g: MemoryGame) {
  g.create({ target: 15 });
  g.join('alice', 'p1', 'alice-entropy');
  g.join('bob');
  for (let i = 0; i < 200 && g.state!.meta.status === 'active'; i++) {
    const seat = (g.state!.game as { seats: string[]; turn: number }).seats[(g.state!.game as { turn: number }).turn % 2]!;
    const r = g.play(seat === 'p1' ? 'alice' : 'bob', { type: i % 3 === 0 ? 'PlayCard' : 'Roll' });
    if (!r.ok) g.play(seat === 'p1' ? 'alice' : 'bob', { type: 'Roll' });
  }
  return g;
}

describe('sha256 and hmac', () => {
  it('match node:crypto on many lengths', () => {
    for (const len of [0, 1, 55, 56, 63, 64, 65, 119, 120, 1000]) {
      const data = utf8('x'.repeat(len));
      expect(toHex(sha256(data))).toBe(createHash('sha256').update(data).digest('hex'));
      expect(toHex(hmacSha256(utf8('k'.repeat(len % 100)), data))).toBe(
        createHmac('sha256', 'k'.repeat(len % 100))
          .update(data)
          .digest('hex'),
      );
    }
  });
});

describe('randomness', () => {
  it('is deterministic for a seed and counter, and differs with entropy', () => {
    const a = seededRng({ seed: SEED, gameId: 'g', entropy: ['x'], counter: 0 });
    const b = seededRng({ seed: SEED, gameId: 'g', entropy: ['x'], counter: 0 });
    const c = seededRng({ seed: SEED, gameId: 'g', entropy: ['y'], counter: 0 });
    const ra = Array.from({ length: 20 }, () => a.die(10));
    expect(Array.from({ length: 20 }, () => b.die(10))).toEqual(ra);
    expect(Array.from({ length: 20 }, () => c.die(10))).not.toEqual(ra);
    expect(a.counter).toBeGreaterThanOrEqual(20);
  });
  it('d10 is roughly uniform over 10 000 draws', () => {
    const r = seededRng({ seed: SEED, gameId: 'u', entropy: [], counter: 0 });
    const counts = new Array(10).fill(0);
    for (let i = 0; i < 10_000; i++) counts[r.die(10) - 1]++;
    for (const c of counts) {
      expect(c).toBeGreaterThan(900);
      expect(c).toBeLessThan(1100);
    }
  });
  it('shuffle is a permutation', () => {
    const r = seededRng({ seed: SEED, gameId: 'g', entropy: [], counter: 0 });
    const xs = Array.from({ length: 52 }, (_, i) => i);
    const s = r.shuffle(xs);
    expect(s).not.toEqual(xs);
    expect([...s].sort((p, q) => p - q)).toEqual(xs);
  });
  it('scripted dice replay a script and refuse out-of-range faces', () => {
    const r = scriptedRng([3, 10]);
    expect(r.die(10)).toBe(3);
    expect(() => r.die(6)).toThrow(/outside/);
  });
});

describe('canonical json', () => {
  it('sorts keys at every depth', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[1,{"y":2,"z":1}]},"b":1}');
  });
});

describe('visibility', () => {
  it('hides seat-only and hidden events from others until the end', () => {
    expect(canSee({ to: 'seats', seats: ['p1'] }, { kind: 'seat', seat: 'p2' }, false)).toBe(false);
    expect(canSee({ to: 'seats', seats: ['p1'] }, { kind: 'seat', seat: 'p1' }, false)).toBe(true);
    expect(canSee({ to: 'none' }, { kind: 'seat', seat: 'p1' }, false)).toBe(false);
    expect(canSee({ to: 'none' }, { kind: 'spectator' }, true)).toBe(true);
  });
});

describe('game lifecycle', () => {
  it('starts when the last seat joins and rejects acting for another seat', () => {
    const g = new MemoryGame(diceRace, SEED);
    g.create({});
    g.join('alice', 'p1');
    expect(g.state!.meta.status).toBe('open');
    const early = g.play('alice', { type: 'Roll' });
    expect(early.ok || early.error.code).toBe('game/not-started');
    g.join('bob');
    expect(g.state!.meta.status).toBe('active');
    const r = g.play('bob', { type: 'Roll' });
    expect(r.ok || r.error.code).toBe('action/inactive-player');
    const stranger = g.play('carol', { type: 'Roll' });
    expect(stranger.ok || stranger.error.code).toBe('action/not-seated');
    const bad = g.play('alice', { type: 'Fly' });
    expect(bad.ok || bad.error.code).toBe('command/malformed');
  });
  it('a seat cannot be taken twice or by someone it is not reserved for', () => {
    const g = new MemoryGame(diceRace, SEED);
    g.create({});
    g.join('alice', 'p1');
    const again = g.join('bob', 'p1');
    expect(again.ok || again.error.code).toBe('seat/taken');
    const twice = g.join('alice', 'p2');
    expect(twice.ok || twice.error.code).toBe('seat/already-joined');
  });
});

describe('verifier', () => {
  const g = playToEnd(new MemoryGame(diceRace, SEED));
  it('accepts an honest finished log', () => {
    expect(g.state!.meta.status).toBe('ended');
    const report = verifyLog(g.events, engines.get);
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.draws).toBeGreaterThan(40);
  });
  it('rejects a log with one byte changed anywhere', () => {
    const text = JSON.stringify(g.events);
    const positions = [text.indexOf('"die":') + 6, text.indexOf('"entropy":"') + 12, text.length - 200, 100];
    for (const p of positions) {
      const ch = text[p]!;
      const tampered = text.slice(0, p) + (ch === '1' ? '2' : ch === 'a' ? 'b' : ch === '2' ? '3' : '1') + text.slice(p + 1);
      let parsed: EventEnvelope[];
      try {
        parsed = JSON.parse(tampered);
      } catch {
        continue; // a byte change that breaks JSON is rejected by the reader already
      }
      expect(verifyLog(parsed, engines.get).ok).toBe(false);
    }
  });
  it('rejects a re-hashed log whose dice were rewritten', () => {
    // Even with a consistent hash chain, the dice must be those the seed gives.
    const rolled = g.events.findIndex((e) => e.type === 'Rolled');
    const forged = g.events.map((e) => ({ ...e }));
    const ev = forged[rolled]!;
    forged[rolled] = { ...ev, data: { ...(ev.data as object), die: ((ev.data as { die: number }).die % 6) + 1 } };
    // re-chain from the forged event on
    let prev = forged[rolled - 1]!.hash;
    for (let i = rolled; i < forged.length; i++) {
      const { hash: _h, ...rest } = { ...forged[i]!, prevHash: prev };
      const hash = envelopeHashOf(rest);
      forged[i] = { ...rest, hash };
      prev = hash;
    }
    const report = verifyLog(forged, engines.get);
    expect(report.ok).toBe(false);
    expect(report.problems.join()).toMatch(/differs|outcome/);
  });
});

import { envelopeHash } from '../../domain/kernel/index.js';
const envelopeHashOf = envelopeHash;

describe('verifier and rule versions', () => {
  it('names a rules-version mismatch instead of reporting a forgery', () => {
    const g = playToEnd(new MemoryGame(diceRace, SEED));
    const newer = { ...diceRace, version: diceRace.version + 1 };
    const report = verifyLog(g.events, (id) => (id === diceRace.id ? newer : undefined));
    expect(report.ok).toBe(false);
    expect(report.problems.join()).toMatch(/played under version 1 .* this verifier has version 2/);
  });
});
