/**
 * Bench section 6, also on its own: `npm run bench:cold` (`-- --json` for the figures as one
 * JSON object). Every Lambda handler bundled as the stack bundles it (infra/handler-function.ts
 * BUNDLE, the AWS SDK swapped for functions/aws/), and its cold start: a fresh Node process
 * with the Lambda environment that imports the bundle, against one that imports a hello-world
 * bundle built the same way. Nothing is beside a bundle: no node_modules, no SDK. Targets (issue
 * 16): at most 1.3x, at most 400 KB.
 *
 * What the import covers: all of a handler's code and data, every engine it holds, the AWS
 * clients it uses, and its module-level set-up (clients, env parsing). Deferred to the first
 * request that needs it, and so not in these figures: line-of-sight tracing in the
 * spearpoint-1943-map engine (each pair of spaces once, when first asked: about 20 ms of CPU
 * for all 729) and the first TLS connection to each AWS endpoint (the SDK also makes it then).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BUNDLE, HANDLERS, entryPath } from '../../infra/handler-function.js';
import { HELLO_ENTRY, buildBundle, coldStarts } from '../support/bundles.js';

const COLD_RUNS = Number(process.env['BENCH_COLD_RUNS'] ?? 9);
const ms = (x: number) => `${x.toFixed(1).padStart(6)} ms`;

/** Builds, measures and reports; puts its figures in `figures`. False if a bundle is over the ceiling. */
export async function coldStart(say: (line?: string) => void, figures: Record<string, unknown>): Promise<boolean> {
  const dir = mkdtempSync(join(tmpdir(), 'fieldpost-bench-bundles-'));
  try {
    const names = HANDLERS.filter((n) => existsSync(entryPath(n)));
    const files: Record<string, string> = { hello: join(dir, 'hello', 'index.mjs') };
    const bytes: Record<string, number> = { hello: await buildBundle(HELLO_ENTRY, join(dir, 'hello')) };
    for (const n of names) {
      bytes[n] = await buildBundle(entryPath(n), join(dir, n));
      files[n] = join(dir, n, 'index.mjs');
    }
    const cold = coldStarts(files, COLD_RUNS);
    const hello = cold['hello']!;
    const ratio = Object.fromEntries(names.map((n) => [n, cold[n]!.processMs / hello.processMs]));
    const cpuRatio = Object.fromEntries(names.map((n) => [n, cold[n]!.cpuMs / hello.cpuMs]));
    figures['bundleBytes'] = Object.fromEntries(names.map((n) => [n, bytes[n]!]));
    figures['coldStartRatio'] = ratio;
    figures['coldStartCpuRatio'] = cpuRatio;
    figures['coldStartMs'] = Object.fromEntries(Object.entries(cold).map(([n, c]) => [n, c.processMs]));
    figures['coldImportMs'] = Object.fromEntries(Object.entries(cold).map(([n, c]) => [n, c.importMs]));
    say('');
    say(
      `6. Cold start: a fresh Node process importing each Lambda bundle (no SDK beside it), median of ${COLD_RUNS}, against a hello-world bundle built the same way.`,
    );
    say(
      "   The import holds all of a handler's code, engines, AWS clients and module set-up; deferred to a first request: map line-of-sight tracing, TLS connections.",
    );
    say(
      `   hello-world    ${(bytes['hello']! / 1024).toFixed(1).padStart(6)} KB  process ${ms(hello.processMs)}  import ${ms(hello.importMs)}  CPU ${ms(hello.cpuMs)}`,
    );
    for (const n of names) {
      const c = cold[n]!;
      say(
        `   ${n.padEnd(14)} ${(bytes[n]! / 1024).toFixed(1).padStart(6)} KB  process ${ms(c.processMs)}  import ${ms(c.importMs)}  CPU ${ms(c.cpuMs)}  ratio ${ratio[n]!.toFixed(2)}x (CPU ${cpuRatio[n]!.toFixed(2)}x; target 1.3x)${bytes[n]! > BUNDLE.targetBytes ? '  over the 400 KB target' : ''}`,
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
