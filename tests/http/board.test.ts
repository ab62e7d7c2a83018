import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { registry } from '../../domain/registry.js';
import { startLocalRuntime, type LocalRuntime } from '../../functions/local/runtime.js';
import { boardPictureFrom } from '../../functions/notify/board-picture.js';
import type { OutgoingMail } from '../../functions/notify/mailer.js';
import { Notifier } from '../../functions/notify/notifier.js';
import { DynamoDeliveryLog, DynamoNoticeLedger, DynamoSettingsStore } from '../../functions/notify/stores.js';
import { NOW, turnNotice, verifiedEmail } from '../notify/fixtures.js';
import { isPng, svgProblem } from '../support/svg.js';
import { cid, http } from './support.js';

/**
 * Board pictures over HTTP: GET /v1/games/{id}/board.svg answers the caller's view as SVG under
 * the same seat rules as GET /v1/games/{id}, and a "your move" mail carries the recipient's
 * board as board.png. A real Spearpoint game on this run's DynamoDB Local.
 */
let rt: LocalRuntime;
let api: ReturnType<typeof http>;
const tokens: Record<string, string> = {};
let gameId = '';

const board = async (token: string | undefined, query = '', id = gameId) => {
  const res = await fetch(`${rt.url}/v1/games/${id}/board.svg${query}`, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
};
const handIds = async (token: string, seat: string): Promise<string[]> =>
  ((await api.get(`/v1/games/${gameId}`, token)).body.view.seats[seat].hand as { id: string }[]).map((h) => h.id);

beforeAll(async () => {
  rt = await startLocalRuntime({ memory: true, engines: registry, dynamoEndpoint: inject('dynamoEndpoint'), tableName: `board-${Date.now().toString(36)}` });
  api = http(rt.url);
  for (const p of ['alice', 'bob', 'carol']) tokens[p] = rt.issueToken(p);
  const created = await api.post('/v1/games', tokens['alice'], {
    engine: 'spearpoint-1943',
    options: { situation: 'tiger-hunt' },
    seat: 'us',
    commandId: cid(),
  });
  expect(created.status).toBe(201);
  gameId = created.body.gameId;
  expect((await api.post(`/v1/games/${gameId}/join`, tokens['bob'], { seat: 'de', commandId: cid() })).status).toBe(200);
  for (const p of ['alice', 'bob'])
    expect((await api.post(`/v1/games/${gameId}/commands`, tokens[p], { command: { type: 'AutoPickHand' }, commandId: cid() })).status).toBe(200);
}, 60_000);
afterAll(async () => {
  await rt?.stop();
});

describe('GET /v1/games/{id}/board.svg', () => {
  it("answers each seat's own board as well-formed SVG, showing its own hand and only a count of the other", async () => {
    const alice = await board(tokens['alice']);
    const bob = await board(tokens['bob']);
    for (const b of [alice, bob]) {
      expect(b.status).toBe(200);
      expect(b.type).toBe('image/svg+xml; charset=utf-8');
      expect(await svgProblem(b.text)).toBeUndefined();
      expect(b.text).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*><title id="scene-title">Spearpoint 1943 · seen by /);
    }
    expect(alice.text).toContain('seen by United States');
    expect(bob.text).toContain('seen by Germany');
    const [us, de] = [await handIds(tokens['alice']!, 'us'), await handIds(tokens['bob']!, 'de')];
    expect(us.length).toBe(4);
    for (const id of us) {
      expect(alice.text).toContain(id);
      expect(bob.text).not.toContain(id);
    }
    for (const id of de) {
      expect(bob.text).toContain(id);
      expect(alice.text).not.toContain(id);
    }
    // A spectator sees neither hand.
    const carol = await board(tokens['carol']);
    expect(carol.status).toBe(200);
    expect(carol.text).toContain('spectator');
    for (const id of [...us, ...de]) expect(carol.text).not.toContain(id);
  });

  it('follows the view route: a seat you do not hold is 403, no token 401, an unknown game 404, all as JSON errors', async () => {
    const other = await board(tokens['alice'], '?seat=de');
    expect(other.status).toBe(403);
    expect(JSON.parse(other.text).code).toBe('action/not-your-seat');
    expect((await board(tokens['alice'], '?seat=us')).status).toBe(200);
    expect((await board(undefined)).status).toBe(401);
    const missing = await board(tokens['alice'], '', 'no-such-game');
    expect(missing.status).toBe(404);
    expect(missing.type).toContain('application/json');
  });
});

describe('the "your move" mail', () => {
  it("carries the recipient's board as board.png; other notices carry none", async () => {
    const mails: OutgoingMail[] = [];
    await new DynamoSettingsStore(rt.client, rt.tableName).put('alice', { ...verifiedEmail('alice@example.org'), webhooks: [] });
    const notifier = new Notifier({
      settings: new DynamoSettingsStore(rt.client, rt.tableName),
      ledger: new DynamoNoticeLedger(rt.client, rt.tableName),
      deliveries: new DynamoDeliveryLog(rt.client, rt.tableName),
      mailer: { send: async (m) => void mails.push(m) },
      webhooks: { post: async () => ({ status: 200 }) },
      clock: { now: () => NOW },
      appUrl: 'http://localhost:3000',
      retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1, mode: 'inline' },
      boardPicture: boardPictureFrom(rt.deps.service),
    });
    const about = { gameId, player: 'alice', seats: ['us'], title: 'Frontline General: Spearpoint 1943', engine: 'spearpoint-1943' };
    await notifier.handle({ notice: turnNotice('board', about) });
    await notifier.handle({ notice: turnNotice('board', { ...about, kind: 'started', asked: [] }) });
    expect(mails).toHaveLength(2);
    const [png] = mails[0]!.attachments ?? [];
    expect(png).toMatchObject({ filename: 'board.png', contentType: 'image/png' });
    expect(isPng(png!.content)).toBe(true);
    expect(mails[1]!.attachments).toBeUndefined();
  }, 60_000);

  it('goes out without a picture when the board cannot be read', async () => {
    const logged: string[] = [];
    const picture = boardPictureFrom(rt.deps.service, (msg) => void logged.push(msg));
    expect(await picture(turnNotice('board', { gameId: 'no-such-game', player: 'alice', seats: ['us'] }))).toBeUndefined();
    expect(logged).toEqual(['board picture failed']);
  });
});
