import { describe, expect, it } from 'vitest';
import {
  canSee,
  createRegistry,
  decideDraft,
  draftRoles,
  MAX_DRAFT_STEPS,
  sealDraft,
  verifyLog,
  type EventEnvelope,
  type GameState,
} from '../../domain/kernel/index.js';
import { diceRace } from '../fixtures/dice-race.js';
import { sealedBid } from '../fixtures/sealed-bid.js';
import { MemoryGame } from './play.js';

/**
 * Private drafts of sealed orders (kernel/draft.ts): a draft is tried on a scratch copy and
 * never stored; a step that rolls dice or shows anything to another seat is refused; the
 * sealing command carries the draft and is recorded as the one command it became.
 */
const SEED = 'cd'.repeat(32);
const NOW = '2026-01-01T00:00:00.000Z';

function started(): MemoryGame {
  const g = new MemoryGame(sealedBid, SEED);
  g.create({});
  g.join('alice', 'a');
  g.join('bob', 'b');
  return g;
}
const draft = (g: MemoryGame, steps: unknown[], player = 'alice') => decideDraft(sealedBid, g.state!, { player, steps, now: NOW });
const bids = (...amounts: number[]) => amounts.map((amount) => ({ type: 'Bid', amount }));
const publicOf = (events: EventEnvelope[], seat: string) => events.filter((e) => canSee(e.visibility, { kind: 'seat', seat }, false));

describe('decideDraft', () => {
  it('applies the steps to a scratch copy and leaves the game as it was', () => {
    const g = started();
    const before = structuredClone(g.state);
    const r = draft(g, bids(5, 9));
    expect(r.ok && r.value.seat).toBe('a');
    expect(r.ok && (r.value.game as { open: Record<string, number[]> }).open.a).toEqual([5, 9]);
    expect(r.ok && r.value.steps).toEqual(bids(5, 9));
    expect(g.state).toEqual(before);
  });

  it('judges each step after the ones before it, and names the step that fails', () => {
    const r = draft(started(), bids(1, 1, 1, 1));
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error.code).toBe('order/full');
    expect(!r.ok && r.error.message).toMatch(/^Step 4 \(Bid\): /);
  });

  it('refuses a step that rolls dice, before any die is drawn', () => {
    const g = started();
    const r = draft(g, [...bids(5), { type: 'Peek' }]);
    expect(!r.ok && r.error.code).toBe('draft/not-private');
    expect(!r.ok && r.error.message).toMatch(/^Step 2 \(Peek\): .*rolls dice/);
    expect(g.state!.meta.rngCounter).toBe(0);
  });

  it('refuses a step another seat would see', () => {
    const r = draft(started(), [{ type: 'Shout' }]);
    expect(!r.ok && r.error.code).toBe('draft/not-private');
    expect(!r.ok && r.error.message).toMatch(/seen by others/);
  });

  it('refuses commands that are not steps, malformed steps, and overlong drafts', () => {
    const g = started();
    const notStep = draft(g, [{ type: 'Seal' }]);
    expect(!notStep.ok && notStep.error.code).toBe('draft/not-a-step');
    const malformed = draft(g, [...bids(5), { type: 'Bid', amount: 'lots' }]);
    expect(!malformed.ok && malformed.error.code).toBe('command/malformed');
    expect(!malformed.ok && malformed.error.message).toMatch(/^Step 2 \(Bid\)/);
    const long = draft(g, bids(...Array.from({ length: MAX_DRAFT_STEPS + 1 }, () => 1)));
    expect(!long.ok && long.error.code).toBe('command/malformed');
  });

  it('is only for a seated player of a running game, of an engine with drafts', () => {
    const g = started();
    const stranger = draft(g, bids(5), 'mallory');
    expect(!stranger.ok && stranger.error.code).toBe('action/not-seated');
    const open = new MemoryGame(sealedBid, SEED);
    open.create({});
    expect(((r) => !r.ok && r.error.code)(decideDraft(sealedBid, open.state!, { player: 'alice', steps: [], now: NOW }))).toBe('game/not-started');
    const dice = new MemoryGame(diceRace, SEED);
    dice.create({ target: 15 });
    dice.join('alice');
    dice.join('bob');
    const r = decideDraft(diceRace, dice.state!, { player: 'alice', steps: [{ type: 'Roll' }], now: NOW });
    expect(!r.ok && r.error.code).toBe('draft/unsupported');
  });
});

describe('sealing a draft', () => {
  it('records the one command the draft became; the other seat sees only that a seal happened', () => {
    const g = started();
    const sealed = g.play('alice', { type: 'Seal' }, bids(5, 9));
    expect(sealed.ok).toBe(true);
    const events = sealed.ok ? sealed.value : [];
    const accepted = events.find((e) => e.type === 'Game.CommandAccepted')!;
    expect((accepted.data as { command: unknown }).command).toEqual({ type: 'Seal', bids: bids(5, 9) });
    expect(publicOf(events, 'b')).toEqual([]);
    expect(publicOf(events, 'a').map((e) => e.type)).toEqual(['Game.CommandAccepted', 'OrderSealed']);
  });

  it('a draft of one step and a draft of three leave the same trace for the other seat', () => {
    const traces = [bids(9), bids(1, 1, 1)].map((steps) => {
      const g = started();
      g.play('bob', { type: 'Seal' }, bids(5));
      const r = g.play('alice', { type: 'Seal' }, steps);
      return publicOf(r.ok ? r.value : [], 'b').map((e) => e.type);
    });
    expect(traces[0]).toEqual(['RoundScored']);
    expect(traces[1]).toEqual(traces[0]);
  });

  it('a whole game sealed from drafts verifies', () => {
    const g = started();
    for (let round = 0; round < 3; round++) {
      expect(g.play('alice', { type: 'Seal' }, bids(round + 1, 2)).ok).toBe(true);
      expect(g.play('bob', { type: 'Seal' }, bids(9)).ok).toBe(true);
    }
    expect(g.state!.meta.status).toBe('ended');
    const report = verifyLog(g.events, createRegistry([sealedBid]).get);
    expect(report.ok).toBe(true);
  });

  it('only a sealing command carries a draft, and the draft must hold steps only', () => {
    expect(((r) => !r.ok && r.error.code)(sealDraft(sealedBid, { type: 'Concede' }, bids(5)))).toBe('draft/not-a-seal');
    expect(((r) => !r.ok && r.error.code)(sealDraft(sealedBid, { type: 'Seal', bids: bids(1) } as never, bids(5)))).toBe('draft/not-a-seal');
    expect(((r) => !r.ok && r.error.code)(sealDraft(sealedBid, { type: 'Seal' }, [{ type: 'Concede' }]))).toBe('draft/not-a-step');
    const g = started();
    const version = g.state!.meta.version;
    const r = g.play('alice', { type: 'Concede' }, bids(5));
    expect(!r.ok && r.error.code).toBe('draft/not-a-seal');
    expect(g.state!.meta.version).toBe(version);
  });

  it('the sealing command still judges the draft: an illegal draft seals nothing', () => {
    const g = started();
    const r = g.play('alice', { type: 'Seal' }, bids(1, 1, 1, 1));
    expect(!r.ok && r.error.code).toBe('order/full');
  });
});

describe('draftRoles', () => {
  it('marks the legal commands that add a step and those that seal', () => {
    const g = started();
    const legal = sealedBid.legalCommands((g.state as GameState<never>).game, 'a');
    const roles = draftRoles(sealedBid, legal);
    expect(roles.steps.map((i) => legal[i]!.type)).toEqual(['Bid', 'Bid', 'Bid', 'Peek', 'Shout']);
    expect(roles.seals.map((i) => legal[i]!.type)).toEqual(['Seal']);
    expect(draftRoles(diceRace, [{ type: 'Roll' }])).toEqual({ steps: [], seals: [] });
  });
});
