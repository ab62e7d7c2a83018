/** A parsed body's fields, with optional ones that were absent left out (not set to undefined). */
export type Present<T> = { [K in keyof T as undefined extends T[K] ? never : K]: T[K] } & {
  [K in keyof T as undefined extends T[K] ? K : never]?: Exclude<T[K], undefined>;
};

/** Drops the absent optional fields of a parsed body, so it can be handed on as it is. */
export function present<T extends object>(body: T): Present<T> {
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)) as Present<T>;
}
