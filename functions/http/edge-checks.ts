import Ajv from 'ajv';
import standaloneCode from 'ajv/dist/standalone/index.js';
import * as z from 'zod';
import type { $ZodType } from 'zod/v4/core';
import { canonicalJson } from '../../domain/kernel/canonical.js';
import { writeOrCheck } from './generated-files.js';
import * as schemas from './schemas.js';

/**
 * The edge's checks, generated from its zod schemas (functions/http/schemas.ts): each schema
 * turned into JSON Schema by zod's own z.toJSONSchema, then into a plain function by ajv's
 * standalone code generator. A request the checks accept is served without zod; one they refuse
 * is explained by the zod schema itself (functions/http/edge.ts), so the messages are zod's.
 * Building zod's schemas and running them the first time was about a third of the api's cold
 * start (issue 16); the generated checks load and run in a small part of that.
 *
 * `npm run api-types` writes EDGE_CHECKS_FILE and its types; a test fails when they are stale,
 * and another holds the checks to zod's verdict and output on thousands of inputs. Should the
 * generated module be missing or broken, so that api-types cannot load, `npx tsx
 * functions/http/edge-checks.ts` writes it alone: this module imports nothing that loads it.
 */
export const EDGE_CHECKS_FILE = 'functions/http/edge-checks.generated.js';
export const EDGE_CHECKS_TYPES_FILE = 'functions/http/edge-checks.generated.d.ts';

/** The schemas checked this way: every request schema of the routes a game's requests use, and the limits a club sets. */
export const EDGE_SCHEMAS = [
  'gameParams',
  'createBody',
  'joinBody',
  'commandBody',
  'previewBody',
  'resignBody',
  'cancelBody',
  'claimBody',
  'standingOrdersBody',
  'lapseBody',
  'viewQuery',
  'commandQuery',
  'gameViewQuery',
  'eventsQuery',
  'limitsOverride',
] as const satisfies readonly (keyof typeof schemas)[];

type Json = Record<string, unknown>;

/**
 * What turns an accepted input into zod's output, where they differ: an object that drops the
 * fields it does not know (z.object, for query strings) keeps `keep`; a whole number sent as
 * text (a query parameter) becomes a number for each field of `numbers`, and the result is then
 * checked against the output schema (its bounds apply to the number).
 */
export interface EdgeShape {
  readonly keep?: readonly string[];
  readonly numbers?: readonly string[];
}

/** Equal JSON, whatever order the keys of its objects come in. */
const same = (a: unknown, b: unknown): boolean => canonicalJson(a) === canonicalJson(b);

function jsonSchema(schema: $ZodType, io: 'input' | 'output'): Json {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'throw' }) as Json;
  return rest;
}

/** The shape from input to output, or an error naming what the generated checks cannot reproduce. */
export function edgeShape(name: string, input: Json, output: Json): EdgeShape | undefined {
  if (same(input, output)) return undefined;
  const fail = (why: string) => new Error(`edge schema ${name}: ${why}; check it with zod at request time or teach edge-checks.ts the difference`);
  const { properties: inProps = {}, additionalProperties: inExtra, ...inRest } = input as { properties?: Record<string, Json>; additionalProperties?: unknown };
  const {
    properties: outProps = {},
    additionalProperties: outExtra,
    ...outRest
  } = output as { properties?: Record<string, Json>; additionalProperties?: unknown };
  if (!same(inRest, outRest) || !same(Object.keys(inProps), Object.keys(outProps))) throw fail('its input and output differ in more than fields');
  const strips = inExtra === undefined && outExtra === false;
  if (!strips && !same(inExtra, outExtra)) throw fail('its input and output differ in the fields they allow');
  // JSON Schema cannot show a transform, only its two ends: a field from digits to a whole number
  // is taken to be Number(text), which the fuzz test holds to zod's output.
  const numbers = Object.keys(inProps).filter((k) => !same(inProps[k], outProps[k]));
  for (const k of numbers) {
    const [i, o] = [inProps[k]!, outProps[k]!];
    if (i['type'] !== 'string' || i['pattern'] !== '^\\d{1,9}$' || o['type'] !== 'integer')
      throw fail(`field ${k} changes between input and output in a way other than digits to a whole number`);
  }
  return { ...(strips ? { keep: Object.keys(inProps) } : {}), ...(numbers.length ? { numbers } : {}) };
}

interface ZodNode {
  readonly _zod: { readonly def: Record<string, unknown> & { readonly type: string; readonly checks?: readonly ZodNode[] } };
}
const isZod = (x: unknown): x is ZodNode => typeof x === 'object' && x !== null && '_zod' in x;

/**
 * Where a schema runs code of its own (a refine, z.custom): JSON Schema cannot say it, and
 * z.toJSONSchema leaves it out without a word, so a check generated from it would accept what
 * zod refuses. Every schema under this one is visited (object fields, items, options, wrappers).
 */
export function customRules(schema: $ZodType, path = '', seen = new Set<ZodNode>()): string[] {
  const node = schema as unknown as ZodNode;
  if (seen.has(node)) return [];
  seen.add(node);
  const { def } = node._zod;
  const here = def.type === 'custom' || (def.checks ?? []).some((c) => c._zod.def['check'] === 'custom') ? [path || '(the whole value)'] : [];
  const below = Object.entries(def).flatMap(([key, value]) => {
    if (key === 'checks') return [];
    if (isZod(value)) return customRules(value as unknown as $ZodType, path, seen);
    if (Array.isArray(value)) return value.filter(isZod).flatMap((v) => customRules(v as unknown as $ZodType, path, seen));
    if (key === 'shape' && typeof value === 'object' && value !== null)
      return Object.entries(value).flatMap(([field, v]) => (isZod(v) ? customRules(v as unknown as $ZodType, path ? `${path}.${field}` : field, seen) : []));
    return [];
  });
  return [...here, ...below];
}

/** The generated module and its types, as they should be now. */
export function edgeChecksSource(): { code: string; types: string } {
  const shapes: Record<string, EdgeShape> = {};
  const checked: [string, Json][] = [];
  for (const name of EDGE_SCHEMAS) {
    const schema = schemas[name] as $ZodType;
    const custom = customRules(schema);
    if (custom.length)
      throw new Error(`edge schema ${name} has rules of its own at ${custom.join(', ')}, which no generated check can hold: check it with zod`);
    const [input, output] = [jsonSchema(schema, 'input'), jsonSchema(schema, 'output')];
    checked.push([name, input]);
    const shape = edgeShape(name, input, output);
    if (shape) shapes[name] = shape;
    if (shape?.numbers) {
      checked.push([`${name}Output`, output]);
    }
  }
  // Lengths count code points, as zod does (ajv's default); unicodeRegExp: false runs the patterns as zod runs them.
  // (Field schemas several checks repeat, moved to shared definitions, made the module larger: ajv's calls cost more than the copies.)
  const ajv = new Ajv({ code: { source: true, esm: true, lines: false }, unicodeRegExp: false, strict: true, allErrors: false, messages: false });
  for (const [key, s] of checked) ajv.addSchema(s, key);
  const exported = Object.fromEntries(checked.map(([key]) => [key, key]));
  // ajv's standalone code takes its one runtime helper here, code points in a string, with require(); this
  // module is plain ESM with no dependency, so it carries that helper itself (zod's count: a surrogate pair is one).
  const helper = /const (func\d+) = require\("ajv\/dist\/runtime\/ucs2length"\)\.default;/g;
  const codePoints = `const $1 = (s) => { let n = 0; for (let i = 0; i < s.length; i++, n++) { const c = s.charCodeAt(i); if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++; } return n; };`;
  // A check's verdict is all the router uses (zod explains a refusal), so each check returns false
  // where ajv would first describe the error: about half the module. The limits' check keeps its
  // errors (limitsFromEnv names the field). An error object holds no ';', so a match cannot reach
  // past its own statement; and no check may call another, whose errors it would read.
  const whole = standaloneCode(ajv, exported);
  const limitsCheck = /export const limitsOverride = (validate\d+);/.exec(whole)?.[1];
  if (!limitsCheck) throw new Error("ajv's code no longer names the limits' check as edge-checks.ts expects");
  if (/[^ ]validate\d+\(|validate\d+\.errors\)/.test(whole)) throw new Error('a generated check calls another: edge-checks.ts would strip the errors it reads');
  const describe = /(validate\d+)\.errors = \[\{[^;]*\}\];return false;/g;
  // One object of checks, not an export each: a bundle reads `checks[name]`, and a module namespace
  // read that way is built at start with a getter per export.
  const byName: string[] = [];
  const generated = whole
    .replace(helper, codePoints)
    .replace(describe, (kept: string, check: string) => (check === limitsCheck ? kept : 'return false;'))
    .replace(/export const (\w+) = (validate\d+);/g, (_: string, name: string, check: string) => (byName.push(`${name}: ${check}`), ''));
  if (byName.length !== checked.length) throw new Error("ajv's code no longer exports each check as edge-checks.ts expects");
  if (generated.includes('require(')) throw new Error('the generated checks require a module: teach edge-checks.ts to carry it');
  const header = '/* Generated by npm run api-types from functions/http/schemas.ts (functions/http/edge-checks.ts): do not edit. */\n';
  const code = `${header}${generated}\nexport const checks = { ${byName.join(', ')} };\nexport const shapes = ${JSON.stringify(shapes)};\n`;
  const types = [
    header,
    '/** A check: true when the value fits. */',
    'export type Check = (value: unknown) => boolean;',
    "/** After a refusal, where and which rule of the schema the value breaks (the limits' check only). */",
    'export type AjvErrors = { errors?: readonly { instancePath: string; propertyName?: string; keyword: string; params: object }[] | null };',
    'export declare const checks: {',
    ...Object.keys(exported).map((n) => `  readonly ${n}: Check${n === 'limitsOverride' ? ' & AjvErrors' : ''};`),
    '};',
    `export declare const shapes: { readonly [name: string]: { readonly keep?: readonly string[]; readonly numbers?: readonly string[] } | undefined };`,
    '',
  ].join('\n');
  return { code, types };
}

/** Writes the checks and their types, or (check) fails when either is stale. */
export function writeEdgeChecks(check: boolean): void {
  const { code, types } = edgeChecksSource();
  writeOrCheck(EDGE_CHECKS_FILE, code, check);
  writeOrCheck(EDGE_CHECKS_TYPES_FILE, types, check);
}

/** tsx functions/http/edge-checks.ts [--check]: the checks alone (npm run api-types writes them with the rest). */
if (import.meta.url === `file://${process.argv[1]}`) writeEdgeChecks(process.argv.includes('--check'));
