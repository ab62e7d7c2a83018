import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { AnyEngine, Viewer } from '../../domain/kernel/index.js';
import { registry } from '../../domain/registry.js';
import { viewSchemasSource } from '../../functions/http/api-types.js';
import { OPENAPI_PATH } from '../../functions/http/router.js';
import viewSchemas from '../../functions/http/view-schemas.json' with { type: 'json' };
import { generateViewSchemas, VIEW_SCHEMAS_FILE, VIEW_SOURCES } from '../../functions/http/view-schemas.js';
import { startLocalRuntime, type LocalRuntime } from '../../functions/local/runtime.js';
import { view as viewShapes } from '../fixtures/view-shapes.js';
import { MemoryGame } from '../kernel/play.js';
import { contractChecker } from '../support/contract-checker.js';
import { seeded } from '../support/seeded.js';
import { cid, http } from './support.js';

const schemas = viewSchemas.engines as Record<string, object>;
const ajv = new Ajv2020({ strict: false, allErrors: true });
const validatorOf = (id: string) => ajv.getSchema(id) ?? (ajv.addSchema(schemas[id]!, id), ajv.getSchema(id)!);
/** The view as the server sends it: through JSON. */
const wire = (v: unknown): unknown => JSON.parse(JSON.stringify(v));
const problems = (id: string, view: unknown): string | undefined => {
  const v = validatorOf(id);
  return v(wire(view)) ? undefined : ajv.errorsText(v.errors, { dataVar: 'view' });
};
const sceneValidator = ajv.compile(viewSchemas.scene);
const sceneProblems = (scene: unknown): string | undefined =>
  sceneValidator(wire(scene)) ? undefined : ajv.errorsText(sceneValidator.errors, { dataVar: 'scene' });

describe("each engine's view schema", () => {
  it('exists for every engine the server serves, and is what the view types make now (npm run api-types)', () => {
    expect(Object.keys(VIEW_SOURCES).sort()).toEqual(registry.ids().sort());
    expect(Object.keys(schemas).sort()).toEqual(registry.ids().sort());
    expect(readFileSync(VIEW_SCHEMAS_FILE, 'utf8')).toBe(viewSchemasSource(generateViewSchemas()));
  });

  /**
   * Random legal games of every scenario of every engine: each seat's and a spectator's view after
   * every command, and the auditor's at the end, match the engine's schema. What a type cannot
   * promise (a value JSON writes differently) would show here.
   */
  const games = registry.ids().flatMap((id) => {
    const engine = registry.get(id)!;
    const scenarios = engine.listing.scenarios;
    const options: Record<string, unknown>[] = scenarios ? scenarios.choices.map((c) => ({ [scenarios.option]: c.id })) : [{}];
    // Front Line's four-seat Allies game has views of its own (two battlefields).
    if (id === 'front-line') options.push({ allies: true });
    return options.map((o) => [id, o] as const);
  });
  it.each(games)('%s %j: every view (and its picture) of a random legal game matches', (id, options) => {
    const checked = playChecking(registry.get(id)!, options, (view, who, scene) => {
      const p = problems(id, view) ?? (scene === undefined ? undefined : sceneProblems(scene));
      if (p) throw new Error(`${id} ${JSON.stringify(options)} ${who}: ${p}`);
    });
    expect(checked).toBeGreaterThan(10);
  });

  it('refuses a view that breaks its schema: a key missing, a key it does not have, a value of the wrong type, another engine’s view', () => {
    for (const id of registry.ids()) {
      const engine = registry.get(id)!;
      let view: Record<string, unknown> | undefined;
      playChecking(engine, {}, (v) => (view = wire(v) as Record<string, unknown>), 3);
      expect(problems(id, view), id).toBeUndefined();
      const [first, value] = Object.entries(view!).find(([k]) => ((schemas[id] as { required: string[] }).required ?? []).includes(k))!;
      const { [first]: _gone, ...missing } = view!;
      expect(problems(id, missing), `${id} without ${first}`).toMatch(new RegExp(`must have required property '${first}'`));
      expect(problems(id, { ...view, extra: 1 }), `${id} with extra`).toMatch(/must NOT have additional properties/);
      expect(problems(id, { ...view, [first]: typeof value === 'string' ? 7 : 'seven' }), `${id} ${first} of the wrong type`).toMatch(
        new RegExp(`view/${first}`),
      );
      for (const other of registry.ids().filter((o) => o !== id)) expect(problems(other, view), `${id}'s view as ${other}'s`).toBeDefined();
    }
  });
  it("takes a window's default answer as the command it is: its fields beside `type` are the engine's command's", () => {
    const view = (() => {
      let v: Record<string, unknown> | undefined;
      playChecking(registry.get('spearpoint-1943')!, {}, (x) => (v = wire(x) as Record<string, unknown>), 3);
      return v!;
    })();
    const [entry] = view['pending'] as Record<string, unknown>[];
    const withWindow = (dflt: unknown) => ({
      ...view,
      pending: [{ ...entry, window: { id: 'opfire-1', topic: 'opportunity-fire', blocking: true, default: dflt } }],
    });
    expect(problems('spearpoint-1943', withWindow({ type: 'PassOpportunityFire', window: 'opfire-1' }))).toBeUndefined();
    expect(problems('spearpoint-1943', withWindow({ window: 'opfire-1' }))).toMatch(/must have required property 'type'/);
  });
});

describe('the reply check of every end-to-end test validates the view against its engine', () => {
  let rt: LocalRuntime;
  beforeAll(async () => {
    rt = await startLocalRuntime({ memory: true, dynamoEndpoint: inject('dynamoEndpoint'), tableName: `views-${Date.now().toString(36)}`, extensions: [] });
  });
  afterAll(async () => {
    await rt?.stop();
  });

  it('passes the served view of a real game, and fails it once the view breaks its schema', async () => {
    const api = http(rt.url);
    const alice = rt.issueToken('alice');
    const created = await api.post('/v1/games', alice, { engine: 'front-line', seat: 'green', commandId: cid('create') });
    expect(created.status).toBe(201);
    const gameId = created.body.gameId as string;
    expect((await api.post(`/v1/games/${gameId}/join`, rt.issueToken('bob'), { seat: 'red', commandId: cid('join') })).status).toBe(200);
    // This fetch already went through the check (tests/support/contract.ts): the view matched front-line's schema.
    const got = await api.get(`/v1/games/${gameId}`, alice);
    expect(got.status).toBe(200);
    expect(got.body.summary.engine).toBe('front-line');

    const check = contractChecker((await (await fetch(`${rt.url}${OPENAPI_PATH}`)).json()) as Parameters<typeof contractChecker>[0]);
    const path = `/v1/games/${gameId}`;
    const as = (body: unknown) => check.check('GET', path, 200, 'application/json', JSON.stringify(body));
    expect(as(got.body)).toBeUndefined();
    expect(as({ ...got.body, view: { ...got.body.view, round: 'one' } })).toMatch(
      /the view does not match front-line's view schema: view\/round must be number/,
    );
    const { phase: _p, ...noPhase } = got.body.view;
    expect(as({ ...got.body, view: noPhase })).toMatch(/front-line's view schema: view must have required property 'phase'/);
    // The picture is the kernel's Scene, checked with the rest of the reply.
    expect(got.body.scene).toBeDefined();
    expect(as({ ...got.body, scene: { ...got.body.scene, title: 7 } })).toMatch(/does not match the document: data\/scene\/title must be string/);
    // A view of another engine's shape, under this game's engine, is refused too.
    expect(as({ ...got.body, summary: { ...got.body.summary, engine: 'action-front' } })).toMatch(/does not match action-front's view schema/);
  });
});

/** Plays random legal commands (up to `limit`), calling `see` with every viewer's view (and scene) after each; returns how many views it saw. */
function playChecking(engine: AnyEngine, options: Record<string, unknown>, see: (view: unknown, who: string, scene?: unknown) => void, limit = 300): number {
  const g = new MemoryGame(engine, 'b5'.repeat(32), 'views');
  const created = g.create(options);
  if (!created.ok) throw new Error(JSON.stringify(created.error));
  const seats = engine.seats(engine.optionsSchema.parse(options)).map((s) => s.id);
  const players = new Map(seats.map((s, i) => [s, `p${i}`]));
  for (const seat of seats) g.join(players.get(seat)!, seat);
  const random = seeded(seats.length * 7919 + JSON.stringify(options).length);
  let seen = 0;
  const look = (viewer: Viewer, who: string) => {
    see(engine.view(g.state!.game, viewer), who, engine.scene?.(g.state!.game, viewer));
    seen++;
  };
  for (let n = 0; n < limit; n++) {
    for (const seat of seats) look({ kind: 'seat', seat }, seat);
    look({ kind: 'spectator' }, 'spectator');
    if (engine.outcome(g.state!.game)) break;
    const open = seats.flatMap((seat) => engine.legalCommands(g.state!.game, seat).map((c: unknown) => [seat, c] as const));
    if (open.length === 0) break;
    const [seat, command] = open[Math.floor(random() * open.length)]!;
    g.play(players.get(seat)!, command);
  }
  look({ kind: 'auditor' }, 'auditor');
  return seen;
}

describe('the generator (a view type walked member by member)', () => {
  const { engines } = generateViewSchemas(process.cwd(), { shapes: 'tests/fixtures/view-shapes.ts' });
  const shapes = engines['shapes'] as { properties: Record<string, unknown>; required: string[]; additionalProperties: unknown };

  it('writes each member as JSON carries it: what may be undefined is optional, nothing else is allowed', () => {
    expect(shapes.additionalProperties).toBe(false);
    expect(shapes.required).toEqual(['bySide', 'count', 'either', 'fixed', 'free', 'list', 'maybe', 'nothing', 'on', 'pair', 'side', 'text', 'yes']);
    expect(shapes.properties).toMatchObject({
      text: { type: 'string' },
      count: { type: 'number' },
      on: { type: 'boolean' },
      yes: { const: true },
      side: { enum: expect.arrayContaining(['us', 'de']) },
      nothing: { type: 'null' },
      maybe: { anyOf: expect.arrayContaining([{ type: 'null' }, { type: 'string' }]) },
      gone: { type: 'string' },
      extra: { type: 'number' },
      list: { type: 'array', items: { type: 'number' } },
      pair: { type: 'array', prefixItems: [{ enum: expect.arrayContaining(['us', 'de']) }, { type: 'number' }], minItems: 2, maxItems: 2 },
      bySide: { type: 'object', additionalProperties: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'], additionalProperties: false } },
      fixed: { type: 'object', required: ['de', 'us'], additionalProperties: false },
      free: {},
    });
    const either = shapes.properties['either'] as { anyOf: { properties: { kind: unknown } }[] };
    expect(either.anyOf.map((x) => x.properties.kind)).toEqual(expect.arrayContaining([{ const: 'a' }, { const: 'b' }]));
  });

  it('accepts what the function returns and refuses what it cannot', () => {
    const check = ajv.compile(shapes);
    for (const flag of [true, false]) expect(check(wire(viewShapes(flag, 'us'))), ajv.errorsText(check.errors)).toBe(true);
    expect(check({ ...(wire(viewShapes(true, 'de')) as object), side: 'fr' })).toBe(false);
    expect(check({ ...(wire(viewShapes(true, 'de')) as object), either: { kind: 'a', b: 'x' } })).toBe(false);
  });
});
