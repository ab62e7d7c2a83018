import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The web client shares the kernel, the names and the command explanations with the server. What
 * it imports must run in a browser: a `node:` module there is an empty stand-in from Vite, so code
 * that reached it would fail in the player's browser and nowhere else.
 */
const ROOT = join(import.meta.dirname, '../..');

/** The modules a source file imports for their values (type-only imports are erased). */
function valueImports(text: string): string[] {
  const specs: string[] = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s*)?'([^']+)'/gm)) if (!m[1]) specs.push(m[2]!);
  for (const m of text.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g)) specs.push(m[1]!);
  return specs;
}

function sourceOf(from: string, spec: string): string | undefined {
  const base = resolve(dirname(from), spec);
  return [base, base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx')].find((f) => existsSync(f) && /\.tsx?$/.test(f));
}

/** Every module the entry reaches through value imports, and each `node:` import with the file that makes it. */
function reach(entry: string): { files: Set<string>; nodeImports: string[] } {
  const files = new Set<string>();
  const nodeImports: string[] = [];
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const spec of valueImports(readFileSync(file, 'utf8'))) {
      if (spec.startsWith('node:')) nodeImports.push(`${relative(ROOT, file)} imports ${spec}`);
      else if (spec.startsWith('.')) {
        const next = sourceOf(file, spec);
        if (next) visit(next);
      }
    }
  };
  visit(entry);
  return { files, nodeImports };
}

describe("the web client's code", () => {
  it('imports no Node module, through the kernel and the shared server code it uses too', () => {
    const { files, nodeImports } = reach(join(ROOT, 'web/src/main.tsx'));
    // The walk follows the pages (dynamic imports) into the shared code, so it checks what it should.
    expect([...files].some((f) => f.endsWith('web/src/pages/game.tsx'))).toBe(true);
    expect([...files].some((f) => f.includes('/domain/kernel/'))).toBe(true);
    expect(nodeImports).toEqual([]);
  });

  it('is checked by a walk that finds a Node module imported by a module the entry reaches', () => {
    // The same walk from the inbox routes, which reach the projector (it hashes with node:crypto).
    expect(reach(join(ROOT, 'functions/http/routes/inbox.ts')).nodeImports).toContain('functions/projections/project.ts imports node:crypto');
  });
});
