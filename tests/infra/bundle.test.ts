import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { App, Duration, Stack } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { PICTURE_ASSETS } from '../../functions/notify/png.js';
import { engineCatalog } from '../../functions/engine-catalog.js';
import { BUNDLE, HANDLERS, HandlerFunction, entryPath } from '../../infra/handler-function.js';
import { LAMBDA_ENV, buildBundle, engineChunks, servedBytes } from '../support/bundles.js';

/**
 * The real esbuild bundling `cdk synth` does, one handler at a time: the bundle must be ES
 * modules (index.mjs and its chunks) whose served size (index.mjs, its static chunks and the
 * largest engine chunk: what a first command loads) is under the size ceiling
 * (BUNDLE.ceilingBytes; the 400 KB target is the bench's), without the AWS SDK (the Node 22
 * runtime provides it) or nodemailer (mail goes through SES in AWS), with every engine in a
 * chunk of its own (none loaded at a cold start), that loads in Node and exports a `handler`
 * function. A handler whose entry is not written yet is reported as skipped, not passed.
 */
/** The handlers that load games (through functions/engine-catalog.ts). */
const PLAYS_GAMES = new Set(['api', 'picture', 'deadline', 'tournaments']);
const filesUnder = (dir: string, prefix = ''): string[] =>
  readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? filesUnder(dir, join(prefix, d.name)) : [join(prefix, d.name)]));

const outdirs: string[] = [];
afterAll(() => {
  for (const d of outdirs) rmSync(d, { recursive: true, force: true });
});

describe('esbuild bundles', () => {
  for (const name of HANDLERS) {
    const title = `${name} bundles to ES modules under the size ceiling${PLAYS_GAMES.has(name) ? ', each engine a lazy chunk' : ' with no engine'}, that load in plain Node and export handler${name === 'picture' ? ', and draws a PNG from the files beside it' : ''}`;
    it.skipIf(!existsSync(entryPath(name)))(title, () => {
      const outdir = mkdtempSync(join(tmpdir(), `fieldpost-bundle-${name}-`));
      outdirs.push(outdir);
      const app = new App({ outdir, builtinCloudFormationValidation: false });
      const stack = new Stack(app, 'Bundle');
      new HandlerFunction(stack, 'Fn', {
        name,
        description: name,
        memorySize: 128,
        timeout: Duration.seconds(3),
        environment: {},
        logRetention: RetentionDays.ONE_DAY,
        // As the stack does: the picture function reads resvg's WebAssembly and the fonts.
        ...(name === 'picture' ? { assets: PICTURE_ASSETS } : {}),
      });
      app.synth();
      const assets = readdirSync(outdir).filter((d) => d.startsWith('asset.') && statSync(join(outdir, d)).isDirectory());
      expect(assets).toHaveLength(1);
      const dir = join(outdir, assets[0]!);
      const copied = name === 'picture' ? PICTURE_ASSETS.map((a) => a.split('/').pop()!) : [];
      // The asset is what bundleHandler builds (the bench measures that): the same files, the same bytes.
      const layout = buildBundle(entryPath(name), join(outdir, 'rebuilt'));
      const built = filesUnder(join(outdir, 'rebuilt')).sort();
      expect(filesUnder(dir).sort()).toEqual([...built, ...copied].sort());
      for (const f of built) expect(statSync(join(dir, f)).size).toBe(statSync(join(outdir, 'rebuilt', f)).size);
      expect(built.every((f) => f === 'index.mjs' || (f.startsWith('chunks/') && f.endsWith('.mjs')))).toBe(true);
      expect(servedBytes(layout)).toBeLessThanOrEqual(BUNDLE.ceilingBytes);
      // A function that plays games loads no engine at a cold start: each is a chunk of its own.
      expect(engineChunks(layout).length).toBe(PLAYS_GAMES.has(name) ? engineCatalog.ids().length : 0);
      const code = built.map((f) => readFileSync(join(dir, f), 'utf8')).join('\n');
      const atStart = layout.entryFiles.map((f) => readFileSync(f, 'utf8')).join('\n');
      expect(code).not.toMatch(/nodemailer/i);
      // The SDK classes the handlers use are swapped for functions/aws/ (BUNDLE.alias): none of
      // those packages may be imported, and whatever else of the SDK is imported stays outside.
      for (const pkg of Object.keys(BUNDLE.alias)) expect(code).not.toContain(`"${pkg}"`);
      // The notifier delivers webhooks over node:http(s) and node:dns, loaded with the first webhook
      // (functions/notify/wiring.ts), not at a cold start: most notices are mails.
      if (name === 'notifier') {
        for (const builtin of ['node:http', 'node:https', 'node:dns']) {
          expect(atStart).not.toContain(`"${builtin}"`);
          expect(code).toContain(`"${builtin}"`);
        }
      }
      expect(code).not.toMatch(/@smithy\//);
      // No handler loads zod at a cold start (issue 16): the api checks a game's requests with the
      // functions generated from its zod schemas (functions/http/edge.ts), and its game routes,
      // which every game request needs, are in its start (no chunk of their own); the deadline,
      // picture and tournaments functions create no game, club or tournament; an engine brings its
      // own schemas in its chunk.
      expect(atStart).not.toContain('"$ZodType"');
      if (name === 'api') {
        expect(layout.entryModules).toContain('functions/http/routes/games.ts');
        expect(layout.lazy.map((c) => c.source)).toContain('functions/http/routes/clubs.ts');
        // The fair limits count a player's games by the read models' keys (projections/keys.ts)
        // without bringing the read-model store and the projection into the api's start.
        for (const m of ['functions/projections/read-model-store.ts', 'functions/projections/project.ts']) expect(layout.entryModules).not.toContain(m);
        // No module namespace object is built at its start: one read by a computed name (as the
        // edge's checks were, checks[name]) costs a getter per export. esbuild's helper that builds
        // one may be there for the lazy chunks, but the start never calls it.
        const namespaceHelper = /var ([\w$]+)=\([\w$]+,[\w$]+\)=>\{for\(var [\w$]+ in [\w$]+\)[\w$]+\([\w$]+,[\w$]+,\{get:/.exec(atStart)?.[1];
        if (namespaceHelper) expect(atStart).not.toMatch(new RegExp(`[^\\w$.]${namespaceHelper.replace(/\$/g, '\\$')}\\(`));
      }
      // Nothing beside the bundle: no node_modules, not even the AWS SDK the Node 22 runtime brings.

      // A separate plain Node process, as Lambda loads it: no vitest module runner in between,
      // and the handler's module-level setup (clients, env parsing) runs with the stack's env.
      // The picture function also draws a picture there, from the files beside the bundle (no node_modules).
      const draw =
        name === 'picture'
          ? `const png = await m.svgToPng('<svg xmlns="http://www.w3.org/2000/svg" width="60" height="20"><text x="2" y="15" font-size="12">Tiger</text></svg>'); console.log(Buffer.from(png.subarray(1, 4)).toString());`
          : '';
      // Every lazy chunk (engines, the OpenAPI builder) loads there too, as a first request would load it.
      const lazy = layout.lazy
        .map((c) => `await import(${JSON.stringify(pathToFileURL(join(dir, relative(join(outdir, 'rebuilt'), c.file))).href)});`)
        .join(' ');
      const probe = `const m = await import(${JSON.stringify(pathToFileURL(join(dir, 'index.mjs')).href)}); console.log(typeof m.handler); ${lazy} ${draw}`;
      const out = execFileSync(process.execPath, ['--input-type=module', '-e', probe], {
        env: { PATH: process.env['PATH'] ?? '', ...LAMBDA_ENV },
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      expect(out.trim().split('\n')).toEqual(['function', ...(name === 'picture' ? ['PNG'] : [])]);
    });
  }
});
