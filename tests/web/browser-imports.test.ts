import { existsSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The web client shares the kernel, the names and the command explanations with the server. What
 * it imports must run in a browser: a `node:` module there is an empty stand-in from Vite, so code
 * that reached it would fail in the player's browser and nowhere else.
 */
const ROOT = join(import.meta.dirname, '../..');

/** The modules a source file imports for their values: `import type` and `export type` are erased, every other import stays. */
function valueImports(file: string): string[] {
  const source = ts.createSourceFile(
    file,
    readFileSync(file, 'utf8'),
    ts.ScriptTarget.Latest,
    false,
    file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const specs: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && !node.importClause?.isTypeOnly && ts.isStringLiteral(node.moduleSpecifier)) specs.push(node.moduleSpecifier.text);
    if (ts.isExportDeclaration(node) && !node.isTypeOnly && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier))
      specs.push(node.moduleSpecifier.text);
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0]))
      specs.push(node.arguments[0].text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return specs;
}

/** The file a relative import names, as the bundler resolves it (a .js name may stand for a .ts or .tsx source). */
function sourceOf(from: string, spec: string): string | undefined {
  const base = resolve(dirname(from), spec);
  return [base, base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx')].find((f) => existsSync(f) && statSync(f).isFile());
}

const isNodeModule = (spec: string) => spec.startsWith('node:') || builtinModules.includes(spec);

/** Every module the entry reaches through value imports; each Node module imported, and each relative import that names no file, with the file that makes it. */
function reach(entry: string): { files: Set<string>; nodeImports: string[]; unresolved: string[] } {
  const files = new Set<string>();
  const nodeImports: string[] = [];
  const unresolved: string[] = [];
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    if (!/\.tsx?$/.test(file)) return;
    for (const spec of valueImports(file)) {
      if (isNodeModule(spec)) nodeImports.push(`${relative(ROOT, file)} imports ${spec}`);
      else if (spec.startsWith('.')) {
        const next = sourceOf(file, spec);
        if (next) visit(next);
        else unresolved.push(`${relative(ROOT, file)} imports ${spec}`);
      }
    }
  };
  visit(entry);
  return { files, nodeImports, unresolved };
}

describe("the web client's code", () => {
  it('imports no Node module, through the kernel and the shared server code it uses too', () => {
    const { files, nodeImports, unresolved } = reach(join(ROOT, 'web/src/main.tsx'));
    // The walk follows the pages (dynamic imports) into the shared code, so it checks what it should.
    expect([...files].some((f) => f.endsWith('web/src/pages/game.tsx'))).toBe(true);
    expect([...files].some((f) => f.includes('/domain/kernel/'))).toBe(true);
    expect(nodeImports).toEqual([]);
    // An import the walk cannot follow would hide what is behind it.
    expect(unresolved).toEqual([]);
  });

  it('is checked by a walk that finds a Node module imported by a module the entry reaches, with or without node:', () => {
    // The same walk from the inbox routes, which reach the projector (it hashes with node:crypto).
    expect(reach(join(ROOT, 'functions/http/routes/inbox.ts')).nodeImports).toContain('functions/projections/project.ts imports node:crypto');
    expect(isNodeModule('crypto') && isNodeModule('node:zlib') && !isNodeModule('preact')).toBe(true);
  });
});
