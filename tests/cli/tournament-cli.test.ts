import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createRegistry } from '../../domain/kernel/index.js';
import { startLocalRuntime, type LocalRuntime } from '../../functions/local/runtime.js';
import { notificationsExtension } from '../../functions/local/stream-poller.js';
import { runScript } from '../support/run-script.js';
import { waitFor, waitUntil } from '../support/wait.js';
import { diceRace } from '../fixtures/dice-race.js';

/**
 * A club runs a tournament from the terminal: the owner founds the club with a join code, two
 * members join with it (tokens from FIELDPOST_TOKEN, as against a deployed server), the owner creates and starts a round robin, the stream makes the game;
 * once it is played, `tournament show` prints the result and standings, `ratings` and `player`
 * the ratings. Each player has their own FIELDPOST_HOME, as in two terminals.
 */
let rt: LocalRuntime;
let dir: string;

beforeAll(async () => {
  rt = await startLocalRuntime({
    dynamoEndpoint: inject('dynamoEndpoint'),
    tableName: `tcli-${Date.now().toString(36)}`,
    engines: createRegistry([diceRace]),
    extensions: [notificationsExtension],
  });
  dir = mkdtempSync(join(tmpdir(), 'fieldpost-tcli-'));
});
afterAll(async () => {
  await rt?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const cli = async (who: string, ...args: string[]) => {
  const r = await runScript('functions/cli/main.ts', args, { FIELDPOST_HOME: join(dir, who), FIELDPOST_URL: rt.url, FIELDPOST_TOKEN: rt.issueToken(who) });
  expect(r.code, `${args.join(' ')}: ${r.err}`).toBe(0);
  return r.out;
};
type TournamentWire = { status: string; rounds: { pairings: { gameId?: string }[] }[] };
const api = async (method: string, path: string, player: string, body?: unknown): Promise<TournamentWire> =>
  (
    await fetch(`${rt.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${rt.issueToken(player)}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    })
  ).json() as Promise<TournamentWire>;

describe('terminal client: clubs and tournaments', () => {
  it('club create/join, tournament create/join/start/show, ratings and player', async () => {
    const club = await cli('olga', 'club', 'create', 'Dice Club', '--description', 'Fast games', '--code', 'roll-the-dice');
    const clubId = /\(club (\S+)\)/.exec(club)?.[1];
    expect(clubId).toBeTruthy();
    for (const p of ['pete', 'quin']) await cli(p, 'club', 'join', clubId!, 'roll-the-dice');
    expect(await cli('olga', 'club', 'show', clubId!)).toMatch(/Members:\n {2}olga \(owner\)\n {2}pete\n {2}quin/);

    // Engine data stored once by a director, chosen by name in a member's club game.
    const file = join(dir, 'short.json');
    writeFileSync(file, JSON.stringify({ target: 6 }));
    expect(await cli('olga', 'club', 'data', clubId!, 'dice-race', 'short', file)).toMatch(/Engine data:\n {2}dice-race\/short {2}sha256 [0-9a-f]{16}…/);
    const made = await cli('pete', 'club', 'game', clubId!, 'dice-race', '--data', 'short', '--seat', 'p1');
    const clubGame = /Created game (\S+) in club/.exec(made)?.[1];
    expect(clubGame).toBeTruthy();
    expect(await cli('quin', 'club', 'games', clubId!)).toContain(`${clubGame}  dice-race  by pete`);

    const created = await cli(
      'olga',
      'tournament',
      'create',
      'dice-race',
      'Spring Dice',
      '--format',
      'round-robin',
      '--club',
      clubId!,
      '--options',
      '{"target":5}',
    );
    const id = /\(tournament (\S+)\)/.exec(created)?.[1];
    expect(created).toMatch(/Spring Dice .*dice-race, round robin, open/);
    for (const p of ['pete', 'quin']) await cli(p, 'tournament', 'join', id!);
    const started = await cli('olga', 'tournament', 'start', id!);
    expect(started).toMatch(/running/);
    expect(started).toMatch(/Round 1:\n {2}board 1: (pete v quin|quin v pete) {2}playing/);

    // The stream makes the game; pete's opponent resigns it.
    const gameId: string = await waitFor('the round-one game', async () => (await api('GET', `/v1/tournaments/${id}`, 'olga')).rounds[0]?.pairings[0]?.gameId);
    await api('POST', `/v1/games/${gameId}/resign`, 'quin', { commandId: 'quin-resigns' });
    await waitUntil('the tournament to finish', async () => (await api('GET', `/v1/tournaments/${id}`, 'olga')).status === 'finished');

    const [shown, listed, ratings, page] = await Promise.all([
      cli('pete', 'tournament', 'show', id!),
      cli('quin', 'tournament', 'list', '--club', clubId!, '--status', 'finished'),
      cli('quin', 'ratings', 'dice-race'),
      cli('quin', 'player', 'pete'),
    ]);
    expect(shown).toMatch(/finished/);
    expect(shown).toMatch(new RegExp(`board 1: .* (1-0|0-1) {2}game ${gameId}`));
    expect(shown).toMatch(/Standings:\n +1\. pete +1 +\(1 played; headToHead 0, sonnebornBerger 0\)\n +2\. quin +0/);
    expect(listed).toContain(`${id}  Spring Dice  dice-race round-robin  finished, 2 players`);
    expect(ratings).toMatch(/1\. pete +\d+\? ±\d+ {2}1 games\n +2\. quin/);
    expect(page).toMatch(/pete:\n {2}dice-race: \d+ \(provisional\)/);
  }, 300_000);
});
