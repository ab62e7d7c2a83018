import { beforeAll, describe, expect, it } from 'vitest';
import { createRegistry, envelopeHash, verifyLog, type EventEnvelope } from '../../domain/kernel/index.js';
import { createDynamoGameService } from '../../functions/app/adapters.js';
import type { GameService } from '../../functions/app/game-service.js';
import { diceRace } from '../fixtures/dice-race.js';
import { freshTable } from '../support/dynamo.js';

/**
 * The hash chain must not let a seat recover an event it may not see. A seat sees the
 * public events of a command (their commandId, time, player and hash) and the head hash in
 * every summary; if a hidden event's hash covered only guessable content, trying each card
 * would reveal it.
 */
const engines = createRegistry([diceRace]);
let svc: GameService;
let n = 0;
const cid = () => `hh-${++n}`;

beforeAll(async () => {
  const t = await freshTable('hidden-hash');
  ({ service: svc } = createDynamoGameService({ client: t.client, tableName: t.tableName, engines }));
});

describe('hidden events and the hash chain', () => {
  it('the other seat cannot find a newly dealt hidden card by hashing each candidate against the public hashes', async () => {
    const { gameId } = await svc.create('alice', { engine: 'dice-race', options: { target: 10_000 }, seat: 'p1', commandId: cid() });
    await svc.join('bob', gameId, { commandId: cid() });
    // Alice plays her card and is dealt a new one that only she may see: the last event of the append.
    const played = await svc.submit('alice', gameId, { command: { type: 'PlayCard' }, commandId: cid() });
    const secret = played.events.find((e) => e.type === 'CardDealt')!;
    expect(secret.visibility).toEqual({ to: 'seats', seats: ['p1'] });

    // What bob can see: the public CardPlayed of that command, and the head hash in the summary.
    const bobEvents = (await svc.events('bob', gameId)).events;
    const publicSibling = bobEvents.find((e) => e.type === 'CardPlayed')!;
    expect(bobEvents.some((e) => e.type === 'CardDealt' && (e.data as { seat: string }).seat === 'p1')).toBe(false);
    const head = (await svc.view('bob', gameId)).summary.hash;
    expect(head).toBe(secret.hash);

    const guesses = [1, 2, 3, 4, 5].filter((card) => {
      const candidate: Omit<EventEnvelope, 'hash'> = {
        gameId,
        seq: publicSibling.seq + 1,
        type: 'CardDealt',
        data: { seat: 'p1', card },
        visibility: { to: 'seats', seats: ['p1'] },
        actor: 'p1',
        player: 'alice',
        commandId: publicSibling.commandId,
        at: publicSibling.at,
        prevHash: publicSibling.hash,
      };
      return envelopeHash(candidate) === head;
    });
    expect(guesses).toEqual([]);
  });

  it('a finished game with blinded hidden events still verifies, and tampering with a blinding value fails', async () => {
    const { gameId } = await svc.create('alice', { engine: 'dice-race', options: { target: 10_000 }, seat: 'p1', commandId: cid() });
    await svc.join('bob', gameId, { commandId: cid() });
    await svc.submit('alice', gameId, { command: { type: 'PlayCard' }, commandId: cid() });
    await svc.submit('bob', gameId, { command: { type: 'Roll' }, commandId: cid() });
    await svc.resign('alice', gameId, { commandId: cid() });
    const log = await svc.exportLog(null, gameId);
    const report = verifyLog(log, (id) => engines.get(id));
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);

    const i = log.findIndex((e) => e.visibility.to !== 'all' && e.salt !== undefined);
    expect(i).toBeGreaterThan(0);
    const salt = log[i]!.salt!;
    const tampered = log.map((e, j) => (j === i ? { ...e, salt: (salt[0] === '0' ? '1' : '0') + salt.slice(1) } : e));
    expect(verifyLog(tampered, (id) => engines.get(id)).ok).toBe(false);
  });
});
