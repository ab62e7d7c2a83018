import type { Ctx } from '../kernel/engine.js';
import { ok } from '../kernel/result.js';
import { onlySeats } from '../kernel/visibility.js';
import type { Side } from '../frontline-general/data/schema.js';
import { endCombat, sweepVoid } from './combat.js';
import { resolveHit } from './damage.js';
import { friendlyFire } from './friendly-fire.js';
import { unitIn, other, type Attack, type Boost, type Command, type State } from './model.js';
import { no, Out, type Decision } from './out.js';
import { assaultParticipants, attackVoid, hitThreshold, RULE, shotsOf } from './rules.js';
import { attackResult, CARD_GAME, type AttackResult } from '../frontline-general/rules.js';

/**
 * 001 Combat Phase: Attack. The side whose choice it is resolves one of its declared attacks:
 * each shot rolls 2d10 against the weapon's attack value (2X-4X weapons roll that many times),
 * and a hit is resolved at once (damage.ts). The natural sum decides the special rolls: 2-3
 * friendly fire (friendly-fire.ts), 18 double Intensity, 19-20 destroyed outright. A Command
 * card may be discarded for +1 before any roll (001 Gameplay: Command cards). Then the other
 * side resolves one, alternating until none is left.
 */

/** ResolveAttack: one of your pending attacks, with any +1 cards for its rolls. */
export function decideResolveAttack(s: State, seat: Side, c: Extract<Command, { type: 'ResolveAttack' }>, ctx: Ctx): Decision {
  const me = s.seats[seat];
  if (s.phase !== 'combat') return no('phase/not-combat', 'Attacks are resolved in the Combat Phase', RULE.attack);
  if (s.friendlyFire) return no('combat/friendly-fire-pending', 'A friendly-fire victim must be chosen first', RULE.attack);
  if (s.chooser !== seat) return no('combat/not-your-choice', 'The other side resolves the next attack', RULE.initiative);
  const a = s.attacks.find((x) => x.id === c.attackId);
  if (!a || a.seat !== seat || a.status !== 'pending') return no('combat/no-such-attack', `${c.attackId} is not one of your unresolved attacks`, RULE.attack);
  if (c.boostWith === undefined && (c.boostRoll !== undefined || c.boostShot !== undefined))
    return no('command/boost-without-card', 'Name the command card you discard for +1', RULE.command);
  if (c.boostWith !== undefined && c.boosts !== undefined) return no('command/boost-twice', 'Use either boostWith or boosts, not both', RULE.command);
  const boosts: Boost[] = c.boosts
    ? c.boosts.map((b) => ({ card: b.card, roll: b.roll, shot: b.shot ?? 1 }))
    : c.boostWith !== undefined
      ? [{ card: c.boostWith, roll: c.boostRoll ?? 'hit', shot: c.boostShot ?? 1 }]
      : [];
  const shots = shotsOf(s, a).length;
  for (const [i, b] of boosts.entries()) {
    if (!me.commands.includes(b.card)) return no('command/not-in-hand', `${b.card} is not in your hand`, RULE.command);
    if (b.shot > shots) return no('command/no-such-shot', `That attack rolls ${shots} time(s); there is no roll number ${b.shot} to improve`, RULE.command);
    const earlier = boosts.slice(0, i);
    if (earlier.some((x) => x.card === b.card)) return no('command/boost-twice', `${b.card} can be discarded only once`, RULE.command);
    if (earlier.some((x) => x.roll === b.roll && x.shot === b.shot))
      return no('command/boost-twice', 'One command card may be discarded for each roll', RULE.command);
  }
  // Each card is discarded just before the roll it improves: a shot's attack roll, or the
  // Intensity roll of that shot if it hits the declared target (else it stays in hand).
  const out = new Out(s);
  runAttack(out, ctx, a.id, boosts);
  return ok(out.list);
}

/** The cards improving one shot's attack roll and its Intensity roll. */
type ShotBoost = { hit?: string; intensity?: string };

/** Fires the attack's remaining shots; pauses for a friendly-fire choice; finishes the attack and maybe the phase. */
export function runAttack(out: Out, ctx: Ctx, attackId: string, boosts: readonly Boost[]): void {
  for (;;) {
    const a = out.s.attacks.find((x) => x.id === attackId)!;
    const shots = shotsOf(out.s, a);
    if (a.shotsDone >= shots.length || !unitIn(out.s, a.target) || out.s.result) break;
    if (attackVoid(out.s, a) && a.shotsDone === 0) break;
    const weapon = shots[a.shotsDone]!;
    const shot = a.shotsDone + 1;
    const forShot = (roll: Boost['roll']) => boosts.find((b) => b.shot === shot && b.roll === roll)?.card;
    const paused = fireShot(out, ctx, a, weapon, { hit: forShot('hit'), intensity: forShot('intensity') });
    if (paused) {
      // The +1 cards for later shots wait, unseen, for the other side's choice. Emitted at every
      // pause, held or not, so the other side cannot tell from a gap in the events.
      out.emit({ type: 'BoostsHeld', seat: a.seat, boosts: boosts.filter((b) => b.shot > shot) }, onlySeats(a.seat));
      return;
    }
    if (out.s.result) return;
  }
  if (out.s.result) return;
  const a = out.s.attacks.find((x) => x.id === attackId)!;
  sweepVoid(out, attackId);
  // The seats alternate: the other side resolves next if it has attacks left.
  const left = (seat: Side) => out.s.attacks.some((x) => x.id !== attackId && x.seat === seat && x.status === 'pending');
  const next = left(other(a.seat)) ? other(a.seat) : left(a.seat) ? a.seat : null;
  out.emit({ type: 'AttackResolved', attackId, next });
  if (next === null) endCombat(out);
}

/** One attack roll of one weapon (or the close assault's single roll). Returns true when it waits for a friendly-fire choice. */
function fireShot(out: Out, ctx: Ctx, a: Attack, weapon: number, boost: ShotBoost): boolean {
  const s = out.s;
  const shooter = a.attackers[0]!;
  const needed = hitThreshold(s, shooter, weapon < 0 ? 'close-assault' : weapon, a.target, weapon < 0 ? assaultParticipants(s, a) : [shooter]);
  if (boost.hit !== undefined) out.emit({ type: 'CommandCardDiscardedForBonus', seat: a.seat, card: boost.hit, roll: 'hit' });
  const dice: [number, number] = [ctx.rng.die(10), ctx.rng.die(10)];
  const bonus = boost.hit !== undefined ? 1 : 0;
  // Special rolls read the dice as thrown; a discarded card's +1 only helps reach the attack value.
  const result = attackResult(dice, bonus, needed, CARD_GAME) as Exclude<AttackResult, 'damage-card'>;
  out.emit({ type: 'AttackRolled', attackId: a.id, weapon, dice, bonus, needed, result });
  if (result === 'miss') return false;
  if (result === 'friendly-fire') return friendlyFire(out, ctx, a, weapon);
  // An Intensity +1 is spent only on a hit on the declared target that rolls Intensity (19-20 rolls none).
  const boostIntensity = boost.intensity !== undefined && result !== 'destroyed-outright';
  if (boostIntensity) out.emit({ type: 'CommandCardDiscardedForBonus', seat: a.seat, card: boost.intensity!, roll: 'intensity' });
  resolveHit(out, ctx, a, weapon, a.target, result, false, boostIntensity);
  return false;
}
