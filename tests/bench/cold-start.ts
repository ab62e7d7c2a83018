/**
 * Bench section 6, also on its own: `npm run bench:cold` (`-- --json` for the figures as one
 * JSON object). Every Lambda handler bundled as the stack bundles it (infra/handler-function.ts
 * BUNDLE, the AWS SDK swapped for functions/aws/), and its cold start: a fresh Node process
 * with the Lambda environment that imports the bundle, against one that imports a hello-world
 * bundle built the same way. Nothing is beside a bundle: no node_modules, no SDK. Targets (issue
 * 16): at most 1.3x, at most 400 KB.
 *
 * What the import covers: all of a handler's code and data (in the api with its game routes,
 * which every game request needs), the AWS clients it uses, and its module-level set-up
 * (clients, env parsing); "+ engine" adds an engine's chunk. Deferred to the first
 * request that needs it, and so not in these figures: line-of-sight tracing in the
 * spearpoint-1943-map engine (each pair of spaces once, when first asked: about 20 ms of CPU
 * for all 729) and the first TLS connection to each AWS endpoint (the SDK also makes it then).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BUNDLE, HANDLERS, entryPath } from '../../infra/handler-function.js';
import { HELLO_ENTRY, buildBundle, coldStarts, engineChunks, servedBytes, type BundleLayout } from '../support/bundles.js';

/**
 * Fresh processes per bundle (medians). With 9, five runs in four minutes on an idle 2-core
 * machine put a 36 KB bundle anywhere from 1.11x to 1.46x; with 21, three runs in a row stayed
 * within 0.08 of each other for every bundle but one (0.18). About 30 s more for the section.
 */
const COLD_RUNS = Number(process.env['BENCH_COLD_RUNS'] ?? 21);
const ms = (x: number) => `${x.toFixed(1).padStart(6)} ms`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1).padStart(6)} KB`;

/** Builds, measures and reports; puts its figures in `figures`. False if a bundle is over the ceiling. */
export async function coldStart(say: (line?: string) => void, figures: Record<string, unknown>): Promise<boolean> {
  const dir = mkdtempSync(join(tmpdir(), 'fieldpost-bench-bundles-'));
  try {
    const names = HANDLERS.filter((n) => existsSync(entryPath(n)));
    const layouts: Record<string, BundleLayout> = { hello: buildBundle(HELLO_ENTRY, join(dir, 'hello')) };
    for (const n of names) layouts[n] = buildBundle(entryPath(n), join(dir, n));
    // Each bundle, and each with one of its engines' chunks loaded after it: a first command's cold start.
    const probes: Record<string, { index: string; lazy: string[] }> = {};
    for (const [n, layout] of Object.entries(layouts)) {
      probes[n] = { index: layout.index, lazy: [] };
      for (const chunk of engineChunks(layout)) probes[`${n}+${chunk.source}`] = { index: layout.index, lazy: [chunk.file] };
    }
    const cold = coldStarts(probes, COLD_RUNS);
    const hello = cold['hello']!;
    /** The slowest engine's first load in each function that plays games. */
    const slowest = Object.fromEntries(
      names.flatMap((n) => {
        const withEngine = engineChunks(layouts[n]!).map((c) => ({ engine: c.source, ...cold[`${n}+${c.source}`]! }));
        return withEngine.length ? [[n, withEngine.sort((a, b) => b.processMs - a.processMs)[0]!]] : [];
      }),
    );
    const ratio = Object.fromEntries(names.map((n) => [n, cold[n]!.processMs / hello.processMs]));
    const cpuRatio = Object.fromEntries(names.map((n) => [n, cold[n]!.cpuMs / hello.cpuMs]));
    const bytes = Object.fromEntries(names.map((n) => [n, servedBytes(layouts[n]!)]));
    figures['bundleBytes'] = bytes;
    figures['bundleEntryBytes'] = Object.fromEntries(names.map((n) => [n, layouts[n]!.entryBytes]));
    figures['bundleAssetBytes'] = Object.fromEntries(names.map((n) => [n, layouts[n]!.assetBytes]));
    figures['coldStartRatio'] = ratio;
    figures['coldStartCpuRatio'] = cpuRatio;
    figures['coldStartFirstEngineRatio'] = Object.fromEntries(Object.entries(slowest).map(([n, c]) => [n, c.processMs / hello.processMs]));
    figures['coldStartFirstEngineCpuRatio'] = Object.fromEntries(Object.entries(slowest).map(([n, c]) => [n, c.cpuMs / hello.cpuMs]));
    figures['coldStartMs'] = Object.fromEntries(Object.entries(cold).map(([n, c]) => [n, c.processMs]));
    figures['coldImportMs'] = Object.fromEntries(Object.entries(cold).map(([n, c]) => [n, c.importMs]));
    say('');
    say(
      `6. Cold start: a fresh Node process importing each Lambda bundle (no SDK beside it), median of ${COLD_RUNS}, against a hello-world bundle built the same way.`,
    );
    say(
      "   The import holds all of a handler's code, AWS clients and module set-up but no engine: each engine is a chunk loaded when a game of it is first touched,",
    );
    say("   and the api's route modules other than the game routes (which every game request needs) are chunks loaded by the first request they serve;");
    say(
      '   shown as "+ engine" (the slowest one). Served: index.mjs and its static chunks plus the largest engine chunk, what a first command loads; asset: every file.',
    );
    say(`   hello-world    ${kb(layouts['hello']!.entryBytes)}  process ${ms(hello.processMs)}  import ${ms(hello.importMs)}  CPU ${ms(hello.cpuMs)}`);
    for (const n of names) {
      const c = cold[n]!;
      const layout = layouts[n]!;
      say(
        `   ${n.padEnd(14)} ${kb(bytes[n]!)} served (${kb(layout.entryBytes).trim()} at start, ${kb(layout.assetBytes).trim()} asset)  process ${ms(c.processMs)}  import ${ms(c.importMs)}  CPU ${ms(c.cpuMs)}  ratio ${ratio[n]!.toFixed(2)}x (CPU ${cpuRatio[n]!.toFixed(2)}x; target 1.3x)${bytes[n]! > BUNDLE.targetBytes ? '  over the 400 KB target' : ''}`,
      );
      const e = slowest[n];
      if (e)
        say(
          `   ${''.padEnd(14)} + engine ${e.engine}: process ${ms(e.processMs)}  import ${ms(e.importMs)}  CPU ${ms(e.cpuMs)}  ratio ${(e.processMs / hello.processMs).toFixed(2)}x (CPU ${(e.cpuMs / hello.cpuMs).toFixed(2)}x)`,
        );
    }
    return names.every((n) => bytes[n]! <= BUNDLE.ceilingBytes);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const json = process.argv.includes('--json');
  const figures: Record<string, unknown> = {};
  const ok = await coldStart((line = '') => (json ? console.error(line) : console.log(line)), figures);
  if (json) console.log(JSON.stringify(figures));
  if (!ok) console.error(`FAIL: a Lambda bundle is over the ${BUNDLE.ceilingBytes / 1024} KB ceiling`);
  process.exitCode = ok ? 0 : 1;
}
