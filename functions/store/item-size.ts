/**
 * DynamoDB's own accounting of an item's size, computed before a write so that an oversize
 * event is refused with a clear error instead of a transaction failing half-explained.
 * Rules (DynamoDB developer guide, "Item sizes and formats"): attribute names count their
 * UTF-8 bytes; strings their UTF-8 bytes; binary its length; a number about one byte per two
 * significant digits plus one; maps and lists 3 bytes plus 1 per element plus their contents;
 * booleans and null 1 byte. We round up, so the estimate is never below the real size.
 */
export function itemSize(item: Readonly<Record<string, unknown>>): number {
  let n = 0;
  for (const [k, v] of Object.entries(item)) {
    if (v === undefined) continue;
    n += Buffer.byteLength(k, 'utf8') + valueSize(v);
  }
  return n;
}

function valueSize(v: unknown): number {
  if (v === null || typeof v === 'boolean') return 1;
  if (typeof v === 'string') return Buffer.byteLength(v, 'utf8');
  if (typeof v === 'number' || typeof v === 'bigint') return Math.ceil(String(v).replace(/[-.]/g, '').replace(/^0+/, '').length / 2) + 1;
  if (v instanceof Uint8Array) return v.byteLength;
  if (Array.isArray(v)) return 3 + v.reduce<number>((s, x) => s + 1 + (x === undefined ? 1 : valueSize(x)), 0);
  if (typeof v === 'object') {
    let s = 3;
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      if (x === undefined) continue;
      s += 1 + Buffer.byteLength(k, 'utf8') + valueSize(x);
    }
    return s;
  }
  return 0;
}

/** DynamoDB refuses items over 400 KB; we stop a little short so our estimate has slack. */
export const MAX_ITEM_BYTES = 380 * 1024;
/** TransactWriteItems: at most 100 actions and 4 MB in all. */
export const MAX_TRANSACT_ITEMS = 100;
export const MAX_TRANSACT_BYTES = 4 * 1024 * 1024 - 64 * 1024;
