/**
 * Checks for the records the functions read from streams and queues (a game's summary on HEAD,
 * a notification job, a wake, a failed stream batch): the few shapes of zod they need
 * (object, array, string, number, enum, literal, record, union; optional, nullable) with zod's
 * `safeParse` and `parse` and its results, in a few hundred bytes that build in microseconds.
 * The projector, notifier, digest and scheduler read nothing else, so they load no zod at a cold
 * start (issue 16: zod's module and these schemas were about 0.65x of a hello-world cold start).
 * Like zod, an object's check returns a new object with only its declared keys (`loose` keeps
 * the others, `strict` refuses them). tests/projections/record-guards.test.ts holds each record's guard
 * to the zod schema it replaced.
 */

type Path = readonly (string | number)[];

export interface Issue {
  readonly path: Path;
  readonly message: string;
}

export type Parsed<T> = { readonly success: true; readonly data: T } | { readonly success: false; readonly error: GuardError };

export class GuardError extends Error {
  constructor(readonly issues: readonly Issue[]) {
    super(issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; '));
    this.name = 'GuardError';
  }
}

/** Returned by a check that failed (its issues are pushed); never a value a record holds. */
const FAILED: unique symbol = Symbol('failed');
type Check<T> = (value: unknown, path: Path, issues: Issue[]) => T | typeof FAILED;

export class Guard<T> {
  constructor(
    readonly check: Check<T>,
    /** Absent keys of an object pass (zod's optional()). */
    readonly optionalKey = false,
  ) {}

  safeParse(value: unknown): Parsed<T> {
    const issues: Issue[] = [];
    const data = this.check(value, [], issues);
    return data === FAILED ? { success: false, error: new GuardError(issues) } : { success: true, data };
  }

  parse(value: unknown): T {
    const r = this.safeParse(value);
    if (!r.success) throw r.error;
    return r.data;
  }

  optional(): Guard<T | undefined> {
    return new Guard<T | undefined>((v, path, issues) => (v === undefined ? undefined : this.check(v, path, issues)), true);
  }

  nullable(): Guard<T | null> {
    return new Guard<T | null>((v, path, issues) => (v === null ? null : this.check(v, path, issues)), this.optionalKey);
  }
}

export type Infer<G> = G extends Guard<infer T> ? T : never;

const typeOf = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'number' && Number.isNaN(v) ? 'NaN' : typeof v);
const fail = (issues: Issue[], path: Path, message: string): typeof FAILED => {
  issues.push({ path, message });
  return FAILED;
};
const expected = (issues: Issue[], path: Path, what: string, v: unknown): typeof FAILED =>
  fail(issues, path, `Invalid input: expected ${what}, received ${typeOf(v)}`);

interface Bounds {
  readonly min?: number;
  readonly max?: number;
}

export const string = (bounds: Bounds & { readonly pattern?: RegExp } = {}): Guard<string> =>
  new Guard((v, path, issues) => {
    if (typeof v !== 'string') return expected(issues, path, 'string', v);
    if (bounds.min !== undefined && v.length < bounds.min) return fail(issues, path, `Too small: expected string to have >=${bounds.min} characters`);
    if (bounds.max !== undefined && v.length > bounds.max) return fail(issues, path, `Too big: expected string to have <=${bounds.max} characters`);
    if (bounds.pattern && !bounds.pattern.test(v)) return fail(issues, path, `Invalid string: must match pattern ${bounds.pattern}`);
    return v;
  });

/** A finite number (zod's number(); `int`: a safe integer). */
export const number = (bounds: Bounds & { readonly int?: boolean } = {}): Guard<number> =>
  new Guard((v, path, issues) => {
    if (typeof v !== 'number' || !Number.isFinite(v)) return expected(issues, path, bounds.int ? 'int' : 'number', v);
    if (bounds.int && !Number.isSafeInteger(v)) return expected(issues, path, 'int', v);
    if (bounds.min !== undefined && v < bounds.min) return fail(issues, path, `Too small: expected number to be >=${bounds.min}`);
    if (bounds.max !== undefined && v > bounds.max) return fail(issues, path, `Too big: expected number to be <=${bounds.max}`);
    return v;
  });

export const boolean = (): Guard<boolean> => new Guard((v, path, issues) => (typeof v === 'boolean' ? v : expected(issues, path, 'boolean', v)));

export const literal = <const L extends string | number | boolean>(value: L): Guard<L> =>
  new Guard((v, path, issues) => (v === value ? value : fail(issues, path, `Invalid input: expected ${JSON.stringify(value)}`)));

export const oneOf = <const L extends string>(values: readonly L[]): Guard<L> =>
  new Guard((v, path, issues) =>
    (values as readonly unknown[]).includes(v)
      ? (v as L)
      : fail(issues, path, `Invalid option: expected one of ${values.map((x) => JSON.stringify(x)).join('|')}`),
  );

export const array = <T>(item: Guard<T>): Guard<T[]> =>
  new Guard((v, path, issues) => {
    if (!Array.isArray(v)) return expected(issues, path, 'array', v);
    const out: T[] = [];
    let ok = true;
    for (const [i, x] of v.entries()) {
      const r = item.check(x, [...path, i], issues);
      if (r === FAILED) ok = false;
      else out.push(r);
    }
    return ok ? out : FAILED;
  });

/** An object whose every value passes `value` (zod's record(string(), value)). */
export const record = <T>(value: Guard<T>): Guard<Record<string, T>> =>
  new Guard((v, path, issues) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return expected(issues, path, 'record', v);
    const out: Record<string, T> = {};
    let ok = true;
    for (const [k, x] of Object.entries(v)) {
      const r = value.check(x, [...path, k], issues);
      if (r === FAILED) ok = false;
      // defineProperty: a "__proto__" key stays a key, as in zod.
      else Object.defineProperty(out, k, { value: r, enumerable: true, writable: true, configurable: true });
    }
    return ok ? out : FAILED;
  });

/** The first option that passes; its issues are the last option's when none does. */
export const union = <T extends readonly Guard<unknown>[]>(options: T): Guard<Infer<T[number]>> =>
  new Guard((v, path, issues) => {
    for (const o of options) {
      const mine: Issue[] = [];
      const r = o.check(v, path, mine);
      if (r !== FAILED) return r as Infer<T[number]>;
    }
    return fail(issues, path, 'Invalid input');
  });

type Shape = Readonly<Record<string, Guard<unknown>>>;
type OptionalKeys<S extends Shape> = { [K in keyof S]: S[K] extends Guard<infer T> ? (undefined extends T ? K : never) : never }[keyof S];
type ObjectOf<S extends Shape> = { [K in Exclude<keyof S, OptionalKeys<S>>]: Infer<S[K]> } & { [K in OptionalKeys<S>]?: Infer<S[K]> };
type Flat<T> = { [K in keyof T]: T[K] } & {};

/** `strip` drops undeclared keys (zod's object()), `loose` keeps them (looseObject()), `strict` refuses them (strictObject()). */
function objectOf<S extends Shape>(shape: S, unknownKeys: 'strip' | 'loose' | 'strict'): Guard<Flat<ObjectOf<S>>> {
  const keys = Object.keys(shape);
  return new Guard((v, path, issues) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return expected(issues, path, 'object', v);
    const input = v as Record<string, unknown>;
    const out: Record<string, unknown> = unknownKeys === 'loose' ? { ...input } : {};
    let ok = true;
    for (const k of keys) {
      const guard = shape[k]!;
      const x = input[k];
      if (x === undefined && !(k in input) && guard.optionalKey) continue;
      const r = guard.check(x, [...path, k], issues);
      if (r === FAILED) ok = false;
      else if (r !== undefined || k in input) out[k] = r;
    }
    if (unknownKeys === 'strict') {
      const extra = Object.keys(input).filter((k) => !Object.hasOwn(shape, k));
      if (extra.length) return fail(issues, path, `Unrecognized key${extra.length > 1 ? 's' : ''}: ${extra.map((k) => JSON.stringify(k)).join(', ')}`);
    }
    return ok ? (out as Flat<ObjectOf<S>>) : FAILED;
  });
}

export const object = <S extends Shape>(shape: S) => objectOf(shape, 'strip');
export const looseObject = <S extends Shape>(shape: S) => objectOf(shape, 'loose');
export const strictObject = <S extends Shape>(shape: S) => objectOf(shape, 'strict');
