import { describe, expect, it } from 'vitest';
import { spearpoint, type State } from '../../domain/spearpoint/index.js';
import { CheckedGame } from './harness.js';

/**
 * The opening of a game as a player would type it (the commands quoted in the docs), through
 * the kernel: instance ids follow the deck list (us-combined-arms: us-001..003 Rifle Squads,
 * us-014 and us-016 Shermans, us-015 and us-017 Tank Crews). Which copy of identical cards a
 * pick takes, and the hand AutoPickHand picks, come from the secret dice (muster.ts), so the
 * ids are read from the hand.
 */
describe('a walkthrough of one turn', () => {
  it('starting hands, a sealed commitment, a sealed declaration, combat and the draw', () => {
    const g = new CheckedGame('3c'.repeat(32), 'walkthrough', { checkedEvents: 0, checkedViews: 0 });
    g.start({});
    const s = (): State => g.state!.game;
    // The starting hand is a sealed order: four picks, then the seal.
    for (const card of ['us-m4a1-sherman', 'us-tank-crew', 'us-rifle-squad', 'us-rifle-squad']) g.play('us', { type: 'PickStartingUnit', card });
    g.play('us', { type: 'SealOrder' });
    g.play('de', { type: 'AutoPickHand' });
    const cardsOf = (ids: readonly string[]) => ids.map((id) => s().cards[id]!.card);
    expect(cardsOf(s().seats.us.hand)).toEqual(['us-m4a1-sherman', 'us-tank-crew', 'us-rifle-squad', 'us-rifle-squad']);
    const [sherman, crew, rifle] = s().seats.us.hand as [string, string, string, string];
    expect(['us-014', 'us-016']).toContain(sherman);
    expect(['us-001', 'us-002', 'us-003']).toContain(rifle);
    // The server's pick: four units that need no crew (all German infantry in this deck); one for the front line.
    expect(s().seats.de.hand).toHaveLength(4);
    const de = s().seats.de.hand.find((id) => s().catalog.units.find((u) => u.id === s().cards[id]!.card)!.line === 'front')!;
    expect(s().phase).toBe('commitment');

    g.play('us', { type: 'CommitUnit', unit: sherman, crew });
    g.play('us', { type: 'CommitUnit', unit: rifle });
    g.play('us', { type: 'SealOrder' });
    g.play('de', { type: 'CommitUnit', unit: de });
    g.play('de', { type: 'SealOrder' });
    expect(s().phase).toBe('declaration');
    expect(Object.keys(s().inPlay).sort()).toEqual([de, rifle, sherman].sort());

    g.play('us', { type: 'DeclareAttack', attacker: sherman, target: de, weapons: [0, 1] });
    g.play('us', { type: 'SealOrder', initiativeBoost: s().seats.us.commands[0]! });
    g.play('de', { type: 'DeclareAttack', attacker: de, target: rifle, weapons: [0] });
    g.play('de', { type: 'SealOrder' });
    expect(s().phase).toBe('combat');
    expect(s().attacks.map((a) => a.id)).toEqual(['t1-us-1', 't1-de-1']);

    while (s().phase === 'combat') {
      const p = spearpoint.pending(s())[0]!;
      const seat = p.seat as 'us' | 'de';
      if (p.kind === 'reaction') g.play(seat, { type: 'ChooseFriendlyFireVictim', unit: s().friendlyFire!.candidates[0]! });
      else g.play(seat, { type: 'ResolveAttack', attackId: s().attacks.find((a) => a.seat === seat && a.status === 'pending')!.id });
    }
    if (s().phase === 'draw') {
      for (const seat of ['us', 'de'] as const) {
        g.play(seat, { type: 'DrawCard', from: 'command' });
        g.play(seat, { type: 'DrawCard', from: 'reserves' });
        g.play(seat, { type: 'DrawCard', from: 'command' });
      }
      expect(s().turn).toBe(2);
      expect(s().phase).toBe('commitment');
    }
    expect(g.stats.checkedEvents).toBeGreaterThan(20);
  });
});
