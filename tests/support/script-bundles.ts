import { mkdirSync, rmSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { build } from 'esbuild';

// Not run-script.ts's ROOT: that module imports vitest's inject, which the global setup cannot load.
const ROOT = resolve(import.meta.dirname, '../..');

/** The entry points the tests run as a user would, through `npm run cli` and `npm run verify`. */
const SCRIPTS = ['functions/cli/main.ts', 'functions/cli/verify.ts'] as const;

/**
 * Bundles each script once per test run (the global setup calls this), so a test's terminal
 * command costs a plain Node start, not tsx compiling the CLI's module graph again in every
 * child: about 0.25 s of CPU a run against 1.5 s. The same esbuild that tsx uses does the
 * transform; packages stay in node_modules, found from the bundles' folder under it.
 */
export async function bundleScripts(): Promise<{ readonly files: Record<string, string>; readonly remove: () => void }> {
  const dir = join(ROOT, 'node_modules/.cache/fieldpost-scripts', String(process.pid));
  mkdirSync(dir, { recursive: true });
  const files: Record<string, string> = {};
  for (const script of SCRIPTS) {
    const file = join(dir, `${basename(script, '.ts')}.mjs`);
    await build({
      entryPoints: [join(ROOT, script)],
      outfile: file,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      logLevel: 'warning',
    });
    files[script] = file;
  }
  return { files, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
