import type { Result, RuleViolation } from '../../domain/kernel/index.js';
import { AppError, ConcurrencyError, DuplicateCommandError } from '../ports.js';
import { DynamoStreamStore, STREAM_GENESIS, type StoredEvent } from '../store/stream-store.js';

/**
 * The game service's loop for the other streams (clubs, tournaments, ratings): load the stream,
 * fold it, decide, append with the head's version as the condition; decide again after losing
 * a race. A commandId already used answers with what that command produced (nothing appended).
 */
export interface AggregateSpec<S, E> {
  readonly initial: S;
  readonly evolve: (s: S, e: E) => S;
}

export interface Outcome<S, E> {
  readonly state: S;
  readonly version: number;
  /** This command's events (its first events when it is a repeat). */
  readonly events: readonly StoredEvent<E>[];
  readonly duplicate: boolean;
}

/** Refusals that mean "no such thing" or "not yours to do", by code suffix; every other refusal is 422. */
const NOT_FOUND = /\/not-found$|\/unknown-/;
const FORBIDDEN = /\/forbidden$|\/not-director$|\/system-only$|\/not-yourself$|\/not-a-member$/;

export function refusal(v: RuleViolation): AppError {
  if (NOT_FOUND.test(v.code)) return new AppError(404, v.code, v.message, v.rule);
  return AppError.fromViolation(v, FORBIDDEN.test(v.code) ? 403 : 422);
}

export async function fold<S, E>(store: DynamoStreamStore, pk: string, spec: AggregateSpec<S, E>) {
  const loaded = await store.load<E>(pk);
  const events = loaded?.events ?? [];
  return {
    state: events.reduce((s, e) => spec.evolve(s, e.event), spec.initial),
    version: loaded?.version ?? 0,
    hash: loaded?.hash ?? STREAM_GENESIS,
    events,
  };
}

export async function runCommand<S, E>(
  store: DynamoStreamStore,
  pk: string,
  spec: AggregateSpec<S, E>,
  cmd: {
    commandId: string;
    actor: string | null;
    at: string;
    decide: (s: S) => Result<E[], RuleViolation>;
    /** Listing items written with the events, from the state after them. */
    index?: (after: S) => Record<string, unknown>[];
  },
  maxRetries = 5,
): Promise<Outcome<S, E>> {
  for (let attempt = 0; ; attempt++) {
    const f = await fold(store, pk, spec);
    const repeat = f.events.filter((e) => e.commandId === cmd.commandId);
    if (repeat.length) return { state: f.state, version: f.version, events: repeat, duplicate: true };
    const decided = cmd.decide(f.state);
    if (!decided.ok) throw refusal(decided.error);
    if (decided.value.length === 0) return { state: f.state, version: f.version, events: [], duplicate: false };
    const after = decided.value.reduce(spec.evolve, f.state);
    try {
      const stored = await store.append({
        pk,
        expected: { version: f.version, hash: f.hash },
        events: decided.value,
        commandId: cmd.commandId,
        actor: cmd.actor,
        at: cmd.at,
        ...(cmd.index ? { index: cmd.index(after) } : {}),
      });
      return { state: after, version: f.version + stored.length, events: stored, duplicate: false };
    } catch (e) {
      if (e instanceof DuplicateCommandError) continue;
      if (e instanceof ConcurrencyError && attempt < maxRetries) continue;
      if (e instanceof ConcurrencyError) throw new AppError(409, 'version/conflict', 'Others changed this at the same moment; send the request again');
      throw e;
    }
  }
}
