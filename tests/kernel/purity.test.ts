import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/** domain/ is pure: no I/O, no AWS SDK, no clock, no Math.random, no env, nothing from functions/ or infra/. */
const root = join(import.meta.dirname, '..', '..');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

const FORBIDDEN: [RegExp, string][] = [
  [/from\s+['"](node:[^'"]+|fs|path|http|https|crypto|child_process|os|net|zlib)['"/]/, 'a Node I/O module'],
  [/from\s+['"]@aws-sdk\//, 'the AWS SDK'],
  [/from\s+['"]aws-cdk-lib|from\s+['"]constructs['"]/, 'the CDK'],
  [/from\s+['"](\.\.\/)+(functions|infra|tests)\//, 'functions/, infra/ or tests/'],
  [/\bDate\.now\s*\(|\bnew Date\s*\(\s*\)/, 'the clock'],
  [/\bMath\.random\s*\(/, 'Math.random'],
  [/\bprocess\.(env|argv|exit)\b/, 'the process'],
  [/\brequire\s*\(/, 'require'],
  // Ways round the checks above: a dynamic or bare import, the global Web Crypto, other clocks and timers, the network.
  [/\bimport\s*\(|^\s*import\s+['"]/m, 'a dynamic or side-effect import'],
  [/\bcrypto\.(getRandomValues|randomUUID|subtle)\b|\bglobalThis\b/, 'global crypto or globalThis'],
  [/\bperformance\.now\s*\(|(?<!new\s+)\bDate\s*\(\s*\)|\bsetTimeout\s*\(|\bsetInterval\s*\(/, 'another clock or a timer'],
  [/\bfetch\s*\(/, 'the network'],
];

describe('domain purity', () => {
  const domainFiles = files(join(root, 'domain'));
  it('finds the domain sources', () => {
    expect(domainFiles.length).toBeGreaterThan(5);
  });
  it.each(domainFiles.map((f) => [relative(root, f)]))('%s uses no I/O, clock, randomness or outer layers', (rel) => {
    const text = readFileSync(join(root, rel), 'utf8');
    const hits = FORBIDDEN.filter(([re]) => re.test(text)).map(([, what]) => what);
    expect(hits).toEqual([]);
  });
  it('the checker itself catches a violation', () => {
    const sample = "import { readFileSync } from 'node:fs';\nconst t = Date.now();";
    expect(FORBIDDEN.filter(([re]) => re.test(sample)).length).toBe(2);
  });
  it('the checker catches the ways round it', () => {
    const caught = (sample: string) => FORBIDDEN.filter(([re]) => re.test(sample)).map(([, what]) => what);
    expect(caught("const fs = await import('node:fs');")).toEqual(['a dynamic or side-effect import']);
    expect(caught("import 'node:fs';")).toEqual(['a dynamic or side-effect import']);
    expect(caught('const b = crypto.getRandomValues(new Uint8Array(4));')).toEqual(['global crypto or globalThis']);
    expect(caught('const now = Date();')).toEqual(['another clock or a timer']);
    expect(caught('const t = performance.now();')).toEqual(['another clock or a timer']);
    expect(caught("await fetch('https://x');")).toEqual(['the network']);
    // A date built from a value passed in is fine.
    expect(caught('const d = new Date(ctx.now);')).toEqual([]);
  });
});
