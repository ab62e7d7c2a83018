import { execFileSync } from 'node:child_process';
import { mkdirSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { BUNDLE, REPO_ROOT } from '../../infra/handler-function.js';

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

/**
 * What the Node 22 Lambda runtime provides besides the bundle: the AWS SDK v3 (BUNDLE.external).
 * `dir/node_modules/@aws-sdk` points at this repository's copy, so a bundle under `dir` resolves
 * the SDK and nothing else.
 */
export function provideSdk(dir: string): void {
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  symlinkSync(join(REPO_ROOT, 'node_modules', '@aws-sdk'), join(dir, 'node_modules', '@aws-sdk'), 'dir');
}

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
}

/**
 * Cold start of each bundle: `runs` fresh Node processes per bundle, taken in turns so a busy
 * machine slows them all alike; the median of each.
 */
export function coldStarts(bundles: Readonly<Record<string, string>>, runs: number): Record<string, ColdStart> {
  const times = new Map<string, { proc: number[]; imp: number[] }>(Object.keys(bundles).map((n) => [n, { proc: [], imp: [] }]));
  const env = { PATH: process.env['PATH'] ?? '', ...LAMBDA_ENV };
  for (let r = 0; r < runs; r++) {
    for (const [name, file] of Object.entries(bundles)) {
      const probe = `const t = performance.now(); const m = await import(${JSON.stringify(pathToFileURL(file).href)}); if (typeof m.handler !== 'function') throw new Error('no handler'); console.log(performance.now() - t);`;
      const t0 = performance.now();
      const out = execFileSync(process.execPath, ['--input-type=module', '-e', probe], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      const t = times.get(name)!;
      t.proc.push(performance.now() - t0);
      t.imp.push(Number(out.trim()));
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
  return Object.fromEntries([...times].map(([n, t]) => [n, { processMs: median(t.proc), importMs: median(t.imp) }]));
}
