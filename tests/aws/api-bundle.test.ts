import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { entryPath } from '../../infra/handler-function.js';
import { LAMBDA_ENV, buildBundle } from '../support/bundles.js';
import { freshTable } from '../support/dynamo.js';
import { apiEvent, cid } from '../http/support.js';

/**
 * The api bundle as Lambda runs it (built as the stack builds it, its AWS calls through
 * functions/aws/, nothing beside it), in a plain Node process, playing the start of a
 * Spearpoint game against DynamoDB Local: what the as-bundled tests check piece by piece,
 * end to end through the handler.
 */

const dir = mkdtempSync(join(tmpdir(), 'fieldpost-api-bundle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('the bundled api handler creates, joins and plays a Spearpoint game on DynamoDB Local, a resent command applied once', async () => {
  const { endpoint, tableName } = await freshTable('bundle');
  await buildBundle(entryPath('api'), dir);
  const as = (player: string) => ({ 'cognito:username': player });
  // The game's id is known only in the child process: the steps name it @GAME@.
  const gameId = '@GAME@';
  const steps = [
    apiEvent('POST', `/v1/games/${gameId}/join`, { claims: as('bob'), body: JSON.stringify({ seat: 'de', commandId: 'join-bob-1' }) }),
    apiEvent('POST', `/v1/games/${gameId}/commands`, {
      claims: as('alice'),
      body: JSON.stringify({ command: { type: 'AutoPickHand' }, commandId: 'pick-alice-1' }),
    }),
    apiEvent('POST', `/v1/games/${gameId}/commands`, {
      claims: as('alice'),
      body: JSON.stringify({ command: { type: 'AutoPickHand' }, commandId: 'pick-alice-1' }),
    }),
    apiEvent('GET', `/v1/games/${gameId}`, { claims: as('alice') }),
  ];
  const create = apiEvent('POST', '/v1/games', {
    claims: as('alice'),
    body: JSON.stringify({ engine: 'spearpoint-1943', options: { situation: 'tiger-hunt' }, seat: 'us', commandId: cid() }),
  });
  const script = `
    const { handler } = await import(${JSON.stringify(pathToFileURL(join(dir, 'index.mjs')).href)});
    const out = [];
    const created = await handler(${JSON.stringify(create)});
    out.push({ status: created.statusCode, body: JSON.parse(created.body) });
    const gameId = out[0].body.gameId;
    for (const e of JSON.parse(${JSON.stringify(JSON.stringify(steps))}.replaceAll('@GAME@', gameId))) {
      const r = await handler(e);
      out.push({ status: r.statusCode, body: JSON.parse(r.body) });
    }
    console.log(JSON.stringify(out));`;
  const stdout = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    env: {
      PATH: process.env['PATH'] ?? '',
      ...LAMBDA_ENV,
      TABLE_NAME: tableName,
      DYNAMODB_ENDPOINT: endpoint,
      AWS_REGION: 'local',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
    },
    encoding: 'utf8',
  });
  const out = JSON.parse(stdout) as { status: number; body: { version?: number; view?: unknown; gameId?: string } }[];
  expect(out.map((o) => o.status)).toEqual([201, 200, 200, 200, 200]);
  // The resent command is answered with the same version, not applied twice.
  expect(out[3]!.body.version).toBe(out[2]!.body.version);
  expect(out[4]!.body.view).toBeDefined();
});
