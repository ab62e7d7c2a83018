// The working state of one decided command: the events it emits, each folded at once, and the
// questions it asks. Every section module of `decide` writes through it.
import type { Ctx, Emitted } from '../kernel/engine.js';
import { PUBLIC, type Seat, type Visibility } from '../kernel/visibility.js';
import { boardOf } from './board.js';
import { evolve } from './evolve.js';
import type { Color, Event, Question, SeatState, State } from './model.js';

/** Collects events and folds each at once, so later rules see the consequences of earlier ones. */
export class Flow {
  readonly list: Emitted<Event>[] = [];
  constructor(
    public s: State,
    readonly ctx: Ctx,
  ) {}
  emit(event: Event, visibility: Visibility = PUBLIC): void {
    this.list.push({ event, visibility });
    this.s = evolve(this.s, event);
  }
  over(): boolean {
    return this.s.phase === 'over';
  }
  ask(q: Omit<Question, 'id'>): void {
    this.emit({ type: 'Asked', question: { ...q, id: `${q.topic}-${this.s.qseq + 1}` } });
  }
  answered(seat: Seat, answer: string): Question {
    const q = this.s.question!;
    this.emit({ type: 'Answered', seat, topic: q.topic, answer });
    return q;
  }
}

export const seatOf = (s: State, color: Color, board: number): SeatState => s.seats.find((x) => x.color === color && x.board === board)!;

/** The battlefield the attack under way is fought on. */
export const attackBoard = (s: State): number => boardOf(s, s.attack!.target);
