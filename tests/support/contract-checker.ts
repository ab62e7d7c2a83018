import { Ajv2020 } from 'ajv/dist/2020.js';

/**
 * What a served API document promises of a reply: the status must be one the operation lists, and
 * the body must match the schema listed for it (tests/support/contract.ts applies it to every
 * reply a test receives).
 */

interface Operation {
  responses: Record<string, { content?: Record<string, unknown> }>;
}
export interface Doc {
  paths: Record<string, Record<string, Operation>>;
  'x-engines'?: { id: string; view: { $ref: string } }[];
}

export interface Checker {
  check(method: string, path: string, status: number, contentType: string, text: string): string | undefined;
}

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** The checks one served document implies. */
export function contractChecker(doc: Doc): Checker {
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  ajv.addSchema(doc as object, 'openapi');
  const templates = Object.keys(doc.paths).map((t) => ({
    t,
    re: new RegExp(`^${t.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}$`),
  }));
  const errorBody = (status: number, text: string): string | undefined => {
    const v = ajv.getSchema('openapi#/components/schemas/Error')!;
    return v(JSON.parse(text)) ? undefined : `${status} body is not an Error: ${ajv.errorsText(v.errors)}`;
  };
  /**
   * Wherever a reply carries a game's view (GET /v1/games/{id}, POST .../preview), it must match its
   * own engine's view schema (x-engines[].view, by summary.engine): the document leaves `view` open.
   */
  const engines = new Map((doc['x-engines'] ?? []).map((e) => [e.id, e.view.$ref.replace(/^#/, 'openapi#')]));
  const viewProblem = (body: unknown, where: string): string | undefined => {
    if (typeof body !== 'object' || body === null || !('view' in body) || !('summary' in body)) return undefined;
    const engine = (body.summary as { engine?: unknown }).engine;
    const schema = typeof engine === 'string' ? engines.get(engine) : undefined;
    if (!schema) return `${where}: the view of engine ${JSON.stringify(engine)} has no schema in x-engines`;
    const v = ajv.getSchema(schema)!;
    return v(body.view) ? undefined : `${where}: the view does not match ${engine}'s view schema: ${ajv.errorsText(v.errors, { dataVar: 'view' })}`;
  };
  return {
    check(method, path, status, contentType, text) {
      const hit = templates.find((x) => x.re.test(path));
      if (!hit) return status === 404 ? errorBody(status, text) : `${method} ${path} answered ${status} but is in no path of the document`;
      const op = doc.paths[hit.t]![method.toLowerCase()];
      if (!op) return status === 405 ? errorBody(status, text) : `${method} ${hit.t} is not in the document (answered ${status})`;
      const where = `${method} ${hit.t} → ${status}`;
      const response = op.responses[String(status)];
      if (!response) return `${where}: the document lists no such status (it lists ${Object.keys(op.responses).join(', ')})`;
      const types = Object.keys(response.content ?? {});
      if (types.length === 0) return text === '' ? undefined : `${where}: a body was sent where the document lists none`;
      const type = types.find((t) => contentType.startsWith(t));
      if (!type) return `${where}: content-type ${contentType} is not one the document lists (${types.join(', ')})`;
      if (type !== 'application/json') return undefined;
      const validate = ajv.getSchema(`openapi#/${pointer('paths', hit.t, method.toLowerCase(), 'responses', String(status), 'content', type, 'schema')}`)!;
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        return `${where}: the body is not JSON`;
      }
      if (!validate(body)) return `${where}: the body does not match the document: ${ajv.errorsText(validate.errors)}`;
      return viewProblem(body, where);
    },
  };
}
