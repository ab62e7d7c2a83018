import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The schemas a Lambda builds at a cold start use zod/mini (domain/kernel/zod-mini.ts), which
 * sets no locale of its own: in this test process the classic build (loaded by the engines) sets
 * English anyway, so the check runs in a fresh Node process that loads only what a request to
 * the api loads first.
 */
describe('zod/mini at the edge', () => {
  it('says what is wrong in English in a process that never loaded the classic build', () => {
    const script = [
      "import { commandBody } from './functions/http/schemas.ts';",
      "import { timeControlSchema } from './domain/kernel/clock.ts';",
      "const body = commandBody.safeParse({ commandId: 5, command: { type: 'Roll' } });",
      "const clock = timeControlSchema().safeParse({ kind: 'per-move', days: 0 });",
      'console.log(JSON.stringify([...body.error.issues, ...clock.error.issues].map((i) => i.message)));',
    ].join('\n');
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: REPO, encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual(['Invalid input: expected string, received number', 'Too small: expected number to be >0']);
  });
});
