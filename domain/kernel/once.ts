/** `build()` on the first call, the same value on every call after it: a schema or table a module needs only when it is used, not at import. */
export function once<T>(build: () => T): () => T {
  let built: { readonly value: T } | undefined;
  return () => (built ??= { value: build() }).value;
}
