import { seededRng } from '../../domain/kernel/index.js';
import { spearpoint, type State } from '../../domain/spearpoint/index.js';
import { CheckedGame } from './harness.js';

/**
 * Twin states for hidden-information tests: positions from real games (random legal play
 * through the kernel) at every phase, and for each a twin that differs only in what the prober
 * (the US seat) must not know. Whatever a seat can read (its view, its picture, the answers to
 * its commands) must be the same for both.
 */
export type Side = 'us' | 'de';
export const PROBER: Side = 'us';
export const OPP: Side = 'de';
export const NOW = '2026-01-01T00:00:00.000Z';

export const rngFor = (tag: string) => seededRng({ seed: '9a'.repeat(32), gameId: `probe-${tag}`, entropy: [], counter: 0 });

const swapAt = <T>(xs: readonly T[], i: number, v: T): T[] => xs.map((x, k) => (k === i ? v : x));

/** Card ids the other side's unsealed order names (those must stay where they are). */
const namedByOrder = (s: State, side: Side) => new Set(JSON.stringify(s.seats[side].order).match(/[a-z]+-[a-z0-9-]+/g) ?? []);

/**
 * The same game as far as the prober may know, with the other side's secrets changed: a card of
 * its hand swapped with a different card of its Reserves, a command card of its hand swapped with
 * a different one near the bottom of the Command deck, its Reserves order reversed, and an order
 * step added to its unsealed order. With `decks`, every deck order (the prober's own Reserves too)
 * is reversed as well. Returns what was changed, so the test can insist the twin really differs.
 */
export function twin(s: State, decks: boolean): { t: State; changed: string[] } {
  const changed: string[] = [];
  let t = s;
  const opp = () => t.seats[OPP];
  const patchOpp = (p: Partial<State['seats'][Side]>) => (t = { ...t, seats: { ...t.seats, [OPP]: { ...t.seats[OPP], ...p } } });
  if ((t.phase === 'commitment' || t.phase === 'declaration') && !opp().sealed) {
    const step = spearpoint.legalCommands(t, OPP).find((c) => !['SealOrder', 'ClearOrder', 'SetStandingOrders'].includes(c.type));
    if (step) {
      const r = spearpoint.decide(t, step, OPP, { rng: rngFor('twin'), now: NOW });
      if (r.ok) {
        for (const e of r.value) t = spearpoint.evolve(t, e.event);
        changed.push(`order step ${step.type}`);
      }
    }
  }
  // A sealed order stays hidden until both have sealed: another one (here: none) must look the same.
  if (
    (t.phase === 'commitment' || t.phase === 'declaration' || t.phase === 'initiative') &&
    opp().sealed &&
    !t.seats[PROBER].sealed &&
    opp().order.length > 0
  ) {
    patchOpp({ order: [] });
    changed.push('sealed order');
  }
  const busy = namedByOrder(t, OPP);
  const cat = (id: string) => t.cards[id]!.card;
  const hi = opp().hand.findIndex((h) => !busy.has(h) && opp().reserves.some((r) => cat(r) !== cat(h)));
  if (hi >= 0) {
    const h = opp().hand[hi]!;
    const ri = opp().reserves.findIndex((r) => cat(r) !== cat(h));
    const r = opp().reserves[ri]!;
    patchOpp({ hand: swapAt(opp().hand, hi, r), reserves: swapAt(opp().reserves, ri, h) });
    changed.push(`hand ${h} <-> reserves ${r}`);
  }
  const title = (id: string) => t.catalog.commandCards.find((c) => c.id === id)!.title;
  const ci = opp().commands.findIndex((c) => !busy.has(c));
  if (ci >= 0) {
    const c = opp().commands[ci]!;
    let di = t.commandDeck.draw.length - 1;
    while (di >= 0 && title(t.commandDeck.draw[di]!) === title(c)) di--;
    // Near the bottom, so a draw the prober makes from the top never meets it.
    if (di >= 3) {
      const d = t.commandDeck.draw[di]!;
      patchOpp({ commands: swapAt(opp().commands, ci, d) });
      t = { ...t, commandDeck: { ...t.commandDeck, draw: swapAt(t.commandDeck.draw, di, c) } };
      changed.push(`command ${c} <-> deck ${d}`);
    }
  }
  if (opp().reserves.length > 1) {
    patchOpp({ reserves: [...opp().reserves].reverse() });
    changed.push('opponent reserves order');
  }
  if (decks) {
    t = {
      ...t,
      commandDeck: { ...t.commandDeck, draw: [...t.commandDeck.draw].reverse() },
      damageDeck: { ...t.damageDeck, draw: [...t.damageDeck.draw].reverse() },
    };
    t = { ...t, seats: { ...t.seats, [PROBER]: { ...t.seats[PROBER], reserves: [...t.seats[PROBER].reserves].reverse() } } };
    changed.push('deck orders');
  }
  return { t, changed };
}

/** States of real games (random legal play through the kernel) at each phase, with the prober able to act. */
export function checkpoints(): State[] {
  const out: State[] = [];
  const options = [{}, { us: { preset: 'us-armor' }, de: { preset: 'de-armor' } }, { situation: 'tiger-hunt' }];
  for (let g = 0; g < 3; g++) {
    const game = new CheckedGame('b7'.repeat(32), `probe-game-${g}`, { checkedEvents: 0, checkedViews: 0 }, false);
    game.start({ ...options[g % options.length], maxTurns: 12 });
    const pick = seededRng({ seed: 'c4'.repeat(32), gameId: `pick-${g}`, entropy: [], counter: 0 });
    const seen = new Map<string, number>();
    for (let n = 0; n < 400 && game.state!.meta.status === 'active'; n++) {
      const s = game.state!.game;
      const key = `${s.phase}:${s.friendlyFire ? 'ff' : ''}:${s.seats[OPP].sealed && s.seats[OPP].order.length > 0 ? 'sealed' : ''}`;
      if ((seen.get(key) ?? 0) < 1 && spearpoint.legalCommands(s, PROBER).length > 0 && (n % 2 === 0 || s.phase === 'combat')) {
        seen.set(key, (seen.get(key) ?? 0) + 1);
        out.push(s);
      }
      const pending = spearpoint.pending(s);
      const seat = pending[pick.int(pending.length)]!.seat as Side;
      const legal = spearpoint.legalCommands(s, seat);
      // Lean towards sealing and resolving so the game moves through its phases.
      const attacks = s.seats[seat].order.length < 2 ? legal.filter((c) => c.type === 'DeclareAttack' || c.type === 'CommitUnit') : [];
      const forward = attacks.length ? attacks : legal.filter((c) => c.type === 'SealOrder' || c.type === 'ResolveAttack' || c.type === 'DrawCard');
      const pool = forward.length && pick.int(3) > 0 ? forward : legal;
      game.play(seat, pool[pick.int(pool.length)]);
    }
  }
  return out;
}
