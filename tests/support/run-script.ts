import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { inject } from 'vitest';

export const ROOT = resolve(import.meta.dirname, '../..');
const TSX = join(ROOT, 'node_modules/.bin/tsx');

export interface ScriptRun {
  code: number;
  out: string;
  err: string;
}

/**
 * Runs a TypeScript entry point of the repo (the CLI, the verifier) as a user would, with this
 * environment added: from this run's bundle of it (tests/support/script-bundles.ts), or through tsx when it is given a TypeScript
 * module to load (`verify --engines x.ts`), which only tsx can import.
 */
export function runScript(script: string, args: readonly string[], env: Record<string, string>): Promise<ScriptRun> {
  const loadsTypeScript = [...args, ...Object.values(env)].some((v) => v.endsWith('.ts'));
  const bundle = inject('scriptBundles')[script];
  const [command, argv] = bundle && !loadsTypeScript ? [process.execPath, [bundle, ...args]] : [TSX, [script, ...args]];
  return new Promise((done, fail) => {
    const child = spawn(command, argv, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', fail);
    child.on('exit', (code) => done({ code: code ?? -1, out, err }));
  });
}
