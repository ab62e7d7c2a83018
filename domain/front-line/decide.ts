// Deciding a command (002 as a whole): the command must be one of the seat's legal commands
// (legal.ts is the single source of truth); it is then handed to the module of the rulebook
// section it belongs to. setup.ts (p.1), rounds.ts (p.1–2, p.D), actions.ts (p.2, p.4, p.E),
// tasks.ts (p.4–5), attack.ts (p.3–5), results.ts (p.3–4).
import { canonicalJson } from '../kernel/canonical.js';
import type { Ctx, Emitted } from '../kernel/engine.js';
import { violation, type RuleViolation } from '../kernel/errors.js';
import { err, ok, type Result } from '../kernel/result.js';
import type { Seat } from '../kernel/visibility.js';
import { seatState, unitById } from './board.js';
import { action, sendSupport } from './actions.js';
import { afterEdge, chooseDie, opportunityFire, rally, roll, useEdge } from './attack.js';
import { Flow } from './flow.js';
import { legalCommands } from './legal.js';
import { RULE, type Command, type Event, type State } from './model.js';
import { displace, endAttack, hold, retreat, retreatTo } from './results.js';
import { chooseSupply, endTurn } from './rounds.js';
import { chooseFirst, clearSetup, finishSetup, placeRecommended, placeUnit } from './setup.js';
import { cache, maneuverOrRelieve } from './tasks.js';

const no = (code: string, message: string): Result<never, RuleViolation> => err(violation(code, message, RULE));

/** Why a command that is not among the seat's legal commands is refused, as precisely as cheaply known. */
function refusal(s: State, c: Command, seat: Seat): Result<never, RuleViolation> {
  if (s.phase === 'over') return no('game/over', 'The game is over');
  if (!seatState(s, seat)) return no('action/not-a-seat', `${seat} plays no side in this game`);
  if (legalCommands(s, seat).length === 0) return no('action/not-your-turn', 'Nothing is asked of you now');
  if (s.question && s.question.seat === seat) return no('front-line/answer-first', `Answer the open question first (${s.question.topic})`);
  const named = 'unit' in c && typeof c.unit === 'string' ? c.unit : undefined;
  if (named !== undefined && !unitById(s, named)) return no('front-line/unknown-unit', `No unit ${JSON.stringify(named)} is in play`);
  return no('front-line/illegal', `${c.type} is not allowed now: pick one of your legal commands`);
}

/** Decides a command: it must be one of the seat's legal commands (legal.ts is the single source of truth). */
export function decide(s: State, c: Command, seat: Seat, ctx: Ctx): Result<readonly Emitted<Event>[], RuleViolation> {
  const key = canonicalJson(c);
  if (!legalCommands(s, seat).some((l) => canonicalJson(l) === key)) return refusal(s, c, seat);
  const f = new Flow(s, ctx);
  run(f, seat, c);
  return ok(f.list);
}

function run(f: Flow, seat: Seat, c: Command): void {
  switch (c.type) {
    case 'PlaceUnit':
      return placeUnit(f, seat, c.kind, c.square);
    case 'PlaceRecommended':
      return placeRecommended(f, seat);
    case 'ClearSetup':
      return clearSetup(f, seat);
    case 'FinishSetup':
      return finishSetup(f, seat);
    case 'ChooseFirst':
      return chooseFirst(f, c.seat);
    case 'ChooseSupply':
      return chooseSupply(f, seat, c.stack);
    case 'EndTurn':
      return endTurn(f, seat);
    case 'Cache':
      return cache(f, seat);
    case 'SendSupport':
      return sendSupport(f, seat);
    case 'Move':
    case 'AmphibiousMove':
    case 'Attack':
    case 'Commission':
    case 'Build':
    case 'Paratroop':
    case 'Regroup': {
      // An ally's action paid by Send Support costs nothing more; the mover pays from the chosen stack.
      const support = f.s.question?.topic === 'send-support';
      if (support) f.answered(seat, c.type);
      return action(f, seat, c, !support);
    }
    case 'Maneuver':
    case 'Relieve':
      return maneuverOrRelieve(f, seat, c);
    case 'Rally':
      return rally(f, seat);
    case 'OpportunityFire':
      return opportunityFire(f, seat, c.unit);
    case 'UseEdge':
      return useEdge(f, seat);
    case 'ChooseDie':
      return chooseDie(f, seat, c.die);
    case 'Retreat':
      return retreat(f, seat);
    case 'Hold':
      return hold(f, seat);
    case 'RetreatTo':
      return retreatTo(f, seat, c.square);
    case 'Displace':
      return displace(f, seat);
    case 'Pass': {
      const q = f.answered(seat, 'Pass');
      if (q.topic === 'rally') return roll(f, false);
      if (q.topic === 'edge') return afterEdge(f);
      if (q.topic === 'displace') return endAttack(f, false);
      return;
    }
  }
}
