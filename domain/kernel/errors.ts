/**
 * A rule violation is a value: a namespaced code a program can match on, a sentence a
 * player understands, and the rulebook section it comes from.
 */
export interface RuleViolation {
  readonly code: string;
  readonly message: string;
  readonly rule?: string;
}

export const violation = (code: string, message: string, rule?: string): RuleViolation => (rule === undefined ? { code, message } : { code, message, rule });

/** Thrown only for programming errors (an engine folding an event it never emits). */
export class InvariantError extends Error {
  override name = 'InvariantError';
}

export function assertNever(x: never, what = 'value'): never {
  throw new InvariantError(`unexpected ${what}: ${JSON.stringify(x)}`);
}
