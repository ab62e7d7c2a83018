import type { Ctx } from '../kernel/engine.js';
import { ok } from '../kernel/result.js';
import { asSide, type Attack, type Command, type State } from './model.js';
import { no, Out, type Decision } from './out.js';
import { assaultProblem } from './close-assault.js';
import { attackVoid, resolveAttack } from './combat.js';
import { aimOf, attackProblem, raiderToFire, stukaToBomb } from './targets.js';
import { decidePlay } from './cards.js';
import { decideChangeEntry, decideCommit, decideFly, decideRecrew, decideWithdrawAircraft, mustEnterMore, stukaPath } from './commitment.js';
import { decideDiscard, decideDraw, overLimit } from './draw.js';
import { convoyMustMove, decideMove, decideOpportunityFire, decidePassOpportunityFire } from './movement.js';
import { isAreaWeapon, RULE } from './rules.js';
import { passPhase, startPhase } from './turn.js';
import type { Side } from '../frontline-general/data/schema.js';

/** The dispatcher: which phase takes which command (003 §III Turn Sequence), then the section's module. */
export function decide(s: State, command: Command, actor: string, ctx: Ctx): Decision {
  const seat = asSide(actor);
  if (!seat) return no('action/not-a-seat', 'Only the two sides play', RULE.turn);
  if (s.result) return no('game/over', 'The game is over', RULE.turn);
  if (!s.started) return no('game/not-started', 'The game has not started', RULE.setup);
  if (s.opfire) {
    if (command.type === 'OpportunityFire') return decideOpportunityFire(s, seat, command, ctx);
    if (command.type === 'PassOpportunityFire') return decidePassOpportunityFire(s, seat);
    return no('opfire/pending', 'Opportunity fire must be answered first', RULE.opfire);
  }
  if (command.type === 'OpportunityFire' || command.type === 'PassOpportunityFire') return no('opfire/no-window', 'No opportunity fire is open', RULE.opfire);
  if (s.active !== seat) return no('action/inactive-player', 'The other side acts now', RULE.turn);
  const phaseOf: Record<Command['type'], State['phase'][]> = {
    Move: ['movement'],
    Commit: ['commitment'],
    Fly: ['commitment'],
    WithdrawAircraft: ['commitment'],
    Recrew: ['commitment'],
    DeclareAttack: ['declaration'],
    DeclareCloseAssault: ['declaration'],
    ResolveAttack: ['resolution'],
    OpportunityFire: [],
    PassOpportunityFire: [],
    Draw: ['draw'],
    Discard: ['draw'],
    PlayCommand: ['commitment', 'declaration', 'draw'],
    ChangeEntryPoint: ['movement'],
    Done: ['movement', 'commitment', 'declaration', 'draw'],
  };
  if (!phaseOf[command.type].includes(s.phase)) return no('phase/wrong-phase', `${command.type} is not taken in the ${s.phase} phase`, RULE.turn);
  switch (command.type) {
    case 'Move':
      return decideMove(s, seat, command, ctx);
    case 'PlayCommand':
      return decidePlay(s, seat, command, ctx);
    case 'ChangeEntryPoint':
      return decideChangeEntry(s, seat, command);
    case 'Commit':
      return decideCommit(s, seat, command);
    case 'Fly':
      return decideFly(s, seat, command);
    case 'WithdrawAircraft':
      return decideWithdrawAircraft(s, seat, command);
    case 'Recrew':
      return decideRecrew(s, seat, command);
    case 'DeclareAttack':
      return decideDeclare(s, seat, command);
    case 'DeclareCloseAssault': {
      const p = assaultProblem(s, seat, command.attackers, command.target);
      if (p) return { ok: false, error: p };
      return declared(s, {
        id: '',
        seat,
        attackers: command.attackers,
        target: command.target,
        weapons: [],
        spotter: null,
        kind: 'assault',
        status: 'pending',
      });
    }
    case 'ResolveAttack':
      return decideResolve(s, seat, command, ctx);
    case 'Draw':
      return decideDraw(s, seat, command, ctx);
    case 'Discard':
      return decideDiscard(s, seat, command);
    case 'Done':
      return decideDone(s, seat, ctx);
    default:
      return no('command/unknown', 'Unknown command', RULE.turn);
  }
}

function decideDeclare(s: State, seat: Side, c: Extract<Command, { type: 'DeclareAttack' }>): Decision {
  const p = attackProblem(s, seat, c.attacker, c.target, c.weapons, c.spotter);
  if (p) return { ok: false, error: p };
  const aim = aimOf(c.target);
  const kind = aim.kind === 'unit' ? (c.weapons.some((w) => isAreaWeapon(s, c.attacker, w)) ? 'area' : 'unit') : aim.kind === 'crew' ? 'unit' : aim.kind;
  return declared(s, { id: '', seat, attackers: [c.attacker], target: c.target, weapons: c.weapons, spotter: c.spotter ?? null, kind, status: 'pending' });
}

function declared(s: State, a: Attack): Decision {
  const out = new Out(s);
  out.emit({ type: 'AttackDeclared', attack: { ...a, id: `atk-${s.attackSeq + 1}` } });
  return ok(out.list);
}

function decideResolve(s: State, seat: Side, c: Extract<Command, { type: 'ResolveAttack' }>, ctx: Ctx): Decision {
  const a = s.attacks.find((x) => x.id === c.attackId);
  if (!a || a.seat !== seat || a.status !== 'pending') return no('combat/no-such-attack', `${c.attackId} is not one of your unresolved attacks`, RULE.resolve);
  if (c.boostWith !== undefined && !s.seats[seat].commands.includes(c.boostWith))
    return no('command/not-in-hand', `${c.boostWith} is not in your hand`, RULE.command);
  const out = new Out(s);
  out.emit({ type: 'AttackFired', attackId: a.id, from: a.attackers[0]!, to: a.target });
  resolveAttack(out, ctx, a, c.boostWith ?? null);
  if (out.s.result) return ok(out.list);
  finishAttack(out, ctx, a.id);
  return ok(out.list);
}

/** After an attack: void attacks are called off, choice passes to the other side if it has attacks left (003 Combat 9). */
function finishAttack(out: Out, ctx: Ctx, id: string): void {
  for (const x of out.s.attacks) {
    if (x.status !== 'pending' || x.id === id) continue;
    const why = attackVoid(out.s, x);
    if (why) out.emit({ type: 'AttackCancelled', attackId: x.id, reason: why });
  }
  const seat = out.s.attacks.find((x) => x.id === id)!.seat;
  const left = (side: Side) => out.s.attacks.some((x) => x.id !== id && x.seat === side && x.status === 'pending');
  const next = left(seat === 'us' ? 'de' : 'us') ? (seat === 'us' ? 'de' : 'us') : left(seat) ? seat : null;
  out.emit({ type: 'AttackResolved', attackId: id, next });
  if (next === null) startPhase(out, 'draw', ctx);
}

function decideDone(s: State, seat: Side, ctx: Ctx): Decision {
  if (s.phase === 'movement') {
    const stuck = convoyMustMove(s, seat);
    if (stuck) return no('move/convoy-must-advance', `${stuck} must advance toward column 1`, '003 §IV The Liri Valley Road');
  }
  if (s.phase === 'commitment') {
    const idle = Object.values(s.units).find((u) => u.side === seat && u.at === 'air' && u.path === null);
    if (idle && stukaPath(s, idle.id)) return no('commit/stuka-path', 'Declare the Stuka’s path over the Command Post', "003 §IV Gunter's Return");
    if (mustEnterMore(s, seat)) return no('commit/two-must-enter', 'At least two US front-line units enter the village on turn 3', '003 §IV What Now, Sarge?');
  }
  if (s.phase === 'declaration') {
    if (stukaToBomb(s, seat)) return no('combat/stuka-must-bomb', 'The Stuka must bomb the Command Post this turn', "003 §IV Gunter's Return");
    const raider = raiderToFire(s, seat);
    if (raider) return no('combat/raid-must-fight', `${raider} fights within its space: declare its attack on the enemy there`, '003 §III Movement 5');
  }
  if (s.phase === 'draw') {
    if (!s.seats[seat].drawn) return no('draw/not-drawn', 'Draw your cards first', RULE.draw);
    if (overLimit(s, seat)) return no('draw/over-limit', 'Discard down to 7 Unit and 5 Command cards', RULE.draw);
  }
  const out = new Out(s);
  passPhase(out, ctx);
  return ok(out.list);
}
