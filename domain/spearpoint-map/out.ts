import type { Emitted } from '../kernel/engine.js';
import { violation, type RuleViolation } from '../kernel/errors.js';
import { err, type Result } from '../kernel/result.js';
import { PUBLIC, type Visibility } from '../kernel/visibility.js';
import { evolve } from './evolve.js';
import type { Event, State } from './model.js';

/** Collects events and folds each at once, so later rules see the consequences of earlier ones. */
export class Out {
  readonly list: Emitted<Event>[] = [];
  constructor(public s: State) {}
  emit(event: Event, visibility: Visibility = PUBLIC): void {
    this.list.push({ event, visibility });
    this.s = evolve(this.s, event);
  }
}

export type Decision = Result<readonly Emitted<Event>[], RuleViolation>;
export const no = (code: string, message: string, rule: string): Decision => err(violation(code, message, rule));
