import type { AttributeValue } from '@aws-sdk/client-dynamodb';

/**
 * Items in DynamoDB's own attribute values (binary as Uint8Array, as the plain client takes and
 * gives them), for the two calls every command makes: the load's Query and the tip's PutItem.
 * The same conversions as the document client with `removeUndefinedValues` (what the store's
 * other calls use), without its per-call middleware.
 */
export type WireItem = Record<string, AttributeValue>;

function toAttr(v: unknown): AttributeValue | undefined {
  if (v === undefined) return undefined;
  if (v === null) return { NULL: true };
  if (typeof v === 'string') return { S: v };
  if (typeof v === 'boolean') return { BOOL: v };
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new Error(`Special numeric value ${v} is not allowed`);
    if (Number.isInteger(v) && !Number.isSafeInteger(v)) throw new Error(`Number ${v} is greater than Number.MAX_SAFE_INTEGER`);
    return { N: String(v) };
  }
  if (v instanceof Uint8Array) return { B: v };
  if (Array.isArray(v)) {
    const L: AttributeValue[] = [];
    for (const x of v) {
      const a = toAttr(x);
      if (a !== undefined) L.push(a);
    }
    return { L };
  }
  const proto = Object.getPrototypeOf(v) as unknown;
  if (typeof v === 'object' && (proto === Object.prototype || proto === null)) return { M: toWire(v as Record<string, unknown>) };
  throw new Error(`Unsupported type passed: ${String(v)}. Pass a plain object, array, string, number, boolean, null or Uint8Array.`);
}

/** A plain item as attribute values; undefined members are left out. */
export function toWire(item: Readonly<Record<string, unknown>>): WireItem {
  const out: WireItem = {};
  for (const k of Object.keys(item)) {
    const a = toAttr(item[k]);
    if (a !== undefined) Object.defineProperty(out, k, { value: a, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function fromAttr(a: AttributeValue): unknown {
  if (a.S !== undefined) return a.S;
  if (a.N !== undefined) return Number(a.N);
  if (a.B !== undefined) return a.B;
  if (a.BOOL !== undefined) return a.BOOL;
  if (a.NULL !== undefined) return null;
  if (a.L !== undefined) return a.L.map(fromAttr);
  if (a.M !== undefined) return fromWire(a.M);
  if (a.SS !== undefined) return new Set(a.SS);
  if (a.NS !== undefined) return new Set(a.NS.map(Number));
  if (a.BS !== undefined) return new Set(a.BS);
  throw new Error(`unknown attribute value ${Object.keys(a).join(',')}`);
}

/** Attribute values as a plain item; keys such as "__proto__" stay own keys. */
export function fromWire(item: Readonly<WireItem>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(item)) Object.defineProperty(out, k, { value: fromAttr(item[k]!), enumerable: true, writable: true, configurable: true });
  return out;
}
