import type { Ctx } from '../kernel/engine.js';
import { ok } from '../kernel/result.js';
import { onlySeats, type Seat } from '../kernel/visibility.js';
import { decideResolveAttack } from './attack.js';
import type { Side } from '../frontline-general/data/schema.js';
import { decideDiscard, decideDraw } from './draw.js';
import { decideFriendlyFireVictim } from './friendly-fire.js';
import { atLeast, type Command, type State } from './model.js';
import { decideMuster } from './muster.js';
import { decideClearOrder, decideOrderStep, decideSealOrder } from './orders.js';
import { no, Out, type Decision } from './out.js';
import { RULE } from './rules.js';

/**
 * Spearpoint's decide: a dispatcher. Each command is decided by the module named after the
 * rulebook section it implements, so a reader with 001 open finds the rule in one step:
 *
 *   muster.ts              001 Two-Player Standard Game Setup (the starting hand)
 *   orders.ts              sealed orders: steps, ClearOrder, SealOrder, and the reveals they trigger
 *   commitment.ts          001 Commitment Phase
 *   command-cards.ts       001 Gameplay: Command cards; capture.ts for the capture card
 *   target-declaration.ts  001 Combat Phase: Target Declaration
 *   initiative.ts          001 Combat Phase: Initiative
 *   attack.ts              001 Combat Phase: Attack; friendly-fire.ts for the roll of 2-3
 *   damage.ts              001 Combat Phase: Damage Resolution
 *   combat.ts              the end of the Combat Phase
 *   draw.ts                001 Draw Phase
 *   victory.ts             001 Victory Points; Winning the Game
 *
 * rules.ts holds the small pure rules they share (legal targets, hit numbers, damage sums).
 */
export function decide(s: State, c: Command, actor: Seat, ctx: Ctx): Decision {
  if (s.result) return no('game/over', 'The game is over', RULE.victory);
  if (actor !== 'us' && actor !== 'de') return no('action/unknown-seat', `Seats are us and de`, RULE.setup);
  const seat: Side = actor;
  switch (c.type) {
    case 'SetStandingOrders': {
      // From version 4 the kernel's standing orders answer the friendly-fire window instead.
      if (atLeast(s, 4))
        return no(
          'command/use-standing-orders',
          `Under these rules (version 4) friendly fire is a decision window: leave the standing order friendly-fire-victim/highest-cost with PUT /v1/games/{id}/standing-orders`,
          RULE.attack,
        );
      const out = new Out(s);
      out.emit({ type: 'StandingOrdersSet', seat, friendlyFire: c.friendlyFire }, onlySeats(seat));
      return ok(out.list);
    }
    case 'PickStartingUnit':
      // Rules version 3: a step of the sealed muster order; version 2 took the unit at once.
      return atLeast(s, 3) ? decideOrderStep(s, seat, c) : decideMuster(s, seat, c, ctx);
    case 'AutoPickHand':
      return decideMuster(s, seat, c, ctx);
    case 'CommitUnit':
    case 'ReplaceCrew':
    case 'MoveCrew':
    case 'MoveLine':
    case 'PlayCommandCard':
    case 'DeclareAttack':
    case 'JoinCloseAssault':
      return decideOrderStep(s, seat, c);
    case 'ClearOrder':
      return decideClearOrder(s, seat);
    case 'SealOrder':
      return decideSealOrder(s, seat, c, ctx);
    case 'ResolveAttack':
      return decideResolveAttack(s, seat, c, ctx);
    case 'ChooseFriendlyFireVictim':
      return decideFriendlyFireVictim(s, seat, c, ctx);
    case 'DrawCard':
    case 'DrawCards':
      return decideDraw(s, seat, c, ctx);
    case 'DiscardUnit':
    case 'DiscardCommand':
      return decideDiscard(s, seat, c);
  }
}
