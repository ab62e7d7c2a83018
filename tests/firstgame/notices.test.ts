import { describe, expect, it } from 'vitest';
import { summarize, type GameSummary } from '../../domain/kernel/index.js';
import { nextStepFor } from '../../functions/app/game-service.js';
import { decideNotices, WEBHOOK_EVENT_TYPES } from '../../functions/notify/decide.js';
import { webhookPayload } from '../../functions/notify/payloads.js';
import { renderNotice } from '../../functions/notify/render.js';
import { signedRequest } from '../../functions/notify/webhook.js';
import { newWebhookSecret } from '../../functions/notify/signature.js';
import { projectGame, projectSequence } from '../../functions/projections/project.js';
import { turnIsStale } from '../../functions/notify/wiring.js';
import { diceRace } from '../fixtures/dice-race.js';
import { sealedBid } from '../fixtures/sealed-bid.js';
import { MemoryGame } from '../kernel/play.js';

/**
 * Issue 9, "The first game (tried as a new user would)": what the server says to the players,
 * in command replies, read models, mails and webhooks.
 */
const SEED = '5c'.repeat(32);

/** A sealed-bid game (a: alice, b: bob) with the summary after each append. */
function sealedGame() {
  const g = new MemoryGame(sealedBid, SEED, 'sb-1');
  const summaries: GameSummary[] = [];
  const snap = () => summaries.push(summarize(sealedBid, g.state!));
  g.create({}, 'alice');
  snap();
  g.join('alice', 'a');
  snap();
  g.join('bob', 'b');
  snap();
  return { g, summaries, snap };
}

describe('a command that opens a phase where its sender must act again', () => {
  it('the sender whose seal closed the round is told "your move" again, with the other seat', async () => {
    const { g, summaries, snap } = sealedGame();
    expect(g.play('alice', { type: 'Seal', bids: [{ type: 'Bid', amount: 3 }] }).ok).toBe(true);
    snap();
    // Only bob is asked now; alice sealed and waits.
    expect(summaries.at(-1)!.pending.map((p) => p.seat)).toEqual(['b']);
    expect(g.play('bob', { type: 'Seal', bids: [{ type: 'Bid', amount: 5 }] }).ok).toBe(true);
    snap();
    const [old, next] = summaries.slice(-2) as [GameSummary, GameSummary];
    // Round 2 asks the same prompt of both: bob was asked before too, but this is a new round.
    const turns = decideNotices(old, next).filter((n) => n.kind === 'turn');
    expect(turns.map((n) => n.player).sort()).toEqual(['alice', 'bob']);
    // The inbox agrees (since-when starts again), so the notifier does not drop bob's as stale.
    const before = projectSequence(summaries.slice(0, -1))!;
    const after = projectGame(before.summary, next);
    expect(after.summary.pendingSince['b']).toEqual({ at: next.updatedAt, version: next.version });
    const stale = turnIsStale({ getSummary: async () => after.summary });
    for (const n of turns) expect(await stale(n)).toBe(false);
  });

  it('one step of an order that leaves its sender asked the same thing tells nobody', () => {
    const { g, summaries, snap } = sealedGame();
    expect(g.play('alice', { type: 'Bid', amount: 2 }).ok).toBe(true);
    snap();
    expect(decideNotices(summaries.at(-2), summaries.at(-1)!)).toEqual([]);
  });

  it('the reply to a command says what its sender must do next, or whom the game waits for', () => {
    const { g, summaries, snap } = sealedGame();
    g.play('alice', { type: 'Seal', bids: [] });
    snap();
    const alice = nextStepFor(summaries.at(-1)!, 'alice');
    expect(alice.yours).toEqual([]);
    expect(alice.text).toBe('Nothing: waiting for Seat b (bob).');
    g.play('bob', { type: 'Seal', bids: [] });
    snap();
    const bob = nextStepFor(summaries.at(-1)!, 'bob');
    expect(bob.yours).toEqual([expect.objectContaining({ seat: 'b', prompt: 'Bid, then seal' })]);
    expect(bob.text).toBe('Your move as Seat b: Bid, then seal');
  });
});

describe('the webhook vocabulary', () => {
  it('a game that starts sends game.started to every seat, with what it asks of the first mover', () => {
    const g = new MemoryGame(diceRace, SEED, 'dr-1');
    g.create({ seats: 2 }, 'alice');
    g.join('alice', 'p1');
    const old = summarize(diceRace, g.state!);
    g.join('bob', 'p2');
    const next = summarize(diceRace, g.state!);
    const notices = decideNotices(old, next);
    expect(notices.map((n) => n.kind)).toEqual(['started', 'started']);
    const first = notices.find((n) => n.player === next.pending[0]!.player)!;
    expect(first.asked).toHaveLength(1);
    expect(renderNotice(first, 'http://x').subject).toMatch(/has started: your move against/);
    for (const n of notices) {
      const payload = webhookPayload('json', n, renderNotice(n, 'http://x'), 'dlv_1') as { type: string };
      expect(payload.type).toBe('game.started');
      expect(JSON.parse(signedRequest(payload, { secrets: [newWebhookSecret()], deliveryId: 'dlv_1', nowSeconds: 1 }).body).type).toBe('game.started');
    }
    expect(WEBHOOK_EVENT_TYPES).toEqual(['game.turn', 'game.started', 'game.ended', 'game.invited', 'game.reminder', 'tournament.notice']);
  });
});
