/**
 * Canonical JSON: object keys sorted, no whitespace, undefined members dropped. The hash
 * chain and the verifier compare events through it, so two equal values always hash alike.
 * Built by concatenation (every event is hashed through it on the command path).
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value)) throw new RangeError('non-finite number');
    return JSON.stringify(value) ?? 'null';
  }
  if (Array.isArray(value)) {
    let s = '[';
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      // An undefined element is null; a hole in a sparse array is left empty.
      s += (i ? ',' : '') + (v === undefined ? (i in value ? 'null' : '') : canonicalJson(v));
    }
    return s + ']';
  }
  const obj = value as Record<string, unknown>;
  let s = '';
  for (const k of Object.keys(obj).sort()) {
    const v = obj[k];
    if (v !== undefined) s += `${s ? ',' : ''}${JSON.stringify(k)}:${canonicalJson(v)}`;
  }
  return `{${s}}`;
}
