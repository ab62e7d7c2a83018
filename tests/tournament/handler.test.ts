import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { createRegistry } from '../../domain/kernel/index.js';
import { createDynamoGameService } from '../../functions/app/adapters.js';
import { createTournamentWorld, type TournamentWorld } from '../../functions/app/tournament-reactor.js';
import type { GameService } from '../../functions/app/game-service.js';
import { createTournamentsHandler } from '../../functions/handlers/tournaments.js';
import type { NotifyJob } from '../../functions/notify/decide.js';
import type { OutgoingMail } from '../../functions/notify/mailer.js';
import { Notifier } from '../../functions/notify/notifier.js';
import { DynamoDeliveryLog, DynamoNoticeLedger, DynamoSettingsStore } from '../../functions/notify/stores.js';
import { NOW, verifiedEmail } from '../notify/fixtures.js';
import { diceRace } from '../fixtures/dice-race.js';
import { wire } from '../projections/wire.js';
import { freshTable } from '../support/dynamo.js';

/**
 * The AWS tournaments function (functions/handlers/tournaments.ts) on DynamoDB Local, fed
 * stream batches as Lambda delivers them: a started tournament's HEAD makes the pairing's game
 * and tells both players; the game's end records the result and finishes the event; the same
 * batch delivered again changes nothing; a record it cannot process is reported by its
 * sequence number while the others go through.
 */
const clock = { now: () => '2026-11-24T10:00:00.000Z' };
let world: TournamentWorld;
let table: { client: DynamoDBClient; tableName: string };
let games: GameService;
let handler: ReturnType<typeof createTournamentsHandler>;
const sent: NotifyJob[] = [];

beforeAll(async () => {
  const { client, tableName } = await freshTable('thandler');
  table = { client, tableName };
  const engines = createRegistry([diceRace]);
  games = createDynamoGameService({ client, tableName, engines, clock }).service;
  world = createTournamentWorld({ client, tableName, engines, clock, games });
  handler = createTournamentsHandler({ world, games, engines, clock, queue: { enqueue: async (js) => void sent.push(...js) } });
});

/** As DynamoDB keeps it: no undefined fields. */
const plain = (v: Record<string, unknown>) => JSON.parse(JSON.stringify(v)) as Record<string, unknown>;
const record = (seq: string, pk: string, image: Record<string, unknown> = {}, old?: Record<string, unknown>) => ({
  eventName: 'MODIFY',
  dynamodb: {
    SequenceNumber: seq,
    Keys: { pk: { S: pk }, sk: { S: 'HEAD' } },
    NewImage: { pk: { S: pk }, sk: { S: 'HEAD' }, ...(wire(plain(image)) as { M: object }).M },
    ...(old ? { OldImage: { pk: { S: pk }, sk: { S: 'HEAD' }, ...(wire(plain(old)) as { M: object }).M } } : {}),
  },
});
const batch = (...records: unknown[]) => ({ Records: records }) as unknown as DynamoDBStreamEvent;

describe('the tournaments Lambda handler', () => {
  it('makes the games a start wants, records their results, and does each once', async () => {
    const t = await world.tournaments.create('dora', { name: 'Handler Cup', engine: 'dice-race', options: { target: 5 }, format: 'round-robin' });
    for (const p of ['pete', 'quin']) await world.tournaments.command(p, t.tournamentId, { type: 'JoinTournament', player: p, rating: 0 });
    await world.tournaments.command('dora', t.tournamentId, { type: 'StartTournament' });

    const started = batch(record('1', `TOURNAMENT#${t.tournamentId}`, { version: 4 }));
    expect(await handler(started)).toEqual({ batchItemFailures: [] });
    const pairing = (await world.tournaments.view(t.tournamentId)).rounds[0]!.pairings[0]!;
    expect(pairing.gameId).toEqual(expect.any(String));
    const paired = sent.filter((j) => j.notice.tournament?.about === 'paired');
    expect(paired.map((j) => j.notice.player).sort()).toEqual(['pete', 'quin']);
    expect(paired.every((j) => j.notice.gameId === pairing.gameId)).toBe(true);

    // Delivered twice: no second game, no second notice.
    expect(await handler(started)).toEqual({ batchItemFailures: [] });
    expect(sent.filter((j) => j.notice.tournament?.about === 'paired')).toHaveLength(2);

    const loser = pairing.seats[1];
    await games.resign(loser, pairing.gameId!, { commandId: 'resigns' });
    const { summary } = await games.view(null, pairing.gameId!);
    const ended = batch(record('2', `GAME#${pairing.gameId}`, { summary }, { summary: { ...summary, status: 'active', outcome: undefined } }));
    expect(await handler(ended)).toEqual({ batchItemFailures: [] });
    expect(await handler(ended)).toEqual({ batchItemFailures: [] });
    const done = await world.tournaments.view(t.tournamentId);
    expect(done.status).toBe('finished');
    expect(done.rounds[0]!.pairings[0]!.result).toMatchObject({ winner: pairing.seats[0], how: 'played' });
    expect(done.standings.map((s) => [s.player, s.points])).toEqual([
      [pairing.seats[0], 1],
      [loser, 0],
    ]);
    // Rated once, though the end was delivered twice.
    expect((await world.tournaments.leaderboard('dice-race')).entries.map((e) => e.games)).toEqual([1, 1]);
  });

  it('the pairing notices go out by mail and by webhook, each naming the opponent, the side and the game', async () => {
    const settings = new DynamoSettingsStore(table.client, table.tableName);
    for (const p of ['pete', 'quin'])
      await settings.put(p, {
        ...verifiedEmail(`${p}@example.org`),
        webhooks: [{ id: `wh-${p}`, url: `https://hooks.example.org/${p}`, secret: 'x'.repeat(24), format: 'json' }],
      });
    const mails: OutgoingMail[] = [];
    const posts: { url: string; body: { type: string; text: string; tournament: { about: string } } }[] = [];
    const notifier = new Notifier({
      settings,
      ledger: new DynamoNoticeLedger(table.client, table.tableName),
      deliveries: new DynamoDeliveryLog(table.client, table.tableName),
      mailer: { send: async (m) => void mails.push(m) },
      webhooks: { post: async (url, _headers, body) => (posts.push({ url, body: JSON.parse(body) }), { status: 200 }) },
      clock: { now: () => NOW },
      appUrl: 'https://fieldpost.example.org',
      retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1, mode: 'inline' },
      allowPrivateWebhooks: true,
    });
    const paired = sent.filter((j) => j.notice.tournament?.about === 'paired' && j.notice.tournament.name === 'Handler Cup');
    expect(paired).toHaveLength(2);
    for (const job of paired) await notifier.handle(job);
    expect(mails.map((m) => m.to).sort()).toEqual(['pete@example.org', 'quin@example.org']);
    for (const m of mails) {
      expect(m.subject).toBe('Handler Cup: round 1 paired');
      expect(m.text).toMatch(/round 1 of Handler Cup, board 1: you play Player [12] against (pete|quin) \(Player [12]\) in game /);
    }
    expect(posts.map((p) => p.url).sort()).toEqual(['https://hooks.example.org/pete', 'https://hooks.example.org/quin']);
    expect(posts.every((p) => p.body.type === 'tournament.notice' && p.body.tournament.about === 'paired')).toBe(true);
  });

  it('a withdrawal mid-event: the director is told, and the game in progress is resigned for the player', async () => {
    const t = await world.tournaments.create('dora', { name: 'Short Cup', engine: 'dice-race', options: { target: 5 }, format: 'round-robin', rated: false });
    for (const p of ['rita', 'sam']) await world.tournaments.command(p, t.tournamentId, { type: 'JoinTournament', player: p, rating: 0 });
    await world.tournaments.command('dora', t.tournamentId, { type: 'StartTournament' });
    let seq = 0;
    const head = () => record(`w-${++seq}`, `TOURNAMENT#${t.tournamentId}`, { version: 99 });
    expect(await handler(batch(head()))).toEqual({ batchItemFailures: [] });
    const gameId = (await world.tournaments.view(t.tournamentId)).rounds[0]!.pairings[0]!.gameId!;
    expect((await games.view(null, gameId)).summary.status).toBe('active');

    await world.tournaments.command('sam', t.tournamentId, { type: 'WithdrawPlayer', player: 'sam', reason: 'moving house' });
    expect(await handler(batch(head()))).toEqual({ batchItemFailures: [] });
    const told = sent.filter((j) => j.notice.tournament?.about === 'withdrawal' && j.notice.tournament.tournamentId === t.tournamentId);
    expect(told).toHaveLength(1);
    expect(told[0]!.notice.player).toBe('dora');
    expect(told[0]!.notice.tournament!.text).toBe('sam withdrew from Short Cup in round 1 (moving house).');
    const { summary } = await games.view(null, gameId);
    expect(summary.status).toBe('ended');
    expect(summary.outcome?.winners.map((w) => summary.seats.find((x) => x.id === w)?.player)).toEqual(['rita']);
    const done = await world.tournaments.view(t.tournamentId);
    expect(done.status).toBe('finished');
    expect(done.rounds[0]!.pairings[0]!.result).toMatchObject({ winner: 'rita', how: 'forfeit' });
  });

  it('the director hears of every withdrawal and every time-out, by mail and by webhook', async () => {
    // A clock of its own, moved past a move's time limit.
    let at = '2026-11-24T10:00:00.000Z';
    const moving = { now: () => at };
    const engines = createRegistry([diceRace]);
    const g = createDynamoGameService({ ...table, engines, clock: moving }).service;
    const w = createTournamentWorld({ ...table, engines, clock: moving, games: g });
    const jobs: NotifyJob[] = [];
    const h = createTournamentsHandler({ world: w, games: g, engines, clock: moving, queue: { enqueue: async (js) => void jobs.push(...js) } });
    const t = await w.tournaments.create('dean', {
      name: 'Clock Cup',
      engine: 'dice-race',
      options: { target: 5 },
      format: 'round-robin',
      timeControl: { kind: 'per-move', days: 1 },
    });
    for (const p of ['tia', 'uma', 'wes']) await w.tournaments.command(p, t.tournamentId, { type: 'JoinTournament', player: p, rating: 0 });
    await w.tournaments.command('wes', t.tournamentId, { type: 'WithdrawPlayer', player: 'wes', reason: 'no time this month' });
    await w.tournaments.command('dean', t.tournamentId, { type: 'StartTournament' });
    expect(await h(batch(record('c-1', `TOURNAMENT#${t.tournamentId}`, { version: 1 })))).toEqual({ batchItemFailures: [] });
    const pairing = (await w.tournaments.view(t.tournamentId)).rounds[0]!.pairings[0]!;
    // Nobody moves: two days later the game ends on time.
    at = '2026-11-26T12:00:00.000Z';
    expect((await g.runDeadlines(pairing.gameId!)).timedOut).toBe(true);
    const { summary } = await g.view(null, pairing.gameId!);
    expect(await h(batch(record('c-2', `GAME#${pairing.gameId}`, { summary }, { summary: { ...summary, status: 'active', outcome: undefined } })))).toEqual({
      batchItemFailures: [],
    });
    const result = (await w.tournaments.view(t.tournamentId)).rounds[0]!.pairings[0]!.result;
    expect(result).toMatchObject({ how: 'forfeit', reason: expect.stringMatching(/^time-out/) });

    const toDirector = jobs.filter((j) => j.notice.player === 'dean');
    expect(toDirector.map((j) => j.notice.tournament?.about)).toEqual(['withdrawal', 'time-out']);
    const settings = new DynamoSettingsStore(table.client, table.tableName);
    await settings.put('dean', {
      ...verifiedEmail('dean@example.org'),
      webhooks: [{ id: 'wh-dean', url: 'https://hooks.example.org/dean', secret: 'x'.repeat(24), format: 'json' }],
    });
    const mails: OutgoingMail[] = [];
    const posts: { url: string; body: { type: string; text: string; tournament: { about: string; text: string } } }[] = [];
    const notifier = new Notifier({
      settings,
      ledger: new DynamoNoticeLedger(table.client, table.tableName),
      deliveries: new DynamoDeliveryLog(table.client, table.tableName),
      mailer: { send: async (m) => void mails.push(m) },
      webhooks: { post: async (url, _headers, body) => (posts.push({ url, body: JSON.parse(body) }), { status: 200 }) },
      clock: { now: () => NOW },
      appUrl: 'https://fieldpost.example.org',
      retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1, mode: 'inline' },
      allowPrivateWebhooks: true,
    });
    for (const job of toDirector) await notifier.handle(job);
    const withdrawal = 'wes withdrew from Clock Cup before the start (no time this month).';
    const late = pairing.seats[0];
    expect(mails.map((m) => [m.to, m.subject])).toEqual([
      ['dean@example.org', 'Clock Cup: withdrawal'],
      ['dean@example.org', 'Clock Cup: time-out'],
    ]);
    expect(mails[0]!.text).toContain(withdrawal);
    expect(mails[1]!.text).toContain(`${late} ran out of time against ${pairing.seats[1]} in round 1, board 1 of Clock Cup`);
    expect(posts.map((p) => [p.url, p.body.type, p.body.tournament.about])).toEqual([
      ['https://hooks.example.org/dean', 'tournament.notice', 'withdrawal'],
      ['https://hooks.example.org/dean', 'tournament.notice', 'time-out'],
    ]);
    expect(posts[0]!.body.tournament.text).toBe(withdrawal);
  });

  it('a tournament cancelled at its scheduled start: the director and the entrant are told why, under one key each', async () => {
    const t = await world.tournaments.create('dora', {
      name: 'Empty Cup',
      engine: 'dice-race',
      options: { target: 5 },
      format: 'round-robin',
      startsAt: '2026-11-25T10:00:00.000Z',
    });
    await world.tournaments.command('xia', t.tournamentId, { type: 'JoinTournament', player: 'xia', rating: 0 });
    await world.tournaments.system(t.tournamentId, { type: 'StartOnSchedule', at: '2026-11-25T10:00:00.000Z' }, 'start-on-schedule');
    const before = sent.length;
    const head = record('x-1', `TOURNAMENT#${t.tournamentId}`, { version: 2 }, { version: 2 });
    expect(await handler(batch(head))).toEqual({ batchItemFailures: [] });
    const told = sent.slice(before);
    expect(told.map((j) => [j.notice.player, j.notice.tournament?.about, j.notice.tournament?.text])).toEqual([
      ['dora', 'cancelled', 'Empty Cup was cancelled at its scheduled start: too few players at the scheduled start (1; a tournament needs 2).'],
      ['xia', 'cancelled', 'Empty Cup was cancelled at its scheduled start: too few players at the scheduled start (1; a tournament needs 2).'],
    ]);
    expect(new Set(told.map((j) => j.notice.key)).size).toBe(2);
    // The record delivered again makes the same notices (same keys): the notifier's ledger sends each once.
    const again = sent.length;
    expect(await handler(batch(head))).toEqual({ batchItemFailures: [] });
    expect(sent.slice(again).map((j) => j.notice.key)).toEqual(told.map((j) => j.notice.key));
  });

  it('a rated club game moves both ratings when it ends; an unrated one does not; a rated game needs two seats', async () => {
    const club = await world.clubs.create('olga', { name: 'Casual Club', joinCode: 'casual-club' });
    await world.clubs.command('vic', club.clubId, { type: 'JoinClub', joinCode: 'casual-club' });
    const ended = async (gameId: string) => {
      const { summary } = await games.view(null, gameId);
      expect(summary.status).toBe('ended');
      return record(`end-${gameId}`, `GAME#${gameId}`, { summary }, { summary: { ...summary, status: 'active', outcome: undefined } });
    };
    const play = async (rated: boolean, commandId: string) => {
      const g = await world.clubs.createGame('olga', club.clubId, { engine: 'dice-race', options: { target: 5 }, seat: 'p1', rated, commandId });
      await games.join('vic', g.gameId, { seat: 'p2', commandId: `${commandId}:join` });
      await games.resign('vic', g.gameId, { commandId: `${commandId}:resign` });
      return g.gameId;
    };
    const casual = await play(false, 'casual');
    const rated = await play(true, 'rated');
    expect(await handler(batch(await ended(casual), await ended(rated)))).toEqual({ batchItemFailures: [] });
    const board = await world.tournaments.leaderboard('dice-race');
    const olga = board.entries.find((e) => e.player === 'olga')!;
    const vic = board.entries.find((e) => e.player === 'vic')!;
    expect([olga.games, vic.games]).toEqual([1, 1]);
    expect(olga.rating).toBeGreaterThan(1500);
    expect(vic.rating).toBeLessThan(1500);
    expect((await world.tournaments.player('olga')).ratings[0]!.history.map((h) => h.gameId)).toEqual([rated]);
    const listed = new Map((await world.clubs.games(club.clubId)).map((g) => [g.gameId, g.rated ?? false]));
    expect(listed).toEqual(
      new Map([
        [casual, false],
        [rated, true],
      ]),
    );
    await expect(
      world.clubs.createGame('olga', club.clubId, { engine: 'dice-race', options: { target: 5, seats: 3 }, seat: 'p1', rated: true, commandId: 'three' }),
    ).rejects.toMatchObject({ status: 422, code: 'club/rated-needs-two' });
  });

  it('reports a record it cannot process by its sequence number and goes on with the rest', async () => {
    const r = await handler(
      batch(
        { eventName: 'INSERT', dynamodb: { SequenceNumber: '7', Keys: { pk: { S: 'GAME#x' }, sk: { S: 'EV#0000000001' } } } },
        record('8', 'GAME#broken', { summary: { gameId: 'broken' } }),
        record('9', 'TOURNAMENT#no-such-tournament', { version: 1 }),
      ),
    );
    expect(r.batchItemFailures).toEqual([{ itemIdentifier: '8' }]);
  });
});
