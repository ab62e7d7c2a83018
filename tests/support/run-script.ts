import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');
const TSX = join(ROOT, 'node_modules/.bin/tsx');

export interface ScriptRun {
  code: number;
  out: string;
  err: string;
}

/** Runs a TypeScript entry point of the repo (the CLI, the verifier) as a user would, with this environment added. */
export function runScript(script: string, args: readonly string[], env: Record<string, string>): Promise<ScriptRun> {
  return new Promise((done, fail) => {
    const child = spawn(TSX, [script, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', fail);
    child.on('exit', (code) => done({ code: code ?? -1, out, err }));
  });
}
