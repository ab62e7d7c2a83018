import { planDraw } from '../kernel/deck.js';
import type { Ctx, Emitted } from '../kernel/engine.js';
import { violation, type RuleViolation } from '../kernel/errors.js';
import { err, type Result } from '../kernel/result.js';
import { HIDDEN, PUBLIC, type Visibility } from '../kernel/visibility.js';
import { evolve } from './evolve.js';
import type { Event, State } from './model.js';

/** Collects events and folds each at once, so later rules see what earlier ones did. */
export class Out {
  readonly list: Emitted<Event>[] = [];
  private fresh = true;
  constructor(
    public s: State,
    private readonly ctx: Pick<Ctx, 'rng'>,
  ) {}
  emit(event: Event, visibility: Visibility = PUBLIC): void {
    this.list.push({ event, visibility });
    this.s = evolve(this.s, event);
  }
  /**
   * Draws `n` cards from the deck in the open, planned with the committed dice (kernel Deck):
   * should the deck run out in mid-turn, the used cards are shuffled into a new deck first
   * (ruling), the new order hidden, so the verifier re-derives every card.
   */
  draw(n: number, purpose: string): string[] {
    const plan = planDraw(this.s.deck, n, this.ctx.rng, { reshuffle: 'when-empty' });
    if (plan.reshuffle) this.emit({ type: 'DeckReshuffled', order: [...plan.reshuffle] }, HIDDEN);
    this.emit({ type: 'CardsDrawn', purpose, cards: [...plan.cards], fresh: this.fresh });
    this.fresh = false;
    return [...plan.cards];
  }
}

export type Decision = Result<readonly Emitted<Event>[], RuleViolation>;
export const no = (code: string, message: string, rule: string): Decision => err(violation(code, message, rule));
