import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { BUNDLE } from '../../infra/handler-function.js';

/**
 * Lambda bundles outside CDK, built with the same esbuild settings NodejsFunction uses
 * (infra/handler-function.ts BUNDLE), and the cold start of each measured in fresh Node
 * processes, as Lambda loads it: the bench and the bundle test share these.
 */

/** The environment a deployed function starts with (values are placeholders; nothing is called). */
export const LAMBDA_ENV: Readonly<Record<string, string>> = {
  TABLE_NAME: 'fieldpost-bundle-test',
  NOTIFY_QUEUE_URL: 'https://sqs.eu-west-1.amazonaws.com/123456789012/notify.fifo',
  NOTIFY_RETRY_QUEUE_URL: 'https://sqs.eu-west-1.amazonaws.com/123456789012/notify-retry',
  MAIL_FROM: 'turns@example.org',
  APP_URL: 'https://fieldpost.example.org',
  AUTH_MODE: 'cognito',
  AWS_REGION: 'eu-west-1',
  // The SDK's "upgrade to Node 22" notice on Node 20 is not part of a cold start.
  NODE_NO_WARNINGS: '1',
};

/** A handler that does nothing: the floor every bundle's cold start is compared with. */
export const HELLO_ENTRY = fileURLToPath(new URL('../bench/hello-handler.ts', import.meta.url));

/** Bundles `entry` to `<outdir>/index.mjs` as the stack does; returns its size in bytes. */
export async function buildBundle(entry: string, outdir: string): Promise<number> {
  const outfile = join(outdir, 'index.mjs');
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: BUNDLE.target,
    mainFields: [...BUNDLE.mainFields],
    banner: { js: BUNDLE.banner },
    external: [...BUNDLE.external],
    alias: { ...BUNDLE.alias },
    minify: true,
    outfile,
    logLevel: 'error',
  });
  return statSync(outfile).size;
}

export interface ColdStart {
  /** Median wall time of a fresh `node` process that imports the bundle and exits. */
  readonly processMs: number;
  /** Median time of the import itself, measured inside that process. */
  readonly importMs: number;
  /** Median CPU time (user + system) of that whole process: steadier than wall time on a busy machine. */
  readonly cpuMs: number;
}

/**
 * Cold start of each bundle: `runs` fresh Node processes per bundle, taken in turns so a busy
 * machine slows them all alike; the median of each. The probe imports the bundle and checks it
 * exports a handler; whatever a handler defers to its first request is not in it (bench
 * section 6 says what that is).
 */
export function coldStarts(bundles: Readonly<Record<string, string>>, runs: number): Record<string, ColdStart> {
  const times = new Map<string, { proc: number[]; imp: number[]; cpu: number[] }>(Object.keys(bundles).map((n) => [n, { proc: [], imp: [], cpu: [] }]));
  const env = { PATH: process.env['PATH'] ?? '', ...LAMBDA_ENV };
  for (let r = 0; r < runs; r++) {
    for (const [name, file] of Object.entries(bundles)) {
      const probe = `const t = performance.now(); const m = await import(${JSON.stringify(pathToFileURL(file).href)}); if (typeof m.handler !== 'function') throw new Error('no handler'); const c = process.cpuUsage(); console.log(performance.now() - t, (c.user + c.system) / 1000);`;
      const t0 = performance.now();
      const out = execFileSync(process.execPath, ['--input-type=module', '-e', probe], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      const t = times.get(name)!;
      t.proc.push(performance.now() - t0);
      const [imp, cpu] = out.trim().split(' ').map(Number);
      t.imp.push(imp!);
      t.cpu.push(cpu!);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
  return Object.fromEntries([...times].map(([n, t]) => [n, { processMs: median(t.proc), importMs: median(t.imp), cpuMs: median(t.cpu) }]));
}
