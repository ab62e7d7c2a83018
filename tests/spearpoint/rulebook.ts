import { expect } from 'vitest';
import type { RuleViolation } from '../../domain/kernel/errors.js';
import type { Command, Event, State } from '../../domain/spearpoint/index.js';
import { when, type Then } from './given.js';

type Side = 'us' | 'de';

/**
 * Tests that read like the rulebook: "given this battle area, when this side sends this
 * command (with these dice), then these events happen", and "this command is refused under
 * this rule".
 */

/** The command is refused with this code (and a sentence and a rule section to show the player). */
export function expectRefused(state: State, command: Command, seat: Side, code: string): RuleViolation {
  const r = when(state, seat, command);
  expect(r.error, `${JSON.stringify(command)} was accepted`).toBeDefined();
  expect(r.error!.code).toBe(code);
  expect(r.error!.message.length).toBeGreaterThan(0);
  expect(r.error!.rule).toMatch(/^001 /);
  expect(r.events).toEqual([]);
  return r.error!;
}

/**
 * Given a state, when a side sends a command with these dice, then these events (each matched
 * as a pattern, in this order, other events may come between) are emitted. Returns the outcome
 * for further checks.
 */
export function expectEvents(given: State, act: { seat: Side; command: Command; dice?: number[] }, then: Partial<Event>[]): Then {
  const r = when(given, act.seat, act.command, act.dice ?? []);
  expect(r.error, `${JSON.stringify(act.command)} refused: ${r.error?.message}`).toBeUndefined();
  let at = 0;
  for (const want of then) {
    const found = r.events.findIndex((e, i) => i >= at && matches(e, want));
    expect(found, `no ${JSON.stringify(want)} after event ${at} in ${JSON.stringify(r.events.map((e) => e.type))}`).toBeGreaterThanOrEqual(0);
    at = found + 1;
  }
  return r;
}

function matches(actual: unknown, want: unknown): boolean {
  if (want !== null && typeof want === 'object') {
    if (actual === null || typeof actual !== 'object') return false;
    if (Array.isArray(want)) return Array.isArray(actual) && want.length === actual.length && want.every((w, i) => matches(actual[i], w));
    return Object.entries(want).every(([k, v]) => matches((actual as Record<string, unknown>)[k], v));
  }
  return actual === want;
}
