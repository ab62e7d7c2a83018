/**
 * DynamoDB's JSON attribute values, as @aws-sdk/util-dynamodb converts them for the document
 * client with `removeUndefinedValues` (what every store here uses): strings, numbers, booleans,
 * null, binary (base64 on the wire, Uint8Array in JS), lists, maps, and sets when read.
 */

export type AttributeValue = Record<string, unknown>;

function toAttr(v: unknown): AttributeValue | undefined {
  if (v === undefined || typeof v === 'function') return undefined;
  if (v === null) return { NULL: true };
  if (typeof v === 'string') return { S: v };
  if (typeof v === 'boolean') return { BOOL: v };
  if (typeof v === 'bigint') return { N: v.toString() };
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new Error(`Special numeric value ${v} is not allowed`);
    if (Number.isInteger(v) && !Number.isSafeInteger(v)) throw new Error(`Number ${v} is greater than Number.MAX_SAFE_INTEGER`);
    return { N: String(v) };
  }
  if (v instanceof Uint8Array) return { B: Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64') };
  if (Array.isArray(v)) return { L: v.map(toAttr).filter((a): a is AttributeValue => a !== undefined) };
  if (v instanceof Set) {
    const xs = [...(v as Set<unknown>)];
    if (xs.every((x) => typeof x === 'string')) return { SS: xs };
    if (xs.every((x) => typeof x === 'number' || typeof x === 'bigint')) return { NS: xs.map(String) };
    throw new Error('only sets of strings or of numbers are supported');
  }
  const proto = Object.getPrototypeOf(v) as unknown;
  if (typeof v === 'object' && (proto === Object.prototype || proto === null)) return { M: marshall(v as Record<string, unknown>) };
  throw new Error(`Unsupported type passed: ${String(v)}. Pass a plain object, array, string, number, boolean, null or Uint8Array.`);
}

/** A JS object to a DynamoDB item (or key, or expression values); undefined values are left out. */
export function marshall(item: Readonly<Record<string, unknown>>): Record<string, AttributeValue> {
  const out: Record<string, AttributeValue> = {};
  for (const [k, v] of Object.entries(item)) {
    const a = toAttr(v);
    if (a !== undefined) Object.defineProperty(out, k, { value: a, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

const bytes = (b64: unknown) => new Uint8Array(Buffer.from(String(b64), 'base64'));

function fromAttr(a: AttributeValue): unknown {
  if ('S' in a) return a['S'];
  if ('N' in a) return Number(a['N']);
  if ('BOOL' in a) return a['BOOL'];
  if ('NULL' in a) return null;
  if ('B' in a) return bytes(a['B']);
  if ('L' in a) return (a['L'] as AttributeValue[]).map(fromAttr);
  if ('M' in a) return unmarshall(a['M'] as Record<string, AttributeValue>);
  if ('SS' in a) return new Set(a['SS'] as string[]);
  if ('NS' in a) return new Set((a['NS'] as string[]).map(Number));
  if ('BS' in a) return new Set((a['BS'] as string[]).map(bytes));
  throw new Error(`unknown attribute value ${Object.keys(a).join(',')}`);
}

/** A DynamoDB item from the wire to a JS object; keys such as "__proto__" stay own keys. */
export function unmarshall(item: Readonly<Record<string, AttributeValue>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, a] of Object.entries(item)) Object.defineProperty(out, k, { value: fromAttr(a), enumerable: true, writable: true, configurable: true });
  return out;
}

/**
 * A wire item left as attribute values, binary decoded to Uint8Array: how the SDK hands over
 * the items in errors and stream records (the store and the projector read those themselves).
 */
export function decodeBinary(item: Readonly<Record<string, AttributeValue>>): Record<string, AttributeValue> {
  const attr = (a: AttributeValue): AttributeValue => {
    if ('B' in a) return { B: bytes(a['B']) };
    if ('BS' in a) return { BS: (a['BS'] as string[]).map(bytes) };
    if ('L' in a) return { L: (a['L'] as AttributeValue[]).map(attr) };
    if ('M' in a) return { M: decodeBinary(a['M'] as Record<string, AttributeValue>) };
    return a;
  };
  const out: Record<string, AttributeValue> = {};
  for (const [k, a] of Object.entries(item)) Object.defineProperty(out, k, { value: attr(a), enumerable: true, writable: true, configurable: true });
  return out;
}

/** The reverse of decodeBinary: binary given as Uint8Array (the SDK's form) base64-encoded, as the wire carries it. */
export function encodeBinary(item: Readonly<Record<string, AttributeValue>>): Record<string, AttributeValue> {
  const b64 = (v: unknown) => (v instanceof Uint8Array ? Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64') : v);
  const attr = (a: AttributeValue): AttributeValue => {
    if ('B' in a) return { B: b64(a['B']) };
    if ('BS' in a) return { BS: (a['BS'] as unknown[]).map(b64) };
    if ('L' in a) return { L: (a['L'] as AttributeValue[]).map(attr) };
    if ('M' in a) return { M: encodeBinary(a['M'] as Record<string, AttributeValue>) };
    return a;
  };
  const out: Record<string, AttributeValue> = {};
  for (const [k, a] of Object.entries(item)) Object.defineProperty(out, k, { value: attr(a), enumerable: true, writable: true, configurable: true });
  return out;
}
