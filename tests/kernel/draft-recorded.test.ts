import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { MAX_DRAFT_STEPS, verifyLog, type AnyEngine } from '../../domain/kernel/index.js';
import { spearpoint } from '../../domain/spearpoint/index.js';
import { sealedBid } from '../fixtures/sealed-bid.js';
import { MemoryGame } from './play.js';

/**
 * A sealed draft is recorded as the one command it became, and the verifier reads that command
 * back with the engine's command schema. So the kernel must never record a sealed command the
 * schema refuses: the log would be written, and then fail its audit. An engine whose sealing
 * command takes fewer steps than a draft may hold has that mismatch; this fixture variant makes
 * it small (a seal of at most one bid, drafts of up to three).
 */
const bid = z.object({ type: z.literal('Bid'), amount: z.number().int().min(1).max(9) }).strict();
const tight = {
  ...sealedBid,
  id: 'sealed-bid-tight',
  commandSchema: z.discriminatedUnion('type', [
    bid,
    z.object({ type: z.literal('Peek') }).strict(),
    z.object({ type: z.literal('Shout') }).strict(),
    z.object({ type: z.literal('Seal'), bids: z.array(bid).max(1).optional() }).strict(),
    z.object({ type: z.literal('Concede') }).strict(),
  ]),
} as unknown as AnyEngine;

function started(): MemoryGame {
  const g = new MemoryGame(tight, 'ef'.repeat(32));
  g.create({});
  g.join('alice', 'a');
  g.join('bob', 'b');
  return g;
}

describe('a sealed draft is recorded only as a command the engine reads back', () => {
  it('refuses a draft whose sealed command the schema refuses, writing nothing', () => {
    const g = started();
    const before = g.events.length;
    const r = g.play('alice', { type: 'Seal' }, [
      { type: 'Bid', amount: 5 },
      { type: 'Bid', amount: 9 },
    ]);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error.code).toBe('command/malformed');
    expect(!r.ok && r.error.message).toMatch(/Seal/);
    expect(g.events.length).toBe(before);
  });

  it('records a draft that fits, and the log verifies', () => {
    const g = started();
    expect(g.play('alice', { type: 'Seal' }, [{ type: 'Bid', amount: 9 }]).ok).toBe(true);
    expect(g.play('bob', { type: 'Seal' }, [{ type: 'Bid', amount: 5 }]).ok).toBe(true);
    expect(g.play('alice', { type: 'Concede' }).ok).toBe(true);
    expect(g.play('bob', { type: 'Concede' }).ok).toBe(true);
    expect(g.state!.meta.status).toBe('ended');
    const report = verifyLog(g.events, (id) => (id === tight.id ? tight : undefined));
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
  });

  it('Spearpoint: SealOrder takes as many steps as a draft may hold, and no more', () => {
    const steps = (n: number) => Array.from({ length: n }, () => ({ type: 'MoveLine', unit: 'u', line: 'front' }));
    expect(spearpoint.commandSchema.safeParse(spearpoint.drafts!.seal({ type: 'SealOrder' }, steps(MAX_DRAFT_STEPS) as never)).success).toBe(true);
    expect(spearpoint.commandSchema.safeParse({ type: 'SealOrder', steps: steps(MAX_DRAFT_STEPS + 1) }).success).toBe(false);
  });
});
