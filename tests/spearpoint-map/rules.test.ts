import { describe, expect, it } from 'vitest';
import { attackResult, MAP_EXPANSION, needsDamageCard, netDamage } from '../../domain/frontline-general/rules.js';
import { BUILT_IN_CATALOG, indexCatalog } from '../../domain/frontline-general/data/catalog.js';
import { mineExitFails, wireExitPasses } from '../../domain/spearpoint-map/data/tiles.js';
import { crossed, distance } from '../../domain/spearpoint-map/map.js';
import { pathTo } from '../../domain/spearpoint-map/movement.js';
import { assaultValue } from '../../domain/spearpoint-map/close-assault.js';
import { attackVoid, resolveAttack } from '../../domain/spearpoint-map/combat.js';
import { featureRule } from '../../domain/spearpoint-map/features.js';
import { defenseOf, hitNeeded, lineOfSight, movementAllowance, spotters } from '../../domain/spearpoint-map/rules.js';
import { given, refused, run } from './given.js';
import { engine } from './play.js';
import type { Command, State } from '../../domain/spearpoint-map/model.js';
import { Out } from '../../domain/spearpoint-map/out.js';
import { scriptedRng } from '../../domain/kernel/index.js';

const unit = (id: string) => indexCatalog(BUILT_IN_CATALOG).unit(id);

describe('003 worked examples', () => {
  it('Combat 9 example: Tiger 88mm hits a Sherman with 12, Intensity 7: 15 − 5 = 10 through, 14 → 4, past Half 7: a Damage card', () => {
    const sherman = unit('us-m4a1-sherman');
    const gun = unit('de-tiger-i').weapons[0]!;
    expect(attackResult([6, 6], 0, 10, MAP_EXPANSION)).toBe('hit');
    expect(attackResult([4, 4], 0, 10, MAP_EXPANSION)).toBe('miss'); // the US player's 8 is a miss
    expect(netDamage(7, gun.damageIndex, sherman.defense)).toBe(10);
    expect(sherman.endurance.full - 10).toBe(4);
    expect(needsDamageCard(sherman, 4, false)).toBe(true);
  });
  it('Combat 9 example: the second Sherman 75mm hits the Tiger with 16, Intensity 5: 12 − 7 = 5, Tiger 24 → 19, no Damage card', () => {
    const tiger = unit('de-tiger-i');
    const gun = unit('us-m4a1-sherman').weapons[0]!;
    expect(netDamage(5, gun.damageIndex, tiger.defense)).toBe(5);
    expect(needsDamageCard(tiger, 19, false)).toBe(false);
  });
  it('Combat 9 example through the engine: the Tiger at B9 fires on the Sherman at B5 (rolls 6+6, Intensity 7), the Sherman is left at 4 with a Damage card', () => {
    const s = given({
      units: [
        { id: 'sherman', card: 'us-m4a1-sherman', crew: 'us-tank-crew', at: 'B5' },
        { id: 'tiger', card: 'de-tiger-i', crew: 'de-tank-crew', at: 'B9' },
      ],
      phase: 'declaration',
    });
    const d = run({ ...s, active: 'de' }, { type: 'DeclareAttack', attacker: 'tiger', target: 'sherman', weapons: [0] }, 'de');
    const st = { ...d.state, phase: 'resolution' as const, active: 'de' as const };
    const r = run(st, { type: 'ResolveAttack', attackId: 'atk-1' }, 'de', [6, 6, 7, 1]);
    const hit = r.events.find((e) => e.type === 'HitResolved');
    expect(hit).toMatchObject({ intensity: [7], damageIndex: 8, defense: 5, net: 10, endurance: 4 });
    expect(r.events.some((e) => e.type === 'DamageCardDrawn' && e.unit === 'sherman')).toBe(true);
  });
  it('Combat 16 example: the group rolls once at its best value against vehicles (a 9: the Panzerschreck)', () => {
    const s = given({
      units: [
        { id: 'r1', card: 'de-rifle-squad', at: 'A5' },
        { id: 'r2', card: 'de-rifle-squad', at: 'C5' },
        { id: 'ps', card: 'de-panzerschreck-team', at: 'B4' },
        { id: 'sh', card: 'us-m4a1-sherman', crew: 'us-tank-crew', at: 'B5' },
      ],
    });
    expect(assaultValue(s, ['r1', 'r2', 'ps'])).toBe(9);
  });
  it('Combat 20 example: a Panther 3 spaces from a house needs 6 on 2d10 (10 with bonus 4) and Intensity 6+', () => {
    const s = given({ tiles: [{ space: 'A3', kind: 'building' }], units: [{ id: 'p', card: 'de-panther', crew: 'de-tank-crew', at: 'A6' }] });
    expect(featureRule(s, 'p', 0, 'A3')).toEqual({ auto: false, bonus: 4, intensity: 6 });
    const d = run({ ...s, active: 'de' }, { type: 'DeclareAttack', attacker: 'p', target: 'feature:A3', weapons: [0] }, 'de');
    const r = run({ ...d.state, phase: 'resolution', active: 'de' }, { type: 'ResolveAttack', attackId: 'atk-1' }, 'de', [3, 3, 6]);
    expect(r.events.find((e) => e.type === 'FeatureAttacked')).toMatchObject({ needed: 6, intensity: 6, destroyed: true });
    expect(r.state.tiles.A3!.intact).toBe(false);
  });
  it('Combat 17 example: a Rifle Squad stacked with a Tiger I has Defense 5 (7 − 2)', () => {
    const s = given({
      units: [
        { id: 'r', card: 'de-rifle-squad', at: 'B5' },
        { id: 't', card: 'de-tiger-i', crew: 'de-tank-crew', at: 'B5' },
      ],
    });
    expect(defenseOf(s, 'r', 'B2', false)).toBe(5);
  });
  it('Combat 8 example: a .30cal LMG Team spots for two 105mm Howitzers on one space, and does not attack itself', () => {
    const s = given({
      scenario: 'crimson-snow',
      step: 'support',
      units: [
        { id: 'lmg', card: 'us-30cal-lmg-team', at: 'C5' },
        { id: 'h1', card: 'us-105mm-howitzer', crew: 'us-artillery-crew', at: 'rear' },
        { id: 'h2', card: 'us-105mm-howitzer', crew: 'us-artillery-crew', at: 'rear' },
        { id: 'g', card: 'de-rifle-squad', at: 'A5' },
      ],
    });
    const a = run(s, { type: 'DeclareAttack', attacker: 'h1', target: 'space:A5', weapons: [0], spotter: 'lmg' });
    const b = run(a.state, { type: 'DeclareAttack', attacker: 'h2', target: 'space:A5', weapons: [0], spotter: 'lmg' });
    expect(b.state.attacks).toHaveLength(2);
    expect(refused(b.state, { type: 'DeclareAttack', attacker: 'lmg', target: 'g', weapons: [0] })).toBe('combat/already-declared');
  });
});

describe('003 rules', () => {
  it('range and adjacency count orthogonal steps; lines through corners touch the spaces at the corner', () => {
    expect(distance('A1', 'C3')).toBe(4);
    expect(crossed('A1', 'A3')).toEqual(['A2']);
    expect(crossed('A1', 'C3')).toEqual(expect.arrayContaining(['B2']));
  });
  it('LOS: walls block, a friendly unit in between blocks, an enemy does not, smoke blocks (Combat 8, 23)', () => {
    const base = { units: [{ id: 'x', card: 'us-rifle-squad', at: 'B1' }] };
    expect(lineOfSight(given({ ...base, tiles: [{ space: 'B2', kind: 'building' }] }), 'B1', 'B3', 'us')).toBe(false);
    expect(lineOfSight(given({ units: [{ id: 'f', card: 'us-rifle-squad', at: 'B2' }] }), 'B1', 'B3', 'us')).toBe(false);
    expect(lineOfSight(given({ units: [{ id: 'e', card: 'de-rifle-squad', at: 'B2' }] }), 'B1', 'B3', 'us')).toBe(true);
    expect(lineOfSight({ ...given(base), smoke: { B2: 3 } }, 'B1', 'B3', 'us')).toBe(false);
  });
  it('movement: infantry 2 (3 sprinting), tanks 1 (2 pushed); muddy scenarios 1; guns never (Movement 2)', () => {
    const s = given({
      units: [
        { id: 'r', card: 'us-rifle-squad', at: 'B1' },
        { id: 'sh', card: 'us-m4a1-sherman', crew: 'us-tank-crew', at: 'A1' },
        { id: 'g', card: 'us-57mm-at-gun', crew: 'us-artillery-crew', at: 'C1' },
      ],
    });
    expect([
      movementAllowance(s, 'r', false),
      movementAllowance(s, 'r', true),
      movementAllowance(s, 'sh', false),
      movementAllowance(s, 'sh', true),
      movementAllowance(s, 'g', true),
    ]).toEqual([2, 3, 1, 2, 0]);
    const mud = given({ scenario: 'a-buried-tank', units: [{ id: 'r', card: 'us-rifle-squad', at: 'B1' }] });
    expect(movementAllowance(mud, 'r', true)).toBe(1);
  });
  it('no diagonal moves, no passing through enemies, at most two friendly units at the end (Movement 1, 3, 4)', () => {
    const s = given({
      units: [
        { id: 'r', card: 'us-rifle-squad', at: 'B1' },
        { id: 'e', card: 'de-tiger-i', crew: 'de-tank-crew', at: 'B2' },
        { id: 'f1', card: 'us-rifle-squad', at: 'A2' },
        { id: 'f2', card: 'us-sniper', at: 'A2' },
      ],
    });
    expect(pathTo(s, 'r', 'B3', false)).toEqual([]); // through the enemy or 3 steps around
    expect(pathTo(s, 'r', 'A2', false)).toEqual([]); // two friends already there
    expect(pathTo(s, 'r', 'C2', false)).toEqual(['B1', 'C1', 'C2']);
  });
  it('entry/exit arrows (Movement 7, §II 8, 13): along a trench’s arrows infantry move on; across its other sides they stop; a bunker only by its arrows', () => {
    const s = given({
      tiles: [
        { space: 'B2', kind: 'infantry-trench' },
        { space: 'B5', kind: 'bunker' },
      ],
      units: [
        { id: 'w', card: 'us-rifle-squad', at: 'B1' },
        { id: 'n', card: 'us-rifle-squad', at: 'A2' },
        { id: 's', card: 'us-rifle-squad', at: 'C5' },
        { id: 'e', card: 'us-rifle-squad', at: 'B4' },
      ],
    });
    // REPRESENTATIVE orientation: arrows on the east and west sides of both.
    expect(s.tiles.B2).toEqual({ kind: 'infantry-trench', intact: true, arrows: ['east', 'west'] });
    expect(pathTo(s, 'w', 'B3', false)).toEqual(['B1', 'B2', 'B3']); // in and out along the arrows
    expect(pathTo(s, 'n', 'B2', false)).toEqual(['A2', 'B2']); // from the front edge: an obstacle entry …
    expect(pathTo(s, 'n', 'C2', false)).toEqual([]); // … which ends the move
    expect(pathTo(s, 's', 'B5', false)).toEqual([]); // no arrow on the bunker's south side
    expect(pathTo(s, 's', 'B5', true)).toEqual(['C5', 'C4', 'B4', 'B5']); // round to its west arrow
    expect(pathTo(s, 'e', 'B6', false)).toEqual(['B4', 'B5', 'B6']); // through it along the arrows
    // A tank trench (running east–west) is crossed only from north or south, and it stops the move there.
    const tt = given({
      tiles: [{ space: 'B2', kind: 'tank-trench' }],
      units: [
        { id: 'w', card: 'us-rifle-squad', at: 'B1' },
        { id: 'c', card: 'us-rifle-squad', at: 'C2' },
      ],
    });
    expect(pathTo(tt, 'w', 'B2', false)).toEqual([]);
    expect(pathTo(tt, 'c', 'B2', false)).toEqual(['C2', 'B2']);
    expect(pathTo(tt, 'c', 'A2', false)).toEqual([]);
    // A club orients its own tiles; arrows only on tiles that have them, and one must face into the map.
    const south = given({ tiles: [{ space: 'B5', kind: 'bunker', arrows: ['south'] }], units: [{ id: 's', card: 'us-rifle-squad', at: 'C5' }] });
    expect(pathTo(south, 's', 'B5', false)).toEqual(['C5', 'B5']);
    expect(engine.optionsSchema.safeParse({ tiles: [{ space: 'B5', kind: 'building', arrows: ['south'] }] }).success).toBe(false);
    expect(engine.optionsSchema.safeParse({ tiles: [{ space: 'A1', kind: 'bunker', arrows: ['north', 'west'] }] }).success).toBe(false);
    expect(engine.optionsSchema.safeParse({ tiles: [{ space: 'A1', kind: 'bunker', arrows: ['east'] }] }).success).toBe(true);
  });
  it('obstacles end movement; tanks may not enter buildings; a tank entering crops removes them (Movement 7, §II 1, 4)', () => {
    const s = given({
      tiles: [
        { space: 'B2', kind: 'wire' },
        { space: 'A1', kind: 'building' },
        { space: 'C1', kind: 'crops' },
      ],
      units: [
        { id: 'r', card: 'us-rifle-squad', at: 'B1' },
        { id: 'sh', card: 'us-m4a1-sherman', crew: 'us-tank-crew', at: 'B1' },
      ],
    });
    expect(pathTo(s, 'r', 'B3', false)).toEqual([]);
    expect(pathTo(s, 'r', 'B2', false)).toEqual(['B1', 'B2']);
    expect(pathTo(s, 'sh', 'A1', false)).toEqual([]);
    const moved = run({ ...s, phase: 'movement' }, { type: 'Move', unit: 'sh', to: 'C1' });
    expect(moved.state.tiles.C1).toBeUndefined();
  });
  it('wire exit needs 10+; minefield exit fails on 11+ for infantry and 7+ for vehicles (§II 6, 14)', () => {
    expect([wireExitPasses(9), wireExitPasses(10)]).toEqual([false, true]);
    expect([mineExitFails(10, false), mineExitFails(11, false), mineExitFails(6, true), mineExitFails(7, true)]).toEqual([false, true, false, true]);
  });
  it('a failed wire exit keeps the unit in the wire this turn', () => {
    const s = given({ tiles: [{ space: 'B1', kind: 'wire' }], units: [{ id: 'r', card: 'us-rifle-squad', at: 'B1' }], phase: 'movement' });
    const r = run(s, { type: 'Move', unit: 'r', to: 'B2' }, 'us', [4, 4]);
    expect(r.events.map((e) => e.type)).toEqual(['ExitRolled']);
    expect(refused(r.state, { type: 'Move', unit: 'r', to: 'B2' })).toBe('move/cannot-move');
  });
  it('no friendly fire on 2-3; 19-20 draws a Damage card, destroying a unit that has one (Combat 14, 18)', () => {
    expect(attackResult([1, 2], 0, 3, MAP_EXPANSION)).toBe('hit');
    const s = given({
      units: [
        { id: 'r', card: 'us-rifle-squad', at: 'B1' },
        { id: 'e', card: 'de-rifle-squad', at: 'B3' },
      ],
    });
    const d = run(s, { type: 'DeclareAttack', attacker: 'r', target: 'e', weapons: [1] });
    const r = run({ ...d.state, phase: 'resolution', active: 'us' }, { type: 'ResolveAttack', attackId: 'atk-1' }, 'us', [10, 9]);
    expect(r.events.map((e) => e.type)).toContain('DamageCardDrawn');
    const twice = run(
      { ...d.state, phase: 'resolution', active: 'us', units: { ...d.state.units, e: { ...d.state.units.e!, damageCard: 'dmg-24' } } },
      { type: 'ResolveAttack', attackId: 'atk-1' },
      'us',
      [10, 10],
    );
    expect(twice.events.find((e) => e.type === 'UnitDestroyed')).toMatchObject({ unit: 'e', by: 'us', points: 3 });
  });
  it('close-range bonus 3 within one space, 2 easier against guns, concealment of crops (Combat 3, 7; §II 4)', () => {
    const s = given({
      tiles: [{ space: 'B5', kind: 'crops' }],
      units: [
        { id: 'r', card: 'us-rifle-squad', at: 'B1' },
        { id: 'e', card: 'de-rifle-squad', at: 'B2' },
        { id: 'c', card: 'de-rifle-squad', at: 'B5' },
        { id: 'g', card: 'de-88mm-flak-36', crew: 'de-artillery-crew', at: 'B3' },
      ],
    });
    expect(hitNeeded(s, 'r', 1, 'e', { area: false, unspotted: false })).toBe(11 - 3);
    expect(hitNeeded(s, 'r', 1, 'c', { area: false, unspotted: false })).toBe(11 + 2);
    expect(hitNeeded(s, 'r', 1, 'g', { area: false, unspotted: false })).toBe(16 - 2);
  });
  it('infantry range 5; a mortar may not fire within 3 spaces (Combat 7)', () => {
    const s = given({
      units: [
        { id: 'r', card: 'us-rifle-squad', at: 'B1' },
        { id: 'm', card: 'us-mortar-squad', at: 'A1' },
        { id: 'far', card: 'de-rifle-squad', at: 'B8' },
        { id: 'near', card: 'de-rifle-squad', at: 'A3' },
      ],
    });
    expect(refused(s, { type: 'DeclareAttack', attacker: 'r', target: 'far', weapons: [0] })).toBe('combat/out-of-range');
    expect(refused(s, { type: 'DeclareAttack', attacker: 'm', target: 'space:A3', weapons: [0] })).toBe('combat/out-of-range');
  });
  it('units inside an intact building cannot be attacked from outside (§II 1); only a Sniper fires into a space holding friends (Combat 19)', () => {
    const s = given({
      tiles: [{ space: 'B3', kind: 'building' }],
      units: [
        { id: 'r', card: 'us-rifle-squad', at: 'B1' },
        { id: 'in', card: 'de-rifle-squad', at: 'B3' },
      ],
    });
    expect(refused(s, { type: 'DeclareAttack', attacker: 'r', target: 'in', weapons: [0] })).toBe('combat/impervious');
    const raid = given({
      units: [
        { id: 'r', card: 'us-rifle-squad', at: 'B1' },
        { id: 'f', card: 'us-rifle-squad', at: 'B2' },
        { id: 'e', card: 'de-rifle-squad', at: 'B2' },
        { id: 'sn', card: 'us-sniper', at: 'B4' },
      ],
    });
    expect(refused(raid, { type: 'DeclareAttack', attacker: 'r', target: 'e', weapons: [0] })).toBe('combat/friendly-in-space');
    expect(run(raid, { type: 'DeclareAttack', attacker: 'sn', target: 'e', weapons: [0] }).state.attacks).toHaveLength(1);
  });
  it('Movement 5: units fighting within a raided space must target each other, and Done waits until they have', () => {
    const raid = given({
      units: [
        { id: 'r', card: 'us-rifle-squad', at: 'B2' },
        { id: 'e', card: 'de-rifle-squad', at: 'B2' },
        { id: 'out', card: 'de-rifle-squad', at: 'B4' },
        { id: 'free', card: 'us-rifle-squad', at: 'C4' },
      ],
    });
    // The raider may not fire out of its space, only at the enemy inside it.
    expect(refused(raid, { type: 'DeclareAttack', attacker: 'r', target: 'out', weapons: [0] })).toBe('combat/raid-must-fight');
    const listed = engine.legalCommands(raid, 'us').filter((c) => c.type === 'DeclareAttack' && c.attacker === 'r');
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.every((c) => c.type === 'DeclareAttack' && c.target === 'e')).toBe(true);
    // It must fire: Done is neither listed nor accepted until it has declared.
    expect(engine.legalCommands(raid, 'us')).not.toContainEqual({ type: 'Done' });
    expect(refused(raid, { type: 'Done' })).toBe('combat/raid-must-fight');
    const fired = run(raid, { type: 'DeclareAttack', attacker: 'r', target: 'e', weapons: [0] }).state;
    expect(engine.legalCommands(fired, 'us')).toContainEqual({ type: 'Done' });
    // The same binds the German in the space; a unit outside is free to choose.
    expect(refused({ ...raid, active: 'de' }, { type: 'DeclareAttack', attacker: 'e', target: 'free', weapons: [0] }, 'de')).toBe('combat/raid-must-fight');
    expect(run(raid, { type: 'DeclareAttack', attacker: 'free', target: 'out', weapons: [0] }).state.attacks).toHaveLength(1);
  });
  it('Movement 9: a self-propelled gun changes line through a setup space in the Movement Phase, and moves no other way', () => {
    const s = given({
      scenario: 'standard-game',
      phase: 'movement',
      units: [
        { id: 'm7', card: 'us-m7-priest', crew: 'us-artillery-crew', at: 'rear' },
        { id: 'g', card: 'de-rifle-squad', at: 'B2' },
      ],
    });
    const spg = (x: typeof s) => engine.legalCommands(x, 'us').filter((c) => c.type === 'Move' && c.unit === 'm7');
    expect(spg(s)).toEqual(['A1', 'B1', 'C1'].map((to) => ({ type: 'Move', unit: 'm7', to })));
    const r = run(s, { type: 'Move', unit: 'm7', to: 'B1' });
    expect(r.state.units['m7']!.at).toBe('B1');
    // Entering next to an enemy opens opportunity fire, as any move does.
    expect(r.state.opfire).toMatchObject({ seat: 'de', mover: 'm7', shooters: ['g'] });
    expect(spg({ ...r.state, opfire: null })).toEqual([]); // once a Movement Phase
    // The next turn it may go back to the rear line from its setup space, and nowhere else on the map.
    const next = { ...r.state, opfire: null, turn: 3 };
    expect(spg(next)).toEqual([{ type: 'Move', unit: 'm7', to: 'rear' }]);
    expect(refused(next, { type: 'Move', unit: 'm7', to: 'B2' })).toBe('move/cannot-move');
    expect(run(next, { type: 'Move', unit: 'm7', to: 'rear' }).state.units['m7']!.at).toBe('rear');
    // Only from a setup space, only with its crew, only self-propelled guns, only where there is a rear line.
    const deep = { ...next, units: { ...next.units, m7: { ...next.units['m7']!, at: 'B3' } } };
    expect(refused(deep, { type: 'Move', unit: 'm7', to: 'rear' })).toBe('move/line-change');
    expect(refused({ ...s, units: { ...s.units, m7: { ...s.units['m7']!, crew: null } } }, { type: 'Move', unit: 'm7', to: 'B1' })).toBe('move/line-change');
    expect(refused(s, { type: 'Move', unit: 'm7', to: 'B5' })).toBe('move/line-change');
    const rifle = given({ scenario: 'standard-game', phase: 'movement', units: [{ id: 'r', card: 'us-rifle-squad', at: 'B1' }] });
    expect(refused(rifle, { type: 'Move', unit: 'r', to: 'rear' })).toBe('move/line-change');
    const noRear = given({ phase: 'movement', units: [{ id: 'm7', card: 'us-m7-priest', crew: 'us-artillery-crew', at: 'B1' }] });
    expect(refused(noRear, { type: 'Move', unit: 'm7', to: 'rear' })).toBe('move/line-change');
  });
  it('Turn Sequence, Combat 2: aircraft and artillery targets are declared first by both sides, then all other targets', () => {
    const s = given({
      scenario: 'crimson-snow',
      step: 'support',
      units: [
        { id: 'r', card: 'us-rifle-squad', at: 'C5' },
        { id: 'lmg', card: 'us-30cal-lmg-team', at: 'C4' },
        { id: 'h', card: 'us-105mm-howitzer', crew: 'us-artillery-crew', at: 'rear' },
        { id: 'g', card: 'de-rifle-squad', at: 'A5' },
      ],
    });
    const shell: Command = { type: 'DeclareAttack', attacker: 'h', target: 'space:A5', weapons: [0], spotter: 'lmg' };
    const rifle: Command = { type: 'DeclareAttack', attacker: 'r', target: 'g', weapons: [0] };
    expect(engine.pending(s)[0]!.prompt).toMatch(/aircraft and artillery/);
    expect(refused(s, rifle)).toBe('combat/support-step');
    expect(
      engine
        .legalCommands(s, 'us')
        .filter((c) => c.type === 'DeclareAttack')
        .every((c) => c.type === 'DeclareAttack' && c.attacker === 'h'),
    ).toBe(true);
    // US (Initiative) Done, then Germany's Done, and the US declares its other targets.
    const de = run(s, { type: 'Done' }).state;
    expect([de.active, de.declStep]).toEqual(['de', 'support']);
    const ground = run(de, { type: 'Done' }, 'de').state;
    expect([ground.phase, ground.active, ground.declStep]).toEqual(['declaration', 'us', 'ground']);
    expect(refused(ground, shell)).toBe('combat/support-step-over');
    expect(run(ground, rifle).state.attacks).toHaveLength(1);
    const done = run(run(ground, { type: 'Done' }).state, { type: 'Done' }, 'de').state;
    expect(done.phase).not.toBe('declaration');
  });
  it('Combat 4: the crew of a front-line gun may be targeted on its own; its damage lasts the turn; killed, it scores and the gun stands crewless', () => {
    const s0 = given({
      units: [
        { id: 'at', card: 'us-57mm-at-gun', crew: 'us-artillery-crew', at: 'B5' },
        { id: 'g', card: 'de-rifle-squad', at: 'A5' },
        { id: 'tk', card: 'us-m4a1-sherman', crew: 'us-tank-crew', at: 'C9' },
      ],
    });
    const s = { ...s0, active: 'de' as const };
    const aimed: Command = { type: 'DeclareAttack', attacker: 'g', target: 'crew:at', weapons: [0] };
    expect(engine.legalCommands(s, 'de')).toContainEqual(aimed);
    expect(refused(s, { ...aimed, target: 'crew:tk' }, 'de')).toBe('combat/no-gun-crew');
    expect(refused(s, { ...aimed, target: 'crew:__proto__' }, 'de')).toBe('combat/no-gun-crew');
    const declared = run(s, aimed, 'de').state;
    const attack = declared.attacks[0]!;
    const fire = (x: State, dice: number[]) => {
      const out = new Out(x);
      resolveAttack(out, { rng: scriptedRng(dice), now: '' }, attack, null);
      return out;
    };
    const idx = indexCatalog(BUILT_IN_CATALOG);
    const crew = idx.unit('us-artillery-crew');
    const defense = crew.defense + idx.unit('us-57mm-at-gun').defense; // the gun's Defense as the crew's bonus (ruling)
    const di = idx.unit('de-rifle-squad').weapons[0]!.damageIndex;
    // A wounding hit: net damage 1, kept for the turn.
    const die = 1 + defense - di;
    expect(die).toBeGreaterThanOrEqual(1);
    const wounded = fire(declared, [8, 8, die, 1, 1, 1, 1]); // later shots of its rate of fire miss
    const hit = wounded.list.map((e) => e.event).find((e) => e.type === 'HitResolved');
    expect(hit).toMatchObject({ target: 'atc', defense, net: 1, endurance: crew.endurance.full - 1 });
    expect(wounded.s.crewWounds).toEqual({ atc: 1 });
    expect(wounded.s.units['at']!.crew).toBe('atc');
    expect(engine.evolve(wounded.s, { type: 'TurnEnded', turn: 2, overrun: { us: 0, de: 0 } }).crewWounds).toEqual({}); // recovered at the End Turn step
    // A killing hit: the crew is lost and scores its cost; the gun stays, crewless.
    const killed = fire(declared, [8, 8, 10]).s;
    expect(killed.units['at']).toMatchObject({ crew: null });
    expect(killed.seats.de.score).toBe(crew.cost);
    const gone = { ...killed, attacks: [{ ...attack, id: 'atk-2' }] };
    expect(attackVoid(gone, gone.attacks[0]!)).toBe('the crew is gone');
  });
  it('spotters: friendly infantry in LOS that do not attack (Combat 8)', () => {
    const s = given({
      units: [
        { id: 'lmg', card: 'us-30cal-lmg-team', at: 'C5' },
        { id: 'g', card: 'de-rifle-squad', at: 'A5' },
      ],
    });
    expect(spotters(s, 'us', 'A5')).toEqual(['lmg']);
  });
  it('Moonlight on Metal: on odd turns units see only adjacent spaces', () => {
    const s = given({ scenario: 'moonlight-on-metal', turn: 3, units: [{ id: 'r', card: 'us-rifle-squad', at: 'C5' }] });
    expect(lineOfSight(s, 'C5', 'A5', 'us')).toBe(false);
    expect(lineOfSight({ ...s, turn: 4 }, 'C5', 'A5', 'us')).toBe(true);
    expect(lineOfSight(s, 'C5', 'B5', 'us')).toBe(true);
  });
  it("Gunter's Return: the US may not target buildings", () => {
    const s = given({
      scenario: 'gunters-return',
      tiles: [{ space: 'A5', kind: 'building' }],
      units: [{ id: 'sh', card: 'us-m4a1-sherman', crew: 'us-tank-crew', at: 'A1' }],
    });
    expect(refused(s, { type: 'DeclareAttack', attacker: 'sh', target: 'feature:A5', weapons: [0] })).toBe('combat/no-building-targets');
  });
  it('a crewed unit destroyed on the map leaves its crew by the Intensity: 1-3 unharmed, 4-6 damaged, 7+ lost (Combat 11)', () => {
    const s = given({
      units: [
        { id: 'sh', card: 'us-m4a1-sherman', crew: 'us-tank-crew', at: 'B5' },
        { id: 't', card: 'de-tiger-i', crew: 'de-tank-crew', at: 'B8' },
      ],
    });
    const weak = { ...s, units: { ...s.units, sh: { ...s.units.sh!, endurance: 1 } } };
    const d = run({ ...weak, active: 'de' }, { type: 'DeclareAttack', attacker: 't', target: 'sh', weapons: [0] }, 'de');
    const fate = (i: number) =>
      run({ ...d.state, phase: 'resolution', active: 'de' }, { type: 'ResolveAttack', attackId: 'atk-1' }, 'de', [6, 6, i]).events.find(
        (e) => e.type === 'UnitDestroyed',
      );
    expect([fate(2), fate(5), fate(8)].map((e) => (e as { crewFate: string }).crewFate)).toEqual(['returned', 'damaged', 'lost']);
  });
});
