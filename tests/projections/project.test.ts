import { describe, expect, it } from 'vitest';
import { foldAll, summarize, type GameSummary } from '../../domain/kernel/index.js';
import { projectFrom, projectGame, projectSequence } from '../../functions/projections/project.js';
import { appendsOf, summariesFromEvents } from '../../functions/projections/rebuild.js';
import { headChange } from '../../functions/projections/stream-image.js';
import { diceRace } from '../fixtures/dice-race.js';
import { MemoryGame } from '../kernel/play.js';
import { wire } from './wire.js';

const SEED = 'cd'.repeat(32);
const turnOf = (g: MemoryGame) => {
  const s = g.state!.game as { seats: string[]; turn: number };
  return s.seats[s.turn % s.seats.length]!;
};
const playerOf = (seat: string) => (seat === 'p1' ? 'alice' : 'bob');

/** Summaries after each append, the way the store writes them on HEAD. */
function played(moves: number, target = 20) {
  const g = new MemoryGame(diceRace, SEED, 'g-proj');
  const summaries: GameSummary[] = [];
  const snap = () => summaries.push(summarize(diceRace, g.state!));
  g.create({ target });
  snap();
  g.join('alice', 'p1');
  snap();
  g.join('bob');
  snap();
  for (let i = 0; i < moves && g.state!.meta.status === 'active'; i++) {
    g.play(playerOf(turnOf(g)), { type: 'Roll' });
    snap();
  }
  return { g, summaries };
}

describe('projectGame', () => {
  it('lists an open game with a free seat in the lobby and removes it once full', () => {
    const { summaries } = played(0);
    const afterCreate = projectGame(undefined, summaries[0]!);
    expect(afterCreate.lobby?.freeSeats.map((s) => s.id)).toEqual(['p1', 'p2']);
    const afterAlice = projectGame(afterCreate.summary, summaries[1]!);
    expect(afterAlice.lobby?.freeSeats.map((s) => s.id)).toEqual(['p2']);
    expect(afterAlice.inbox.map((i) => i.player)).toEqual(['alice']);
    const full = projectGame(afterAlice.summary, summaries[2]!);
    expect(full.lobby).toBeUndefined();
    expect(full.summary.summary.status).toBe('active');
  });

  it('keeps a game whose only free seat is reserved out of the lobby and marks the invitee', () => {
    const g = new MemoryGame(diceRace, SEED, 'g-inv');
    g.create({});
    const s = summarize(diceRace, g.state!);
    const reserved: GameSummary = { ...s, seats: s.seats.map((x) => (x.id === 'p2' ? { ...x, player: 'bob' } : { ...x, player: 'alice', joined: true })) };
    const p = projectGame(undefined, reserved);
    expect(p.lobby).toBeUndefined();
    expect(p.inbox.find((i) => i.player === 'bob')?.invited).toBe(true);
    expect(p.inbox.find((i) => i.player === 'alice')?.invited).toBe(false);
  });

  it('flags whose move it is and since when that seat has been pending', () => {
    const { summaries } = played(3);
    let prev = undefined as ReturnType<typeof projectGame> | undefined;
    const byVersion: ReturnType<typeof projectGame>[] = [];
    for (const s of summaries) {
      prev = projectGame(prev?.summary, s);
      byVersion.push(prev);
    }
    const started = byVersion[2]!;
    const alice = started.inbox.find((i) => i.player === 'alice')!;
    const bob = started.inbox.find((i) => i.player === 'bob')!;
    expect(alice.yourMove).toBe(true);
    expect(bob.yourMove).toBe(false);
    expect(alice.since).toBe(summaries[2]!.updatedAt);
    expect(alice.whoseMove).toEqual([
      expect.objectContaining({ seat: 'p1', player: 'alice', prompt: 'Roll a die or play your card', sinceVersion: summaries[2]!.version }),
    ]);
    expect(bob.opponents).toEqual([{ seat: 'p1', name: 'Player 1', player: 'alice' }]);
    const afterMove = byVersion[3]!;
    expect(afterMove.inbox.find((i) => i.player === 'bob')!.yourMove).toBe(true);
    expect(afterMove.inbox.find((i) => i.player === 'bob')!.since).toBe(summaries[3]!.updatedAt);
    expect(afterMove.inbox.find((i) => i.player === 'alice')!.yourMove).toBe(false);
  });

  it('carries since-when over while the same seat stays pending', () => {
    const { summaries } = played(1);
    const first = projectGame(undefined, summaries[3]!);
    // A later append (say a sealed order of the other seat) that leaves p2 pending.
    const later: GameSummary = { ...summaries[3]!, version: summaries[3]!.version + 1, updatedAt: '2030-01-01T00:00:00.000Z' };
    const next = projectGame(first.summary, later);
    expect(next.summary.pendingSince['p2']).toEqual(first.summary.pendingSince['p2']);
    expect(next.inbox.find((i) => i.player === 'bob')!.since).toBe(summaries[3]!.updatedAt);
  });

  it('records the result for each player when the game ends', () => {
    const { g, summaries } = played(200, 12);
    expect(g.state!.meta.status).toBe('ended');
    const p = projectSequence(summaries)!;
    const results = Object.fromEntries(p.inbox.map((i) => [i.player, i.outcome?.result]));
    const winner = g.state!.meta.outcome!.winners[0]!;
    expect(results[playerOf(winner)]).toBe('won');
    expect(results[playerOf(winner === 'p1' ? 'p2' : 'p1')]).toBe('lost');
    expect(p.inbox.every((i) => !i.yourMove && i.whoseMove.length === 0)).toBe(true);
  });
});

describe('projectFrom (a batch of one game written once)', () => {
  it('folding several summaries onto the stored model gives what applying them one by one gives', () => {
    const { summaries } = played(8);
    for (let from = 1; from < summaries.length - 1; from++) {
      for (let to = from + 1; to <= summaries.length; to++) {
        // Stored: the projection after `from` appends; then the batch summaries[from..to) in one go.
        const stored = projectSequence(summaries.slice(0, from))!.summary;
        const oneByOne = summaries.slice(from, to).reduce((m, s) => projectGame(m, s).summary, stored);
        const folded = projectFrom(stored, summaries.slice(from, to))!;
        expect(folded.summary).toEqual(oneByOne);
        expect(folded).toEqual({ ...projectSequence(summaries.slice(0, to))!, dropInbox: folded.dropInbox });
      }
    }
    expect(projectFrom(undefined, [])).toBeUndefined();
  });

  it('drops a player who was in the stored model and left during the batch', () => {
    const { summaries } = played(0);
    const stored = projectGame(undefined, summaries[1]!).summary;
    const gone = { ...summaries[2]!, seats: summaries[2]!.seats.map((x) => ({ ...x, player: x.player === 'alice' ? null : x.player })) };
    expect(projectFrom(stored, [gone])!.dropInbox).toEqual(['alice']);
  });
});

describe('rebuild from events', () => {
  it("groups a command's events into one append and summarizes exactly like HEAD", () => {
    const { g, summaries } = played(6);
    const runs = appendsOf(g.events);
    expect(runs.length).toBe(summaries.length);
    expect(summariesFromEvents(diceRace, g.events)).toEqual(summaries);
    expect(summarize(diceRace, foldAll(diceRace, g.events)!)).toEqual(summaries[summaries.length - 1]);
  });
});

describe('stream images', () => {
  it('reads the old and new summary of a HEAD record in wire form', () => {
    const { summaries } = played(1);
    const rec = {
      eventName: 'MODIFY',
      dynamodb: {
        Keys: { pk: { S: 'GAME#g-proj' }, sk: { S: 'HEAD' } },
        OldImage: { pk: { S: 'GAME#g-proj' }, summary: wire(summaries[2]) as object },
        NewImage: { pk: { S: 'GAME#g-proj' }, summary: wire(summaries[3]) as object },
        SequenceNumber: '42',
      },
    };
    const c = headChange(rec)!;
    expect(c.old).toEqual(summaries[2]);
    expect(c.next).toEqual(summaries[3]);
    expect(c.sequence).toBe('42');
    expect(() => headChange({ ...rec, dynamodb: { ...rec.dynamodb, NewImage: { summary: { M: { gameId: { S: 'x' } } } } } })).toThrow(/malformed/);
  });
});
