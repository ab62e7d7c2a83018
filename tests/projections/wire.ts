/** A plain value in DynamoDB's wire AttributeValue form, as a stream record carries it. */
export const wire = (v: unknown): unknown =>
  v === null
    ? { NULL: true }
    : typeof v === 'string'
      ? { S: v }
      : typeof v === 'number'
        ? { N: String(v) }
        : typeof v === 'boolean'
          ? { BOOL: v }
          : Array.isArray(v)
            ? { L: v.map(wire) }
            : { M: Object.fromEntries(Object.entries(v as object).map(([k, x]) => [k, wire(x)])) };
