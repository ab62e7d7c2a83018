import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { App, Duration, Stack } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { PICTURE_ASSETS } from '../../functions/notify/png.js';
import { BUNDLE, HANDLERS, HandlerFunction, entryPath } from '../../infra/handler-function.js';
import { LAMBDA_ENV } from '../support/bundles.js';

/**
 * The real esbuild bundling `cdk synth` does, one handler at a time: the bundle must be an
 * ES module under the size ceiling (BUNDLE.ceilingBytes; the 400 KB target is the bench's), without the AWS SDK (the Node 22 runtime provides it) or
 * nodemailer (mail goes through SES in AWS), that loads in Node and exports a `handler` function. A handler whose entry is
 * not written yet is reported as skipped, not passed.
 */
const outdirs: string[] = [];
afterAll(() => {
  for (const d of outdirs) rmSync(d, { recursive: true, force: true });
});

describe('esbuild bundles', () => {
  for (const name of HANDLERS) {
    const title = `${name} bundles to an ES module under the size ceiling that loads in plain Node and exports handler${name === 'picture' ? ', and draws a PNG from the files beside it' : ''}`;
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
      expect(readdirSync(dir).sort()).toEqual(['index.mjs', ...copied].sort());
      const code = readFileSync(join(dir, 'index.mjs'), 'utf8');
      expect(code.length).toBeLessThanOrEqual(BUNDLE.ceilingBytes);
      expect(code).not.toMatch(/nodemailer/i);
      // The SDK classes the handlers use are swapped for functions/aws/ (BUNDLE.alias): none of
      // those packages may be imported, and whatever else of the SDK is imported stays outside.
      for (const pkg of Object.keys(BUNDLE.alias)) expect(code).not.toContain(`"${pkg}"`);
      expect(code).not.toMatch(/@smithy\//);
      // Nothing beside the bundle: no node_modules, not even the AWS SDK the Node 22 runtime brings.

      // A separate plain Node process, as Lambda loads it: no vitest module runner in between,
      // and the handler's module-level setup (clients, env parsing) runs with the stack's env.
      // The picture function also draws a picture there, from the files beside the bundle (no node_modules).
      const draw =
        name === 'picture'
          ? `const png = await m.svgToPng('<svg xmlns="http://www.w3.org/2000/svg" width="60" height="20"><text x="2" y="15" font-size="12">Tiger</text></svg>'); console.log(Buffer.from(png.subarray(1, 4)).toString());`
          : '';
      const probe = `const m = await import(${JSON.stringify(pathToFileURL(join(dir, 'index.mjs')).href)}); console.log(typeof m.handler); ${draw}`;
      const out = execFileSync(process.execPath, ['--input-type=module', '-e', probe], {
        env: { PATH: process.env['PATH'] ?? '', ...LAMBDA_ENV },
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      expect(out.trim().split('\n')).toEqual(['function', ...(name === 'picture' ? ['PNG'] : [])]);
    });
  }
});
