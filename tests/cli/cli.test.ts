import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createRegistry } from '../../domain/kernel/index.js';
import { ApiClient } from '../../functions/cli/client.js';
import { startLocalRuntime, type LocalRuntime } from '../../functions/local/runtime.js';
import { notificationsExtension } from '../../functions/local/stream-poller.js';
import { diceRace } from '../fixtures/dice-race.js';
import { runScript } from '../support/run-script.js';
import { waitUntil } from '../support/wait.js';

/**
 * The terminal client as a person uses it: two players, each with their own FIELDPOST_HOME
 * (two terminals), against the local runtime as npm start runs it (with the stream poller
 * that feeds the lobby and inbox). The runtime shares this run's DynamoDB Local.
 */
const FIXTURE = 'tests/fixtures/dice-race.ts';
let rt: LocalRuntime;
let dir: string;

beforeAll(async () => {
  rt = await startLocalRuntime({
    dynamoEndpoint: inject('dynamoEndpoint'),
    tableName: `cli-${Date.now().toString(36)}`,
    engines: createRegistry([diceRace]),
    extensions: [notificationsExtension],
  });
  dir = mkdtempSync(join(tmpdir(), 'fieldpost-cli-'));
});
afterAll(async () => {
  await rt?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const run = (script: string, home: string, args: string[], env: Record<string, string> = {}) =>
  runScript(script, args, { FIELDPOST_HOME: home, FIELDPOST_URL: '', ...env });
const cli = (home: string, ...args: string[]) => run('functions/cli/main.ts', home, args);

/** In-process reads, to wait for the eventually consistent read models before asserting on the CLI. */
const get = async (path: string, player: string) => (await fetch(`${rt.url}${path}`, { headers: { authorization: `Bearer ${rt.issueToken(player)}` } })).json();

describe('terminal client', () => {
  it('two players log in, create, join, play to the end, export and verify', async () => {
    const alice = join(dir, 'alice');
    const bob = join(dir, 'bob');
    const login = await cli(alice, 'login', 'alice', '--url', rt.url);
    expect(login.code, login.err).toBe(0);
    expect(login.out).toMatch(/Signed in as alice/);
    expect(statSync(join(alice, 'config.json')).mode & 0o777).toBe(0o600);
    expect((await cli(bob, 'login', 'bob', '--url', rt.url)).code).toBe(0);
    // The last login's URL is remembered: no --url from here on.
    expect((await cli(alice, 'whoami')).out).toContain(`alice at ${rt.url}`);

    const created = await cli(alice, 'create', 'dice-race', '--options', '{"target":5}', '--seat', 'p1', '--entropy', 'alice-dice');
    expect(created.code, created.err).toBe(0);
    const gameId = /Game id: (\S+)/.exec(created.out)?.[1];
    expect(gameId).toBeTruthy();
    // The lobby is a read model fed by the stream poller: wait until it has the game.
    await waitUntil('the game in the lobby', async () => JSON.stringify(await get('/v1/lobby', 'bob')).includes(gameId!));
    const lobby = await cli(bob, 'lobby');
    expect(lobby.out).toMatch(new RegExp(`${gameId}.*by alice.*free: Player 2 \\(--seat p2\\)`));
    const joined = await cli(bob, 'join', gameId!, '--entropy', 'bob-dice');
    expect(joined.code, joined.err).toBe(0);
    expect(joined.out).toMatch(/Game\.Started/);

    // Independent reads run at once, as two terminals would.
    const [shown, legal, early] = await Promise.all([cli(alice, 'show', gameId!), cli(bob, 'legal', gameId!), cli(bob, 'do', gameId!, '{"type":"Roll"}')]);
    expect(shown.out).toMatch(/Dice Race \(test fixture\).*active/);
    expect(shown.out).toMatch(/YOUR MOVE/);
    expect(shown.out).toMatch(/1\. Roll/);
    // The board as a text picture, with the scene the fixture draws: alice's card face up, bob's face down.
    expect(shown.out).toMatch(/Board as Player 1:\n {2}Dice Race · seen by p1/);
    expect(shown.out).toMatch(/p2: +Card ×1 \(p2\), face down/);
    const board = await cli(alice, 'board', gameId!);
    expect(board.code, board.err).toBe(0);
    expect(board.out).toMatch(/^Dice Race · seen by p1\n/);
    expect(board.out).toMatch(/p1: +Card \d/);
    expect(legal.out).toMatch(/not your move/);
    // Out of turn: refused with the rule, exit 1.
    expect(early.code).toBe(1);
    expect(early.err).toMatch(/422 action\/inactive-player/);
    expect(early.err).toMatch(/Rule: Dice Race: turns/);

    let ended = false;
    for (let turn = 0; turn < 20 && !ended; turn++) {
      const home = turn % 2 === 0 ? alice : bob;
      const r = turn % 3 === 2 ? await cli(home, 'send', gameId!, '{"type":"Roll"}') : await cli(home, 'play', gameId!, '1');
      expect(r.code, r.err).toBe(0);
      ended = r.out.includes('Game.Ended');
    }
    expect(ended).toBe(true);
    const file = join(dir, 'log.json');
    await waitUntil("the ended game in alice's list", async () => JSON.stringify(await get('/v1/me/games', 'alice')).includes('"ended"'));
    const [final, evs, games, exported] = await Promise.all([
      cli(bob, 'show', gameId!),
      cli(bob, 'events', gameId!, '--after', '3'),
      cli(alice, 'games'),
      cli(bob, 'export', gameId!, file),
    ]);
    expect(final.out).toMatch(/Result: won by Player [12] \((alice|bob)\) \(reached 5\)/);
    expect(evs.out).toMatch(/#\s+4 /);
    expect(evs.out).not.toMatch(/#\s+3 /);
    expect(games.code, games.err).toBe(0);
    expect(games.out).toMatch(new RegExp(`${gameId}.*ended.*you (won|lost)`));
    expect(exported.code, exported.err).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8')).events.at(-1).type).toBe('Game.Ended');

    const tampered = join(dir, 'tampered.json');
    writeFileSync(
      tampered,
      readFileSync(file, 'utf8').replace(/"die": (\d)/, (_m, d) => `"die": ${(Number(d) % 6) + 1}`),
    );
    const [verified, npmVerify, bad] = await Promise.all([
      cli(alice, 'verify', file, '--engines', FIXTURE),
      run('functions/cli/verify.ts', alice, [file], { FIELDPOST_ENGINES: FIXTURE }),
      run('functions/cli/verify.ts', alice, [tampered], { FIELDPOST_ENGINES: FIXTURE }),
    ]);
    expect(verified.code, verified.err + verified.out).toBe(0);
    expect(verified.out).toMatch(/^OK: /);
    expect(npmVerify.code).toBe(0);
    expect(npmVerify.out).toMatch(/random draws recomputed/);
    expect(bad.code).toBe(1);
    expect(bad.out).toMatch(/FAILED/);
  }, 120_000);

  it('resigns a game', async () => {
    const carol = join(dir, 'carol');
    expect((await cli(carol, 'login', 'carol', '--url', rt.url)).code).toBe(0);
    const post = async (path: string, player: string, body: unknown) =>
      (
        await fetch(`${rt.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${rt.issueToken(player)}` }, body: JSON.stringify(body) })
      ).json() as Promise<{ gameId: string }>;
    const { gameId } = await post('/v1/games', 'carol', { engine: 'dice-race', seat: 'p1', commandId: 'carol-game' });
    await post(`/v1/games/${gameId}/join`, 'dave', { commandId: 'dave-join' });
    const r = await cli(carol, 'resign', gameId);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/Game\.Resigned/);
    expect(r.out).toMatch(/Game\.Ended .*"winners":\["p2"\]/);
  });

  it('works with a token from $FIELDPOST_TOKEN and no saved login (as against a deployed server)', async () => {
    const empty = join(dir, 'token-only');
    const post = async (path: string, player: string, body: unknown) =>
      (
        await fetch(`${rt.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${rt.issueToken(player)}` }, body: JSON.stringify(body) })
      ).json() as Promise<{ gameId: string }>;
    const { gameId } = await post('/v1/games', 'erin', { engine: 'dice-race', seat: 'p1', commandId: 'erin-game' });
    await post(`/v1/games/${gameId}/join`, 'frank', { commandId: 'frank-join' });
    const env = { FIELDPOST_TOKEN: rt.issueToken('erin') };
    const show = await run('functions/cli/main.ts', empty, ['show', gameId, '--url', rt.url], env);
    expect(show.code, show.err).toBe(0);
    expect(show.out).toMatch(/erin/);
    await waitUntil("a game in erin's list", async () => ((await get('/v1/me/games', 'erin')) as { games: unknown[] }).games.length > 0);
    const games = await run('functions/cli/main.ts', empty, ['games', '--url', rt.url], env);
    expect(games.code, games.err).toBe(0);
    expect(games.out).toContain(gameId);
  });

  it('verify-email confirms a notification address with the code mailed to it', async () => {
    const auth = { authorization: `Bearer ${rt.issueToken('dora')}`, 'content-type': 'application/json' };
    const put = await fetch(`${rt.url}/v1/me/settings`, { method: 'PUT', headers: auth, body: JSON.stringify({ email: 'dora@example.org' }) });
    expect(put.status).toBe(200);
    const sink = (await (await fetch(`${rt.url}/local/mail`)).json()) as { mails: { to: string; text: string }[] };
    const mail = sink.mails.filter((m) => m.to === 'dora@example.org').at(-1)!;
    expect(mail.text).toContain('npm run cli -- verify-email <code>');
    const code = /verify-email\?token=([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
    const env = { FIELDPOST_TOKEN: rt.issueToken('dora'), FIELDPOST_URL: rt.url };
    const wrong = await run('functions/cli/main.ts', join(dir, 'dora'), ['verify-email', code.slice(0, -2) + (code.endsWith('AA') ? 'BB' : 'AA')], env);
    expect(wrong.code).toBe(1);
    expect(wrong.err).toMatch(/Refused \(400 email\/wrong-token\)/);
    const right = await run('functions/cli/main.ts', join(dir, 'dora'), ['verify-email', code], env);
    expect(right.code, right.err).toBe(0);
    expect(right.out).toMatch(/Email address confirmed/);
    const settings = (await (await fetch(`${rt.url}/v1/me/settings`, { headers: auth })).json()) as { emailVerification: { status: string } };
    expect(settings.emailVerification.status).toBe('verified');
  });

  it('explains what to do when not signed in or the server is down', async () => {
    const nobody = join(dir, 'nobody');
    const r = await cli(nobody, 'show', 'abc', '--url', rt.url);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/not signed in .* login <player>/);
    const down = await cli(nobody, 'login', 'zed', '--url', 'http://127.0.0.1:9');
    expect(down.code).toBe(1);
    expect(down.err).toMatch(/Cannot reach http:\/\/127\.0\.0\.1:9/);
  });
});

describe('ApiClient retries', () => {
  it('resends the SAME commandId after a network failure, and does not retry a 4xx', async () => {
    const bodies: string[] = [];
    let calls = 0;
    const flaky = (async (_url: string, init: RequestInit) => {
      bodies.push(String(init.body));
      if (++calls === 1) throw new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } });
      return new Response(JSON.stringify({ gameId: 'g', version: 3, duplicate: false, events: [] }), { status: 200 });
    }) as unknown as typeof fetch;
    const c = new ApiClient({ url: 'http://x', token: 't', fetch: flaky, retryDelayMs: 1 });
    const r = await c.request<{ version: number }>('POST', '/v1/games/g/commands', { commandId: 'cli-1', command: { type: 'Roll' } });
    expect(r.version).toBe(3);
    expect(bodies).toHaveLength(2);
    expect(bodies[0]).toBe(bodies[1]);
    expect(JSON.parse(bodies[1]!).commandId).toBe('cli-1');

    let n = 0;
    const refusing = (async () => (n++, new Response(JSON.stringify({ code: 'rule/x', message: 'no' }), { status: 422 }))) as unknown as typeof fetch;
    await expect(new ApiClient({ url: 'http://x', fetch: refusing, retryDelayMs: 1 }).request('POST', '/p', { commandId: 'c' })).rejects.toMatchObject({
      status: 422,
      code: 'rule/x',
    });
    expect(n).toBe(1);
  });

  it("waits the 503's Retry-After, then resends the SAME commandId", async () => {
    const sent: { at: number; body: string }[] = [];
    const busy = (async (_url: string, init: RequestInit) => {
      sent.push({ at: Date.now(), body: String(init.body) });
      return sent.length === 1
        ? new Response(JSON.stringify({ code: 'store/unavailable', message: 'busy' }), { status: 503, headers: { 'retry-after': '1' } })
        : new Response(JSON.stringify({ gameId: 'g', version: 4, duplicate: true, events: [] }), { status: 200 });
    }) as unknown as typeof fetch;
    const r = await new ApiClient({ url: 'http://x', fetch: busy, retryDelayMs: 1 }).request<{ duplicate: boolean }>('POST', '/v1/games/g/commands', {
      commandId: 'cli-2',
      command: { type: 'Roll' },
    });
    expect(r.duplicate).toBe(true);
    expect(sent).toHaveLength(2);
    expect(sent[1]!.body).toBe(sent[0]!.body);
    expect(sent[1]!.at - sent[0]!.at).toBeGreaterThanOrEqual(990);
  });
});
