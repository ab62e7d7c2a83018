import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import ts from 'typescript';

/**
 * Each engine's view (and the kernel's Scene, the picture of a view), as the server returns it in GET /v1/games/{id} and POST /v1/games/{id}/preview,
 * described as JSON Schema generated from the TypeScript type of the engine's own `view` function:
 * the type checker's inferred return type, walked member by member. The schema is the code's type,
 * not a second description beside it: change a view and `npm run api-types` writes the new schema,
 * and tests/http/client.test.ts fails while the committed file is stale. The OpenAPI document
 * lists it per engine (x-engines[].view), and the reply check of every end-to-end test
 * (tests/support/contract.ts) validates each view against its engine's schema;
 * tests/http/view-schemas.test.ts checks the views of random legal games of every engine too.
 */
export const VIEW_SCHEMAS_FILE = 'functions/http/view-schemas.json';

/** Where each engine of domain/registry.ts defines `view`. A test fails when an engine is missing here. */
export const VIEW_SOURCES: Readonly<Record<string, string>> = {
  'spearpoint-1943': 'domain/spearpoint/view.ts',
  'spearpoint-1943-map': 'domain/spearpoint-map/view.ts',
  'front-line': 'domain/front-line/engine.ts',
  'action-front': 'domain/action-front/view.ts',
};

type Json = Record<string, unknown>;

/**
 * A JSON value of type `t`, as JSON.stringify writes it: a property that may be undefined may be
 * absent, objects have exactly the properties the type names (or its index signature allows).
 */
function schemaOf(checker: ts.TypeChecker, t: ts.Type, path: string, depth = 0): Json {
  if (depth > 40) throw new Error(`${path}: the view's type is too deep or recursive`);
  const F = ts.TypeFlags;
  if (t.flags & (F.Any | F.Unknown)) return {};
  if (t.flags & F.Null) return { type: 'null' };
  if (t.flags & F.StringLiteral) return { const: (t as ts.StringLiteralType).value };
  if (t.flags & F.NumberLiteral) return { const: (t as ts.NumberLiteralType).value };
  if (t.flags & F.BooleanLiteral) return { const: checker.typeToString(t) === 'true' };
  if (t.flags & F.String) return { type: 'string' };
  if (t.flags & F.Number) return { type: 'number' };
  if (t.flags & F.Boolean) return { type: 'boolean' };
  if (t.isUnion()) {
    const members = t.types.filter((m) => !(m.flags & (F.Undefined | F.Void)));
    const bools = members.filter((m) => m.flags & F.BooleanLiteral);
    const rest = members.filter((m) => !(m.flags & F.BooleanLiteral));
    const parts = [
      ...(bools.length === 2 ? [{ type: 'boolean' }] : bools.map((m) => schemaOf(checker, m, path, depth + 1))),
      ...rest.map((m) => schemaOf(checker, m, path, depth + 1)),
    ];
    if (parts.every((p) => Object.keys(p).length === 1 && 'const' in p)) return { enum: parts.map((p) => p['const']) };
    return parts.length === 1 ? parts[0]! : { anyOf: parts };
  }
  if (checker.isTupleType(t)) {
    const items = checker.getTypeArguments(t as ts.TypeReference).map((a, i) => schemaOf(checker, a, `${path}[${i}]`, depth + 1));
    return { type: 'array', prefixItems: items, minItems: items.length, maxItems: items.length };
  }
  if (checker.isArrayType(t)) return { type: 'array', items: schemaOf(checker, checker.getTypeArguments(t as ts.TypeReference)[0]!, `${path}[]`, depth + 1) };
  // A command (the kernel's TypedMessage: a window's default answer): only its `type` is common to
  // every engine; the engine's own command schema (x-engines[].command) names the rest of its fields.
  if (t.getSymbol()?.name === 'TypedMessage') return { type: 'object', properties: { type: { type: 'string' } }, required: ['type'] };
  if (t.flags & F.Object || t.isIntersection()) {
    if (t.getCallSignatures().length > 0) throw new Error(`${path}: a function is not JSON`);
    const properties: Record<string, Json> = {};
    const required: string[] = [];
    for (const p of checker.getPropertiesOfType(t)) {
      const pt = checker.getTypeOfSymbol(p);
      // Only ever undefined (a member of another branch of a union, `b?: undefined`): JSON never carries it.
      if (pt.flags & (F.Undefined | F.Void)) continue;
      const mayBeAbsent = (p.flags & ts.SymbolFlags.Optional) !== 0 || (pt.isUnion() && pt.types.some((m) => m.flags & (F.Undefined | F.Void)));
      properties[p.name] = schemaOf(checker, pt, `${path}.${p.name}`, depth + 1);
      if (!mayBeAbsent) required.push(p.name);
    }
    const index = checker.getIndexInfosOfType(t).find((i) => i.keyType.flags & F.String);
    return {
      type: 'object',
      ...(Object.keys(properties).length ? { properties } : {}),
      ...(required.length ? { required: required.sort() } : {}),
      additionalProperties: index ? schemaOf(checker, index.type, `${path}[key]`, depth + 1) : false,
    };
  }
  throw new Error(`${path}: no JSON Schema for the type ${checker.typeToString(t)}`);
}

/** What the file holds: each engine's view by engine id, and the kernel's scene (the picture every engine's view is drawn as). */
export interface ViewSchemas {
  readonly engines: Record<string, Json>;
  readonly scene: Json;
}

/** The view schemas as `npm run api-types` writes them. */
export function generateViewSchemas(root = process.cwd(), sources: Readonly<Record<string, string>> = VIEW_SOURCES): ViewSchemas {
  const dir = mkdtempSync(join(tmpdir(), 'fieldpost-views-'));
  try {
    const entries = Object.entries(sources).map(([id, file], i) => ({ id, type: `View${i}`, file: resolve(root, file) }));
    const probe = join(dir, 'views.ts');
    writeFileSync(
      probe,
      entries.map((e, i) => `import type { view as v${i} } from ${JSON.stringify(e.file)};\nexport type ${e.type} = ReturnType<typeof v${i}>;\n`).join('') +
        `export type { Scene } from ${JSON.stringify(resolve(root, 'domain/kernel/scene.ts'))};\n`,
    );
    const program = ts.createProgram([probe], {
      strict: true,
      noUncheckedIndexedAccess: true,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      target: ts.ScriptTarget.ES2022,
      resolveJsonModule: true,
      noEmit: true,
      skipLibCheck: true,
    });
    const checker = program.getTypeChecker();
    const source = program.getSourceFile(probe)!;
    const exported = checker.getExportsOfModule(checker.getSymbolAtLocation(source)!);
    const typeOf = (name: string) => {
      const symbol = exported.find((x) => x.name === name);
      if (!symbol) throw new Error(`no type ${name} in ${probe}`);
      return checker.getDeclaredTypeOfSymbol(symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol);
    };
    const engines: Record<string, Json> = {};
    for (const e of entries) engines[e.id] = schemaOf(checker, typeOf(e.type), e.id);
    return { engines, scene: schemaOf(checker, typeOf('Scene'), 'scene') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
