import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleOptions } from '../../infra/handler-function.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** What a request to the api validates first: a command's body and a game's time control, their messages. */
const probe = (from: (path: string) => string) =>
  [
    `import { commandBody } from ${from('functions/http/schemas.ts')};`,
    `import { timeControlSchema } from ${from('domain/kernel/time-control.ts')};`,
    "const body = commandBody.safeParse({ commandId: 5, command: { type: 'Roll' } });",
    "const clock = timeControlSchema().safeParse({ kind: 'per-move', days: 0 });",
    'console.log(JSON.stringify([...body.error.issues, ...clock.error.issues].map((i) => i.message)));',
  ].join('\n');
const ENGLISH = ['Invalid input: expected string, received number', 'Too small: expected number to be >0'];

/**
 * The schemas a Lambda builds at a cold start use zod/mini (domain/kernel/zod-mini.ts), which
 * sets no locale of its own: in this test process the classic build (loaded by the engines) sets
 * English anyway, so the checks run in a fresh Node process that loads only what a request to
 * the api loads first: from the sources, and bundled as the stack bundles a handler (whose tree
 * shaking must keep domain/kernel/zod-english.ts, package.json `sideEffects`).
 */
describe('zod/mini at the edge', () => {
  it('says what is wrong in English in a process that never loaded the classic build', () => {
    const script = probe((path) => JSON.stringify(`./${path}`));
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: REPO, encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual(ENGLISH);
  });

  it('says it in English from a bundle built as the stack builds one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fieldpost-zod-english-'));
    dirs.push(dir);
    const entry = join(dir, 'entry.ts');
    writeFileSync(entry, `${probe((path) => JSON.stringify(join(REPO, path)))}\nexport const handler = () => undefined;\n`);
    buildSync({ ...bundleOptions(entry, join(dir, 'out')), absWorkingDir: REPO });
    const out = execFileSync(process.execPath, [join(dir, 'out', 'index.mjs')], { encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual(ENGLISH);
  });
});
