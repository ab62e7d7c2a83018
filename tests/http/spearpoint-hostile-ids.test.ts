import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { registry } from '../../domain/registry.js';
import { BUILT_IN_CATALOG } from '../../domain/spearpoint/index.js';
import { startLocalRuntime, type LocalRuntime } from '../../functions/local/runtime.js';
import { cid, http } from './support.js';

/**
 * Regression: a Spearpoint command naming `constructor`, `__proto__`, `toString`,
 * `hasOwnProperty` or `valueOf` as a unit, card, crew or attack id reached Object.prototype
 * through a plain-object lookup and threw, and the API answered 500. Every such id must be
 * refused as a rule violation: a 4xx with a namespaced code.
 *
 * The game is set up so the lookups that used to throw are reachable: the US deck is aircraft
 * and pilots only (an aircraft may target any line), and a club catalog whose Command cards are
 * all Sabotage (a card played on an enemy unit).
 */
const HOSTILE = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];

let rt: LocalRuntime;
let api: ReturnType<typeof http>;
const tokens = {} as Record<'us' | 'de', string>;

beforeAll(async () => {
  rt = await startLocalRuntime({
    memory: true,
    engines: registry,
    dynamoEndpoint: inject('dynamoEndpoint'),
    tableName: `sp-hostile-${Date.now().toString(36)}`,
  });
  api = http(rt.url);
  for (const [seat, player] of [
    ['us', 'alice'],
    ['de', 'bob'],
  ] as const) {
    const r = await api.post('/local/token', undefined, { player });
    tokens[seat] = r.body.token as string;
  }
});
afterAll(async () => {
  await rt?.stop();
});

const sabotage = BUILT_IN_CATALOG.commandCards.find((c) => c.title === 'Sabotage')!;
const catalog = { ...BUILT_IN_CATALOG, commandCards: BUILT_IN_CATALOG.commandCards.map((c) => ({ ...sabotage, id: c.id })) };
const cost = (id: string) => BUILT_IN_CATALOG.units.find((u) => u.id === id)!.cost;
const pairs = Math.ceil(80 / (cost('us-p40-warhawk') + cost('us-pilot')));
const usDeck = Array.from({ length: pairs }, () => ['us-p40-warhawk', 'us-pilot']).flat();

describe('Spearpoint over HTTP: Object.prototype names as ids', () => {
  it('are refused with 4xx and a code in every id field, in the muster, the commitment and the target declaration', async () => {
    const created = await api.post('/v1/games', tokens.us, {
      engine: 'spearpoint-1943',
      options: { catalog, us: { cards: usDeck }, maxTurns: 3 },
      seat: 'us',
      commandId: cid('create'),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const gameId = created.body.gameId as string;
    expect((await api.post(`/v1/games/${gameId}/join`, tokens.de, { commandId: cid('join') })).status).toBe(200);

    const mine = async (seat: 'us' | 'de') => (await api.get(`/v1/games/${gameId}`, tokens[seat])).body;
    const send = (seat: 'us' | 'de', command: unknown) => api.post(`/v1/games/${gameId}/commands`, tokens[seat], { commandId: cid(seat), command });
    const refusedEverywhere = async (phase: string, commands: (x: string) => object[]) => {
      for (const x of HOSTILE) {
        for (const command of commands(x)) {
          const r = await send('us', command);
          expect(r.status, `${phase}: ${JSON.stringify(command)} → ${r.status} ${JSON.stringify(r.body)}`).toBeGreaterThanOrEqual(400);
          expect(r.status, `${phase}: ${JSON.stringify(command)}`).toBeLessThan(500);
          expect(r.body.code, `${phase}: ${JSON.stringify(command)}`).toMatch(/^[a-z-]+\/[a-z-]+$/);
        }
      }
    };
    // Every id field of every command, whatever the phase.
    const everyField = (x: string, card: string, unit: string) => [
      { type: 'PickStartingUnit', card: x },
      { type: 'CommitUnit', unit: x },
      { type: 'CommitUnit', unit, crew: x },
      { type: 'ReplaceCrew', crew: x, unit: x },
      { type: 'MoveCrew', from: x, to: unit },
      { type: 'MoveCrew', from: unit, to: x },
      { type: 'MoveLine', unit: x, line: 'front' },
      { type: 'PlayCommandCard', card: x },
      { type: 'PlayCommandCard', card, target: x },
      { type: 'PlayCommandCard', card, target: unit, boostWith: x },
      { type: 'DeclareAttack', attacker: x, target: unit, weapons: [0] },
      { type: 'DeclareAttack', attacker: unit, target: x, weapons: [0] },
      { type: 'JoinCloseAssault', attacker: unit, target: x },
      { type: 'SealOrder', initiativeBoost: x },
      { type: 'SealOrder', steps: [{ type: 'DeclareAttack', attacker: unit, target: x, weapons: [0] }] },
      { type: 'ResolveAttack', attackId: x },
      { type: 'ChooseFriendlyFireVictim', unit: x },
      { type: 'DiscardUnit', card: x },
      { type: 'DiscardCommand', card: x },
    ];

    let us = await mine('us');
    const card0 = us.view.seats.us.commands[0].id as string;
    await refusedEverywhere('muster', (x) => everyField(x, card0, 'us-001'));
    for (const seat of ['us', 'de'] as const) expect((await send(seat, { type: 'AutoPickHand' })).status).toBe(200);

    us = await mine('us');
    const commits = (us.legalCommands as { type: string }[]).filter((c) => c.type === 'CommitUnit');
    expect(commits.length).toBeGreaterThan(0);
    const aircraft = (commits[0] as unknown as { unit: string }).unit;
    await refusedEverywhere('commitment', (x) => everyField(x, card0, aircraft));
    for (let next = commits[0]; next;) {
      expect((await send('us', next)).status).toBe(200);
      next = ((await mine('us')).legalCommands as { type: string }[]).find((c) => c.type === 'CommitUnit');
    }
    expect((await send('us', { type: 'SealOrder' })).status).toBe(200);
    expect((await send('de', { type: 'SealOrder' })).status).toBe(200);

    us = await mine('us');
    expect(us.view.phase).toBe('declaration');
    expect(us.view.battleArea.us.air.map((u: { id: string }) => u.id)).toContain(aircraft);
    // An aircraft may target any line, and Sabotage is played on an enemy: both lookups used to reach Object.prototype.
    await refusedEverywhere('declaration', (x) => everyField(x, card0, aircraft));
  }, 120_000);
});
