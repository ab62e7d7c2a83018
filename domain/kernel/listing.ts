import * as z from 'zod';
import type { AnyEngine, EngineListing } from './engine.js';

/**
 * What GET /v1/engines shows of an engine: enough for a client or a club to build a game from
 * it alone. The options schema is the engine's own zod schema as JSON Schema (the shape a
 * request may send: defaults may be left out), so the listing cannot drift from validation.
 */
export interface EngineDescription extends EngineListing {
  readonly id: string;
  readonly title: string;
  readonly rulesVersion: number;
  readonly options: unknown;
  /** The decision windows a seat may answer in advance, and the rules offered for each. */
  readonly standingOrders: readonly { readonly topic: string; readonly rule: string; readonly description: string; readonly params?: unknown }[];
  /** Whether seats build sealed orders that may be drafted in private first. */
  readonly drafts: boolean;
}

const jsonSchema = (schema: z.ZodType): unknown => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });

export function describeEngine(engine: AnyEngine): EngineDescription {
  return {
    id: engine.id,
    title: engine.title,
    rulesVersion: engine.version,
    ...engine.listing,
    options: jsonSchema(engine.optionsSchema),
    standingOrders: (engine.standingOrders?.rules ?? []).map((r) => ({
      topic: r.topic,
      rule: r.rule,
      description: r.description,
      ...(r.params ? { params: jsonSchema(r.params) } : {}),
    })),
    drafts: engine.drafts !== undefined,
  };
}
