import { execFileSync } from 'node:child_process';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Metafile } from 'esbuild';
import { bundleHandler } from '../../infra/handler-function.js';

/**
 * Lambda bundles outside CDK, built as the stack builds them (infra/handler-function.ts
 * bundleHandler), and the cold start of each measured in fresh Node
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

/** A lazily loaded chunk: what a dynamic import in the handler loads on first use. */
export interface LazyChunk {
  /** The module it was split from (e.g. domain/spearpoint/engine.ts). */
  readonly source: string;
  /** Its file (importing it imports the chunks it needs). */
  readonly file: string;
  /** The bytes it adds to what the cold start loaded. */
  readonly bytes: number;
}

export interface BundleLayout {
  /** `<outdir>/index.mjs`. */
  readonly index: string;
  /** index.mjs and the chunks it imports statically: what a cold start loads before serving. */
  readonly entryBytes: number;
  /** Those files (absolute paths). */
  readonly entryFiles: readonly string[];
  /** The source modules bundled into them (paths as esbuild's metafile gives them, e.g. functions/http/router.ts). */
  readonly entryModules: readonly string[];
  /** Every dynamic import reachable from the entry, largest first. */
  readonly lazy: readonly LazyChunk[];
  /** Every file esbuild wrote (the deployed asset, less the picture function's copied WebAssembly and fonts). */
  readonly assetBytes: number;
}

/** What index.mjs loads at once and what it loads later, from esbuild's metafile (paths relative to the working directory). */
export function bundleLayout(metafile: Metafile, outdir: string): BundleLayout {
  const outputs = metafile.outputs;
  const index = relative(process.cwd(), join(outdir, 'index.mjs'));
  const closure = (file: string, seen: Set<string>): Set<string> => {
    if (seen.has(file)) return seen;
    seen.add(file);
    for (const i of outputs[file]!.imports) if (i.kind === 'import-statement' && !i.external) closure(i.path, seen);
    return seen;
  };
  const bytesOf = (files: Iterable<string>) => [...files].reduce((sum, f) => sum + outputs[f]!.bytes, 0);
  const entry = closure(index, new Set());
  const dynamic = new Set([...entry].flatMap((f) => outputs[f]!.imports.filter((i) => i.kind === 'dynamic-import' && !i.external).map((i) => i.path)));
  const lazy = [...dynamic].map((file) => {
    const added = [...closure(file, new Set())].filter((f) => !entry.has(f));
    return { source: outputs[file]!.entryPoint ?? file, file: join(process.cwd(), file), bytes: bytesOf(added) };
  });
  return {
    index: join(process.cwd(), index),
    entryBytes: bytesOf(entry),
    entryFiles: [...entry].map((f) => join(process.cwd(), f)),
    entryModules: [...new Set([...entry].flatMap((f) => Object.keys(outputs[f]!.inputs)))],
    lazy: lazy.sort((a, b) => b.bytes - a.bytes),
    assetBytes: bytesOf(Object.keys(outputs)),
  };
}

/** Bundles `entry` into `outdir` as the stack does (infra/handler-function.ts bundleHandler). */
export function buildBundle(entry: string, outdir: string): BundleLayout {
  return bundleLayout(bundleHandler(entry, outdir), outdir);
}

/** The engines' lazy chunks of a bundle (functions/engine-catalog.ts: each `domain/<engine>/engine.ts`), largest first. */
export const engineChunks = (layout: BundleLayout): LazyChunk[] => layout.lazy.filter((c) => /^domain\/[^/]+\/engine\.ts$/.test(c.source));

/**
 * What a cold start loads to serve a request, which issue 16's 400 KB target is judged on:
 * index.mjs, its static chunks and, when the function plays games, the largest engine's chunk
 * (a first command loads one engine).
 */
export const servedBytes = (layout: BundleLayout): number => layout.entryBytes + (engineChunks(layout)[0]?.bytes ?? 0);

export interface ColdStart {
  /** Median wall time of a fresh `node` process that imports the bundle (and the lazy chunks, if any) and exits. */
  readonly processMs: number;
  /** Median time of the imports themselves, measured inside that process. */
  readonly importMs: number;
  /** Median CPU time (user + system) of that whole process: steadier than wall time on a busy machine. */
  readonly cpuMs: number;
}

/**
 * Cold start of each bundle: `runs` fresh Node processes per bundle, taken in turns so a busy
 * machine slows them all alike; the median of each. The probe imports the bundle's index.mjs
 * and checks it exports a handler, then imports each of `lazy` in turn: the chunks a first
 * request loads (an engine's, for a first command). Whatever else a
 * handler defers to its first request is not in it (bench section 6 says what that is).
 */
export function coldStarts(
  bundles: Readonly<Record<string, { readonly index: string; readonly lazy?: readonly string[] }>>,
  runs: number,
): Record<string, ColdStart> {
  const times = new Map<string, { proc: number[]; imp: number[]; cpu: number[] }>(Object.keys(bundles).map((n) => [n, { proc: [], imp: [], cpu: [] }]));
  const env = { PATH: process.env['PATH'] ?? '', ...LAMBDA_ENV };
  for (let r = 0; r < runs; r++) {
    for (const [name, { index, lazy }] of Object.entries(bundles)) {
      const then = (lazy ?? []).map((f) => `await import(${JSON.stringify(pathToFileURL(f).href)});`).join(' ');
      const probe = `const t = performance.now(); const m = await import(${JSON.stringify(pathToFileURL(index).href)}); if (typeof m.handler !== 'function') throw new Error('no handler'); ${then} const c = process.cpuUsage(); console.log(performance.now() - t, (c.user + c.system) / 1000);`;
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
