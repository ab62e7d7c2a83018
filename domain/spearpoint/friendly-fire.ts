import type { Ctx, DecisionWindow } from '../kernel/engine.js';
import { ok } from '../kernel/result.js';
import type { Side } from '../frontline-general/data/schema.js';
import { runAttack } from './attack.js';
import { resolveHit } from './damage.js';
import { atLeast, unitIn, other, type Attack, type Command, type State } from './model.js';
import { no, Out, type Decision } from './out.js';
import { cardOf, closeAssaultTarget, costOf, lineAllows, rearArtilleryLimit, RULE, weaponCanAffect } from './rules.js';

/**
 * 001 Combat Phase: Attack, the special roll of 2-3. The opponent chooses one unit friendly to
 * the attacker that the weapon could legally target; it is hit automatically, and a unit
 * destroyed this way scores nobody any points.
 *
 * From rules version 4 the choice is a kernel decision window (topic 'friendly-fire-victim'):
 * blocking, its default the highest-cost candidate (ties by id), taken when the window lapses
 * at its deadline or by the kernel standing order 'highest-cost' in the same append. Version 2
 * and 3 games keep their own SetStandingOrders, answered here inside the engine, and open no window.
 */

/** The topic of the friendly-fire decision window, which kernel standing orders name. */
export const FRIENDLY_FIRE_TOPIC = 'friendly-fire-victim';

/** The candidate of highest cost (ties: the lowest id): what 'highest-cost' and a lapsed window choose. Public facts only. */
export function highestCostVictim(s: State, candidates: readonly string[]): string | undefined {
  return [...candidates].sort((x, y) => costOf(s, y) - costOf(s, x) || (x < y ? -1 : 1))[0];
}

/** The open friendly-fire choice as a decision window (rules version 4); undefined when none is open or under versions 2 and 3. */
export function friendlyFireWindow(s: State): DecisionWindow | undefined {
  const ff = s.friendlyFire;
  if (!ff || !atLeast(s, 4)) return undefined;
  const shot = s.attacks.find((x) => x.id === ff.attackId)?.shotsDone ?? 0;
  const victim = highestCostVictim(s, ff.candidates);
  if (victim === undefined) return undefined;
  const lapse: Command = { type: 'ChooseFriendlyFireVictim', unit: victim };
  return { id: `friendly-fire-${ff.attackId}-${shot}`, topic: FRIENDLY_FIRE_TOPIC, blocking: true, default: lapse };
}

/** A friendly-fire roll: the victim is chosen now (one candidate, or a standing order), or the attack pauses for the opponent. Returns true when it pauses. */
export function friendlyFire(out: Out, ctx: Ctx, a: Attack, weapon: number): boolean {
  const chooser = other(a.seat);
  const candidates = friendlyFireCandidates(out.s, a, weapon);
  if (candidates.length === 0) {
    out.emit({ type: 'FriendlyFireHarmless', attackId: a.id });
    return false;
  }
  // From rules version 3 a lone candidate still waits for an opponent who asked to be asked and
  // holds a Command card: it may discard one for +1 on the Intensity roll (001 Gameplay: Command
  // cards, "before any die roll"). Its count of cards is public, so the pause tells nothing.
  const mayBoost = atLeast(out.s, 3) && out.s.seats[chooser].commands.length > 0;
  // Under versions 2 and 3 the seat's own standing order answers here; from version 4 the kernel's standing orders answer the window.
  const ownOrder = !atLeast(out.s, 4) && out.s.seats[chooser].friendlyFire === 'highest-cost';
  if ((candidates.length === 1 && !mayBoost) || ownOrder) {
    const victim = highestCostVictim(out.s, candidates)!;
    out.emit({ type: 'FriendlyFireVictimChosen', attackId: a.id, unit: victim, automatic: true });
    resolveHit(out, ctx, a, weapon, victim, null, true, false);
    return false;
  }
  out.emit({ type: 'FriendlyFirePending', attackId: a.id, chooser, candidates, weapon });
  return true;
}

/** Units friendly to the attacker that its weapon could legally hit (the opponent picks one). */
export function friendlyFireCandidates(s: State, a: Attack, weapon: number): string[] {
  const shooter = unitIn(s, a.attackers[0]!);
  return Object.values(s.inPlay)
    .filter((u) => u.controller === a.seat && !a.attackers.includes(u.id))
    .filter((u) => {
      if (weapon < 0) return closeAssaultTarget(s, u.id);
      // A legal target of that weapon, as if the unit were an enemy: type, bullets, lines, the rear-line artillery limit.
      if (!shooter) return false;
      return (
        weaponCanAffect(cardOf(s, shooter.id).weapons[weapon]!, cardOf(s, u.id)) &&
        lineAllows(shooter.line, u.line) &&
        !rearArtilleryLimit(s, shooter.id, weapon, u.line)
      );
    })
    .map((u) => u.id)
    .sort();
}

/** ChooseFriendlyFireVictim: the opponent's choice; the hit is resolved and the paused attack goes on. */
export function decideFriendlyFireVictim(s: State, seat: Side, c: Extract<Command, { type: 'ChooseFriendlyFireVictim' }>, ctx: Ctx): Decision {
  const ff = s.friendlyFire;
  if (!ff || ff.chooser !== seat) return no('combat/no-friendly-fire', 'No friendly-fire victim is yours to choose', RULE.attack);
  if (!ff.candidates.includes(c.unit))
    return no('combat/not-a-candidate', `${c.unit} is not a legal friendly-fire target; choose one of ${ff.candidates.join(', ')}`, RULE.attack);
  if (c.boostWith !== undefined) {
    if (!atLeast(s, 3)) return no('command/no-boost', 'Under these rules (version 2) the friendly-fire Intensity roll cannot be improved', RULE.command);
    if (!s.seats[seat].commands.includes(c.boostWith)) return no('command/not-in-hand', `${c.boostWith} is not in your hand`, RULE.command);
  }
  const out = new Out(s);
  out.emit({ type: 'FriendlyFireVictimChosen', attackId: ff.attackId, unit: c.unit, automatic: false });
  // The chooser's +1 makes the hit on the attacker's own unit worse: discarded just before the Intensity roll.
  if (c.boostWith !== undefined) out.emit({ type: 'CommandCardDiscardedForBonus', seat, card: c.boostWith, roll: 'intensity' });
  const held = s.seats[other(seat)].heldBoosts;
  const a = out.s.attacks.find((x) => x.id === ff.attackId)!;
  resolveHit(out, ctx, a, ff.weapon, c.unit, null, true, c.boostWith !== undefined);
  if (!out.s.result) runAttack(out, ctx, a.id, held);
  return ok(out.list);
}
