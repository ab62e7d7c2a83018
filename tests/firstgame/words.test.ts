import { describe, expect, it } from 'vitest';
import { summarize, type EventEnvelope } from '../../domain/kernel/index.js';
import { formatEvent, formatGame, formatInbox, ownerOf, type GameViewBody } from '../../functions/cli/format.js';
import { decideNotices, type Notice } from '../../functions/notify/decide.js';
import { webhookPayload } from '../../functions/notify/payloads.js';
import { renderNotice } from '../../functions/notify/render.js';
import { projectSequence } from '../../functions/projections/project.js';
import { diceRace } from '../fixtures/dice-race.js';
import { MemoryGame } from '../kernel/play.js';

/** Issue 9: seats are named by side and player ("United States (alice)"), never by id ("us"), wherever people read them. */
const SEATS = [
  { id: 'us', name: 'United States', player: 'alice', joined: true },
  { id: 'de', name: 'Germany', player: 'bob', joined: true },
];

const ended: Notice = {
  key: 'g#ended#us#40',
  kind: 'ended',
  gameId: 'g',
  title: 'Frontline General: Spearpoint 1943',
  engine: 'spearpoint-1943',
  player: 'alice',
  seats: ['us'],
  sides: ['United States'],
  asked: [],
  opponents: [{ seat: 'de', name: 'Germany', player: 'bob' }],
  version: 40,
  hash: 'ab'.repeat(32),
  at: '2026-11-24T10:00:00.000Z',
  outcome: { winners: ['us'], reason: 'us reached 51 Victory Points', score: { us: 52, de: 30 }, result: 'won' },
};

const view = (over: Partial<GameViewBody['summary']> = {}, seat: string | null = 'us'): GameViewBody => {
  const summary = {
    gameId: 'g',
    engine: 'spearpoint-1943',
    title: 'Spearpoint',
    status: 'active' as const,
    version: 7,
    hash: 'ab',
    createdBy: 'alice',
    createdAt: 'x',
    updatedAt: 'x',
    seats: SEATS,
    pending: [{ seat: 'de', kind: 'sealed' as const, prompt: 'Turn 2: declare one target per attacking unit, then seal', player: 'bob' }],
    ...over,
  };
  return { summary, seat, view: {}, legalCommands: [], pending: summary.pending };
};

const words = /\b(us|de)\b/;

describe('side and player names instead of seat ids', () => {
  it('mail and webhook text name sides and players', () => {
    const r = renderNotice(ended, 'https://play.example.org');
    expect(r.text).toContain('You play United States.');
    expect(r.text).toContain('Winners: United States (alice). United States reached 51 Victory Points.');
    expect(r.text).toContain('Score: United States 52, Germany 30.');
    expect(r.headline).toContain('United States reached 51 Victory Points');
    for (const t of [r.subject, r.headline, r.text]) expect(t).not.toMatch(words);
    const json = webhookPayload('json', ended, r, 'dlv_1') as { text: string; sides: string[] };
    expect(json.sides).toEqual(['United States']);
    expect(json.text).not.toMatch(words);
    for (const format of ['discord', 'slack'] as const) expect(JSON.stringify(webhookPayload(format, ended, r, 'dlv_1'))).not.toMatch(words);
  });

  it('the CLI names the winner, whom the game waits for, and whose view it is', () => {
    const shown = formatGame(view({ status: 'ended', pending: [], outcome: { winners: ['de'], reason: 'us resigned' } }), 'alice');
    expect(shown).toContain('Result: won by Germany (bob) (United States resigned)');
    const waiting = formatGame(view(), 'alice');
    expect(waiting).toContain('Waiting for Germany (bob): Turn 2: declare');
    expect(waiting).toContain('Board as United States:');
    const lines = [...shown.split('\n'), ...waiting.split('\n')].filter((l) => !l.startsWith('  ') && !l.includes('"'));
    for (const l of lines) expect(l).not.toMatch(words);
  });
});

describe('event log lines name the owner of the unit or card, not the sender', () => {
  const event = (type: string, data: object, actor: string | null): EventEnvelope => ({
    gameId: 'g',
    seq: 12,
    type,
    data,
    visibility: { to: 'all' },
    actor,
    player: 'alice',
    commandId: 'c',
    at: 'x',
    prevHash: '',
    hash: '',
  });

  it('a German unit destroyed by an American attack is labelled Germany', () => {
    const e = event('UnitDestroyed', { unit: 'de-004', by: 'us', points: 5 }, 'us');
    expect(ownerOf(e, SEATS)).toBe('de');
    expect(formatEvent(e, SEATS)).toMatch(/^#\s+12 UnitDestroyed \[Germany \(bob\)\] /);
    expect(ownerOf(event('HitResolved', { attackId: 't1-us-2', target: 'de-001' }, 'de'), SEATS)).toBe('de');
    expect(ownerOf(event('AttackRolled', { attackId: 't1-us-2', dice: [3, 4] }, 'de'), SEATS)).toBe('us');
    expect(ownerOf(event('CardDrawn', { seat: 'de', card: 'cmd-4' }, 'us'), SEATS)).toBe('de');
    expect(ownerOf(event('Game.CommandAccepted', { command: {} }, 'us'), SEATS)).toBe('us');
    expect(ownerOf(event('TurnBegan', { turn: 2 }, 'us'), SEATS)).toBeUndefined();
    const hidden = { ...event('OrderSealed', { seat: 'us' }, 'us'), visibility: { to: 'seats' as const, seats: ['us'] } };
    expect(formatEvent(hidden, SEATS)).toContain('[United States (alice)] (only United States)');
  });
});

describe('a cancelled game', () => {
  function cancelled() {
    const g = new MemoryGame(diceRace, 'cd'.repeat(32), 'g-c');
    const summaries = [];
    g.create({ seats: 2 }, 'alice');
    summaries.push(summarize(diceRace, g.state!));
    g.join('alice', 'p1');
    summaries.push(summarize(diceRace, g.state!));
    g.cancel('alice');
    summaries.push(summarize(diceRace, g.state!));
    return { g, summaries };
  }

  it('is "cancelled" in the inbox and the CLI, not a draw', () => {
    const { summaries } = cancelled();
    const inbox = projectSequence(summaries)!.inbox.find((i) => i.player === 'alice')!;
    expect(inbox.outcome?.result).toBe('cancelled');
    const listed = formatInbox({ games: [inbox] }, 'alice');
    expect(listed).toMatch(/ended\s+v\d+\s+cancelled/);
    expect(listed).not.toMatch(/draw/);
    const shown = formatGame({ ...view(summaries.at(-1)!), seat: null }, 'alice');
    expect(shown).toMatch(/· cancelled ·/);
    expect(shown).toContain('Result: cancelled (cancelled by alice before it began)');
    expect(decideNotices(summaries[1], summaries[2]!)).toEqual([]);
  });

  it('refuses a join by saying it was cancelled', () => {
    const { g } = cancelled();
    const r = g.join('bob', 'p2');
    expect(!r.ok && r.error).toMatchObject({ code: 'game/not-open', message: 'This game is not taking players: it was cancelled before it began' });
  });
});

describe('games: the turn, the opponent and the deadline', () => {
  it('each game shows whom you play against, what is asked now and until when', () => {
    const item = {
      gameId: 'g1',
      title: 'Spearpoint',
      status: 'active',
      version: 12,
      yourMove: true,
      seats: [{ id: 'us', name: 'United States', joined: true }],
      opponents: [{ seat: 'de', name: 'Germany', player: 'bob' }],
      whoseMove: [
        {
          seat: 'us',
          name: 'United States',
          player: 'alice',
          kind: 'sealed',
          prompt: 'Turn 3: give your commitment order (units, crews, command cards), then seal it',
          deadline: '2026-11-27T10:00:00.000Z',
        },
      ],
    };
    const waiting = { ...item, gameId: 'g2', yourMove: false, whoseMove: [{ ...item.whoseMove[0], seat: 'de', name: 'Germany', player: 'bob' }] };
    const text = formatInbox({ games: [item, waiting], yourMoveCount: 1 }, 'alice');
    expect(text).toMatch(
      /\* g1 .* YOUR MOVE\n {4}you: United States · vs Germany \(bob\) · asked of you: Turn 3: give your commitment order .* · until 2026-11-27T10:00:00.000Z/,
    );
    expect(text).toMatch(/ {2}g2 .* waiting for Germany \(bob\)\n {4}you: United States · vs Germany \(bob\) · asked: Turn 3: .* · until 2026-11-27/);
  });
});
