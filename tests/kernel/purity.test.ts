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
});
