import { describe, expect, it } from 'vitest';
import { scriptedRng } from '../../domain/kernel/index.js';
import { indexCatalog } from '../../domain/frontline-general/data/catalog.js';
import { lineOfSight, defenseOf } from '../../domain/spearpoint-map/rules.js';
import { Out } from '../../domain/spearpoint-map/out.js';
import { endTurn } from '../../domain/spearpoint-map/turn.js';
import type { Phase, State } from '../../domain/spearpoint-map/model.js';
import { engine } from './play.js';
import { given, refused, run } from './given.js';

/** A position where the US holds one copy of the named Command card. */
function holding(
  title: string,
  phase: Phase,
  units = [
    { id: 'r', card: 'us-rifle-squad', at: 'C5' },
    { id: 'g', card: 'de-rifle-squad', at: 'A5' },
    { id: 't', card: 'us-m4a1-sherman', crew: 'us-tank-crew', at: 'C4' },
  ],
): { s: State; card: string } {
  const s = given({ units, phase });
  const card = s.commandDeck.draw.find((c) => indexCatalog(s.catalog).command(c).title === title)!;
  return { s: { ...s, seats: { ...s.seats, us: { ...s.seats.us, commands: [card] } } }, card };
}

describe('003 Command cards played on the map', () => {
  it('Combat 23: Lay Smoke conceals one space: LOS through it is blocked, its units may not be targeted or fire, for 3 turns', () => {
    const { s, card } = holding('Lay Smoke', 'declaration');
    expect(lineOfSight(s, 'C5', 'A5', 'us')).toBe(true);
    expect(engine.legalCommands(s, 'us')).toContainEqual({ type: 'PlayCommand', card, target: 'A5' });
    const laid = run(s, { type: 'PlayCommand', card, target: 'B5' }).state;
    expect(laid.smoke).toEqual({ B5: 3 });
    expect(laid.seats.us.commands).toEqual([]);
    expect(laid.commandDeck.discard).toContain(card); // out of the game (003 l.858)
    expect(lineOfSight(laid, 'C5', 'A5', 'us')).toBe(false);
    const onUnit = run(s, { type: 'PlayCommand', card, target: 'A5' }).state;
    expect(refused(onUnit, { type: 'DeclareAttack', attacker: 'r', target: 'g', weapons: [0] })).toBe('combat/smoke');
    // It lasts 3 turns: lifted at the end of the third.
    let x = laid;
    for (const left of [2, 1]) {
      const out = new Out({ ...x, phase: 'draw' });
      endTurn(out, { rng: scriptedRng([5, 3, 5, 3]), now: '' });
      x = out.s;
      expect(x.smoke).toEqual({ B5: left });
    }
    const out = new Out({ ...x, phase: 'draw' });
    endTurn(out, { rng: scriptedRng([5, 3]), now: '' });
    expect(out.s.smoke).toEqual({});
  });
  it('Combat 23: not on a space where units fight within it, not off the map, not outside the declaration phase', () => {
    const { s, card } = holding('Lay Smoke', 'declaration', [
      { id: 'r', card: 'us-rifle-squad', at: 'B5' },
      { id: 'g', card: 'de-rifle-squad', at: 'B5' },
    ]);
    expect(refused(s, { type: 'PlayCommand', card, target: 'B5' })).toBe('cards/smoke-on-fight');
    expect(refused(s, { type: 'PlayCommand', card, target: '__proto__' })).toBe('cards/not-a-space');
    expect(refused({ ...s, phase: 'commitment' }, { type: 'PlayCommand', card, target: 'B4' })).toBe('cards/wrong-phase');
    expect(refused(s, { type: 'PlayCommand', card: 'constructor', target: 'B4' })).toBe('cards/not-held');
  });
  it('§II Command Cards: Dig In is tucked under a US infantry unit (+2 Defense) and cleared when it moves (Commitment 8)', () => {
    const { s, card } = holding('Dig In', 'commitment');
    expect(refused(s, { type: 'PlayCommand', card, target: 't' })).toBe('cards/wrong-type');
    expect(refused(s, { type: 'PlayCommand', card, target: 'g' })).toBe('cards/not-your-unit');
    expect(engine.legalCommands(s, 'us')).toContainEqual({ type: 'PlayCommand', card, target: 'r' });
    const before = defenseOf(s, 'r', 'A5', false);
    const dug = run(s, { type: 'PlayCommand', card, target: 'r' }).state;
    expect(defenseOf(dug, 'r', 'A5', false)).toBe(before + 2);
    expect(dug.units['r']!.attached).toEqual([card]);
    const moved = run({ ...dug, phase: 'movement' }, { type: 'Move', unit: 'r', to: 'C6' }).state;
    expect(moved.units['r']!.attached).toEqual([]);
  });
  it('identical titles do not stack; cards not played on the map are refused', () => {
    const { s, card } = holding('Veteran Soldiers', 'commitment');
    const vet = run(s, { type: 'PlayCommand', card, target: 'r' }).state;
    const second = s.commandDeck.draw.find((c) => c !== card && indexCatalog(s.catalog).command(c).title === 'Veteran Soldiers')!;
    expect(refused({ ...vet, seats: { ...vet.seats, us: { ...vet.seats.us, commands: [second] } } }, { type: 'PlayCommand', card: second, target: 'r' })).toBe(
      'cards/same-title',
    );
    const { s: s2, card: resupply } = holding('Resupply', 'commitment');
    expect(refused(s2, { type: 'PlayCommand', card: resupply, target: 'r' })).toBe('cards/no-target');
  });
});
