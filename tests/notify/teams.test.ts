import { describe, expect, it } from 'vitest';
import { decideJoin, decidePlay, decideCreate, seedCommitment, summarize } from '../../domain/kernel/index.js';
import { decideNotices } from '../../functions/notify/decide.js';
import { webhookPayload } from '../../functions/notify/payloads.js';
import { renderNotice } from '../../functions/notify/render.js';
import { relayRaid } from '../fixtures/relay-raid.js';
import { MemoryGame } from '../kernel/play.js';

/** Team games in notices: a partner is called a partner, an opponent an opponent, in mail and webhooks alike. */
const SEED = '3d'.repeat(32);
const PLAYERS = { n1: 'ann', s1: 'sam', n2: 'ned', s2: 'sue' } as const;

function raid(): MemoryGame {
  const g = new MemoryGame(relayRaid, SEED, 'g-team');
  g.append(decideCreate(relayRaid, { gameId: 'g-team', options: {}, createdBy: 'ann', commitment: seedCommitment(SEED) }), 'ann');
  for (const [seat, player] of Object.entries(PLAYERS)) g.append(decideJoin(relayRaid, g.state!, { player, seat }, SEED), player);
  return g;
}

describe('notices in a team game', () => {
  it('name partners and opponents apart, in the mail text and the JSON webhook', () => {
    const g = raid();
    const before = summarize(relayRaid, g.state!);
    g.append(decidePlay(relayRaid, g.state!, { player: 'ann', command: { type: 'Hold' }, now: '2026-01-01T00:00:00.000Z' }, SEED), 'ann');
    const turn = decideNotices(before, summarize(relayRaid, g.state!)).find((n) => n.kind === 'turn')!;
    expect(turn).toMatchObject({ player: 'sam', seats: ['s1'] });
    expect(turn.partners).toEqual([{ seat: 's2', name: 'South 2', player: 'sue' }]);
    expect(turn.opponents.map((o) => o.player)).toEqual(['ann', 'ned']);
    const words = renderNotice(turn, 'https://fieldpost.example.org');
    expect(words.headline).toContain('against ann (North 1) and ned (North 2), with your partner sue (South 2)');
    const json = webhookPayload('json', turn, words, 'd1') as { partners?: unknown; opponents: unknown[] };
    expect(json.partners).toEqual(turn.partners);
    expect(json.opponents).toHaveLength(2);
  });

  it('a game without teams has opponents only', () => {
    const g = raid();
    const started = decideNotices(undefined, summarize(relayRaid, g.state!));
    expect(started.every((n) => n.partners !== undefined)).toBe(true);
    const duel = { ...summarize(relayRaid, g.state!), seats: summarize(relayRaid, g.state!).seats.map((s) => ({ ...s, side: s.id })) };
    for (const n of decideNotices(undefined, duel)) {
      expect(n.partners).toBeUndefined();
      expect(n.opponents).toHaveLength(3);
    }
  });
});
