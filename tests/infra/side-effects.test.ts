import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const { sideEffects } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { sideEffects: string[] };

const sources = (dir: string): string[] =>
  readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? sources(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : [],
  );

/** package.json's patterns: a file, or a folder and everything under it (`/**`). */
const named = (file: string) => sideEffects.some((p) => (p.endsWith('/**') ? `./${file}`.startsWith(p.slice(0, -2)) : `./${file}` === p));

/** Statements that run when the module loads, beyond declaring: a call, an assignment, an `if` or a loop. */
function runsCodeAtLoad(file: string): boolean {
  const source = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  return source.statements.some(
    (s) => ts.isExpressionStatement(s) || ts.isIfStatement(s) || ts.isIterationStatement(s, false) || ts.isTryStatement(s) || ts.isBlock(s),
  );
}

/**
 * package.json `sideEffects` tells esbuild which modules must run when imported even if nothing
 * they export is used; every other module it may leave out of a bundle, or out of the chunk a
 * cold start loads, when its exports are not used there (issue 16: the deadline function's start
 * lost all of zod that way). A module that runs code when it loads and is not named there would
 * silently lose that code in a bundle: this holds the list to the code.
 */
describe('package.json sideEffects', () => {
  it('names every module of domain/ and functions/ that runs code when it loads', () => {
    const running = [...sources('domain'), ...sources('functions')].map((f) => relative(ROOT, join(ROOT, f))).filter(runsCodeAtLoad);
    expect(running.length).toBeGreaterThan(0);
    expect(running.filter((f) => !named(f))).toEqual([]);
  });

  it('names no module that runs nothing when it loads, so the list says what it means', () => {
    const files = sideEffects.filter((p) => !p.endsWith('/**')).map((p) => p.slice(2));
    expect(files.filter((f) => !runsCodeAtLoad(f))).toEqual([]);
  });
});
