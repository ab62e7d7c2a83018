import { describe, expect, it } from 'vitest';
import { decideCreate } from '../../domain/kernel/index.js';
import { BUILT_IN_CATALOG, loadCatalog, PRESET_DECKS, spearpoint, deckProblems, indexCatalog } from '../../domain/spearpoint/index.js';
import { COMMAND_CARDS, DAMAGE_CARDS } from '../../domain/spearpoint/data/cards.js';
import { DAMAGE_CARDS_V2 } from '../../domain/frontline-general/data/cards.js';
import { BUILT_IN_CATALOG_V2 } from '../../domain/spearpoint/data/catalog.js';
import { DE_UNITS, US_UNITS } from '../../domain/spearpoint/data/units.js';

const raw = () => JSON.parse(JSON.stringify({ name: 'club', units: [...US_UNITS, ...DE_UNITS], commandCards: COMMAND_CARDS, damageCards: DAMAGE_CARDS }));
const idx = indexCatalog(BUILT_IN_CATALOG);
const titled = (t: string) => BUILT_IN_CATALOG.units.find((u) => u.title === t);

describe('the representative catalog', () => {
  it('is the very catalog a whole validation of its lists returns, byte for byte (it is built without one at load)', () => {
    for (const [catalog, damageCards] of [
      [BUILT_IN_CATALOG, DAMAGE_CARDS],
      [BUILT_IN_CATALOG_V2, DAMAGE_CARDS_V2],
    ] as const) {
      const r = loadCatalog({ name: catalog.name, units: [...US_UNITS, ...DE_UNITS], commandCards: COMMAND_CARDS, damageCards });
      if (!r.ok) throw new Error(JSON.stringify(r.error));
      expect(JSON.stringify(catalog)).toBe(JSON.stringify(r.value));
    }
    expect(BUILT_IN_CATALOG_V2.damageCards).not.toEqual(BUILT_IN_CATALOG.damageCards);
  });

  it('has every unit the rulebooks name, on the right side', () => {
    const us = [
      'Rifle Squad',
      '.30cal LMG Team',
      'Sniper',
      'Mortar Squad',
      'Bazooka Team',
      '57mm AT Gun',
      '105mm Howitzer',
      '8in Howitzer',
      'M7 Priest',
      'M10 Tank Destroyer',
      'M4A1 Sherman',
      'P-40 Warhawk',
      'P-38 Lightning',
      'Tank Crew',
      'Artillery Crew',
      'Pilot',
    ];
    const de = [
      'Rifle Squad',
      'MG-42 Team',
      'Sniper',
      'Mortar Squad',
      'Panzerschreck Team',
      '8.8cm FlaK 36',
      '15cm sFH 18',
      'PzKpfw VI Tiger I',
      'PzKpfw V Ausf. A Panther',
      'Pantherturm I',
      'Bf 109',
      'Ju 87 Stuka',
      'Tank Crew',
      'Artillery Crew',
      'Luftwaffe Pilot',
    ];
    for (const t of us)
      expect(
        BUILT_IN_CATALOG.units.some((u) => u.side === 'us' && u.title === t),
        t,
      ).toBe(true);
    for (const t of de)
      expect(
        BUILT_IN_CATALOG.units.some((u) => u.side === 'de' && u.title === t),
        t,
      ).toBe(true);
  });
  it('agrees with the figures the rulebooks give', () => {
    expect(idx.unit('us-m4a1-sherman')).toMatchObject({ defense: 5, endurance: { full: 14, half: 7 }, cost: 13 });
    expect(idx.unit('us-m4a1-sherman').weapons[0]).toMatchObject({ damageIndex: 7, attack: { vehicle: 10 } });
    expect(idx.unit('de-tiger-i')).toMatchObject({ defense: 7, endurance: { full: 24 }, cost: 21 });
    expect(idx.unit('de-tiger-i').weapons[0]!.damageIndex).toBe(8);
    expect(idx.unit('de-88mm-flak-36').weapons[0]!.damageIndex).toBe(8);
    expect(idx.unit('de-panther').weapons[0]!.attack.vehicle).toBe(10);
    expect(Math.min(...BUILT_IN_CATALOG.units.map((u) => u.cost))).toBe(2);
    expect(Math.max(...BUILT_IN_CATALOG.units.map((u) => u.cost))).toBe(21);
    expect(titled('M7 Priest')!.line).toBe('either');
    expect(titled('P-40 Warhawk')).toMatchObject({ line: 'none', crew: 'pilot' });
  });
  it('has a 50-card Command deck with every named title and a 25-card Damage deck with an effect for every unit type', () => {
    expect(BUILT_IN_CATALOG.commandCards).toHaveLength(50);
    const titles = new Set(BUILT_IN_CATALOG.commandCards.map((c) => c.title));
    for (const t of [
      'Ambush!',
      'Capture That Unit!',
      'Commit Reserves',
      'Dig In',
      'Field Camouflage',
      'Fighter Ace',
      'Fire Mission!',
      'Fire for Effect!',
      'Hull Down',
      'Lay Smoke',
      'Sabotage',
      'Veteran Crew',
      'Veteran Soldiers',
      'Withdraw',
      'Zero In Artillery',
    ]) {
      expect(titles.has(t), t).toBe(true);
    }
    expect(BUILT_IN_CATALOG.damageCards).toHaveLength(25);
    const names = new Set(BUILT_IN_CATALOG.damageCards.flatMap((d) => Object.values(d.effects).map((e) => e.name)));
    for (const n of ['Immobilized', 'Fire Control Damage', 'Crew Casualty', 'Shaken']) expect(names.has(n), n).toBe(true);
  });
  it('every preset deck is a legal 80-100 point deck for its side', () => {
    for (const [name, p] of Object.entries(PRESET_DECKS)) expect(deckProblems(BUILT_IN_CATALOG.units, p.side, p.cards, 80, 100), name).toEqual([]);
  });
});

describe('loading a club catalog', () => {
  it('accepts a valid file (the built-in one as JSON)', () => {
    const r = loadCatalog(raw());
    expect(r.ok).toBe(true);
  });
  it('names the card and field of every problem', () => {
    const bad = raw();
    bad.units.find((u: { id: string }) => u.id === 'us-m4a1-sherman').defense = -1;
    bad.units.find((u: { id: string }) => u.id === 'de-mg42-team').weapons[0].rateOfFire = 5;
    bad.commandCards[1].effect = { kind: 'defense' };
    bad.damageCards[3].effects.aircraft = { kind: 'melts', name: 'x' };
    const r = loadCatalog(bad);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error).toContainEqual(expect.objectContaining({ card: 'us-m4a1-sherman', field: 'defense' }));
    expect(r.error).toContainEqual(expect.objectContaining({ card: 'de-mg42-team', field: 'weapons.0.rateOfFire' }));
    expect(r.error.find((e) => e.card === 'cmd-02')?.field).toMatch(/^effect/);
    expect(r.error.find((e) => e.card === 'dmg-04')?.field).toMatch(/^effects\.aircraft/);
  });
  it('checks what a single card cannot: unique ids, crews that exist, deck sizes', () => {
    const dup = raw();
    dup.units.push({ ...dup.units[0] });
    expect(loadCatalog(dup)).toMatchObject({ ok: false, error: [{ card: 'us-rifle-squad', field: 'id' }] });
    const noCrew = raw();
    noCrew.units = noCrew.units.filter((u: { id: string }) => u.id !== 'de-pilot');
    const r = loadCatalog(noCrew);
    expect(r.ok || r.error).toContainEqual(expect.objectContaining({ card: 'de-bf109', field: 'crew' }));
    const short = raw();
    short.commandCards.pop();
    expect(loadCatalog(short)).toMatchObject({ ok: false, error: [{ card: '(catalog)', field: 'commandCards' }] });
    const inconsistent = raw();
    inconsistent.units[0].endurance = { full: 3, half: 5 };
    expect(loadCatalog(inconsistent)).toMatchObject({ ok: false, error: [{ card: 'us-rifle-squad', field: 'endurance' }] });
  });
  it('can be passed as a game option; a bad one is refused at creation naming the card', () => {
    const good = decideCreate(spearpoint, { gameId: 'g', options: { catalog: raw() }, createdBy: 'a', commitment: 'c' });
    expect(good.ok).toBe(true);
    const bad = raw();
    bad.units[0].cost = 0;
    const r = decideCreate(spearpoint, { gameId: 'g', options: { catalog: bad }, createdBy: 'a', commitment: 'c' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toMatch(/us-rifle-squad.*cost/);
  });
});
