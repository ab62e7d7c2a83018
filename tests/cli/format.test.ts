import { describe, expect, it } from 'vitest';
import type { EventEnvelope, Scene } from '../../domain/kernel/index.js';
import {
  describeEvent,
  explainCommand,
  formatGame,
  formatLegal,
  glossary,
  lastTurn,
  readableJson,
  sinceMyLastMove,
  staleChoice,
  type GameViewBody,
} from '../../functions/cli/format.js';

/** A cut-down Spearpoint seat view: a unit in hand, units in play, a command card, a declared attack. */
const view = {
  seats: {
    us: {
      hand: [{ id: 'us-004', card: 'us-30cal-lmg-team', title: '.30cal LMG Team', weapons: ['.30cal M1919 LMG: inf 8; DI 3'] }],
      commands: [{ id: 'cmd-40', title: 'Zero In Artillery', text: 'Play on one of your artillery units.' }],
    },
  },
  battleArea: {
    us: {
      front: [
        {
          id: 'us-014',
          title: 'M4A1 Sherman',
          weapons: ['75mm M3 Gun: inf 11, veh 10; DI 7', '.50cal M2HB MG: inf 10; DI 3'],
          commandCards: [{ card: 'cmd-21', title: 'Dig In' }],
        },
      ],
    },
    de: {
      front: [
        { id: 'de-004', title: 'MG-42 Team', weapons: ['MG-42: inf 7; DI 3'] },
        { id: 'de-001', title: 'Rifle Squad', weapons: [] },
        { id: 'de-002', title: 'Rifle Squad', weapons: [] },
      ],
    },
  },
  attacks: [
    { id: 't1-us-1', attackers: ['us-014'], target: 'de-004', weapons: [0, 1], closeAssault: false, status: 'pending' },
    { id: 't1-de-1', attackers: ['de-001', 'de-002'], target: 'us-014', weapons: [], closeAssault: true, status: 'resolved' },
  ],
};

describe('CLI: naming the ids in legal commands', () => {
  it('names units, cards (in hand and on units) and attacks found in the view', () => {
    const names = glossary(view);
    expect(names.get('us-004')?.title).toBe('.30cal LMG Team');
    expect(names.get('cmd-40')?.title).toBe('Zero In Artillery');
    expect(names.get('cmd-21')?.title).toBe('Dig In');
    expect(names.get('t1-us-1')?.title).toBe('M4A1 Sherman (us-014) → MG-42 Team (de-004) with 75mm M3 Gun + .50cal M2HB MG');
    expect(names.get('t1-de-1')?.title).toBe('close assault: Rifle Squad (de-001) + Rifle Squad (de-002) → M4A1 Sherman (us-014) [resolved]');
  });

  it('explains a command by its ids and weapon positions, and says nothing about ids it does not know', () => {
    const names = glossary(view);
    expect(explainCommand({ type: 'DeclareAttack', attacker: 'us-014', target: 'de-004', weapons: [1] }, names)).toBe(
      'us-014 = M4A1 Sherman · de-004 = MG-42 Team · weapons: .50cal M2HB MG',
    );
    expect(explainCommand({ type: 'ResolveAttack', attackId: 't1-us-1', boostWith: 'cmd-40', boostRoll: 'hit' }, names)).toBe(
      't1-us-1 = M4A1 Sherman (us-014) → MG-42 Team (de-004) with 75mm M3 Gun + .50cal M2HB MG · cmd-40 = Zero In Artillery',
    );
    expect(explainCommand({ type: 'DrawCard', from: 'command' }, names)).toBe('');
    expect(explainCommand({ type: 'Roll' }, glossary({ total: 3 }))).toBe('');
    expect(formatLegal([{ type: 'SealOrder' }, { type: 'CommitUnit', unit: 'us-004' }], view)).toEqual([
      'Seal your order (your draft goes with it); nobody sees it until every side has sealed:',
      '    1. SealOrder',
      'Commit a unit from your hand to the battle area (a step of your sealed order):',
      '    2. .30cal LMG Team (us-004)',
    ]);
  });
});

describe('CLI: readable JSON', () => {
  it('keeps what fits on one line, packs short fields together, and stays valid JSON', () => {
    expect(readableJson({ a: 1, b: [1, 2] })).toBe('{"a":1,"b":[1,2]}');
    const long = {
      id: 'us-001',
      title: 'Rifle Squad',
      text: 'x'.repeat(90),
      weapons: ['M1 Garand Rifles: inf 9, veh 15*, air 18; DI 2; 2X; bullets', 'Mk 2 Grenades: inf 11, veh 16; DI 3'],
    };
    const text = readableJson(long, 80);
    expect(text.split('\n')[1]).toBe('  "id": "us-001", "title": "Rifle Squad",');
    expect(
      Math.max(
        ...text
          .split('\n')
          .filter((l) => !l.includes('xxxx'))
          .map((l) => l.length),
      ),
    ).toBeLessThanOrEqual(80);
    expect(JSON.parse(text)).toEqual(long);
    expect(JSON.parse(readableJson(view, 60))).toEqual(view);
  });
});

describe('CLI: play <n> refers to the list the player last saw', () => {
  const listing = { url: 'http://x', gameId: 'g1', seat: 'de', version: 132, commands: [{ type: 'CommitUnit', unit: 'de-003' }, { type: 'SealOrder' }] };
  it('refuses a number whose command changed since the listing, naming both', () => {
    const now = { ...listing, version: 134, commands: [{ type: 'SealOrder' }, { type: 'ClearOrder' }] };
    const why = staleChoice(listing, now, 2);
    expect(why).toMatch(/version 132 → 134/);
    expect(why).toContain('2 was {"type":"SealOrder"} and is now {"type":"ClearOrder"}');
    expect(why).toContain('npm run cli -- legal g1');
    expect(staleChoice(listing, { ...now, commands: [{ type: 'SealOrder' }] }, 2)).toMatch(/is now not listed/);
  });
  it('lets it through when nothing changed, the command is the same, or the listing is for another game or seat', () => {
    expect(staleChoice(listing, listing, 1)).toBeUndefined();
    expect(staleChoice(listing, { ...listing, version: 140 }, 2)).toBeUndefined();
    expect(staleChoice(listing, { ...listing, gameId: 'g2', version: 140, commands: [] }, 1)).toBeUndefined();
    expect(staleChoice(listing, { ...listing, seat: 'us', version: 140, commands: [] }, 1)).toBeUndefined();
    expect(staleChoice(undefined, listing, 1)).toBeUndefined();
  });
});

let seq = 0;
const ev = (type: string, data: unknown, player: string | null, actor: string | null = null): EventEnvelope => ({
  gameId: 'g1',
  seq: ++seq,
  type,
  data,
  visibility: { to: 'all' },
  actor,
  player,
  commandId: 'c',
  at: '2026-11-24T10:00:00.000Z',
  prevHash: '',
  hash: '',
});

/** Two turns of a Spearpoint game as alice (us) sees them: her seal, then bob's moves. */
function feed(): EventEnvelope[] {
  seq = 0;
  return [
    ev('TurnBegan', { turn: 6 }, 'bob'),
    ev('InitiativeRolled', { winner: 'us' }, 'bob', 'de'),
    ev('CombatBegan', { chooser: 'us' }, 'bob', 'de'),
    ev('AttackRolled', { attackId: 't1-us-1', weapon: 0, dice: [7, 5], result: 'hit' }, 'alice', 'us'),
    ev('AttackRolled', { attackId: 't1-us-1', weapon: 1, dice: [1, 2], result: 'miss' }, 'alice', 'us'),
    ev('UnitDestroyed', { unit: 'de-004', by: 'us', points: 5 }, 'alice', 'us'),
    ev('TurnBegan', { turn: 7 }, 'alice'),
    ev('OrderSealed', { seat: 'us' }, 'alice', 'us'),
    ev('OrderSealed', { seat: 'de' }, 'bob', 'de'),
    ev('UnitCommitted', { seat: 'de', unit: 'de-001', crew: null, line: 'front' }, 'bob', 'de'),
  ];
}

const scene: Scene = {
  title: 'Spearpoint 1943 · seen by United States',
  status: ['Tiger Hunt · turn 7'],
  sides: [{ seat: 'us', name: 'United States' }],
  scores: [{ seat: 'us', label: 'United States', value: '5 VP' }],
  rows: [[{ kind: 'area', id: 'b', label: 'United States: battle area', side: 'us', lanes: [{ label: 'Front line', pieces: [] }] }]],
  links: [],
  notes: [],
};

describe('CLI: show reads like a board', () => {
  it('lists what changed since your last move, in words, with the ids the view names', () => {
    const changed = sinceMyLastMove(feed(), 'alice')!;
    expect(changed.title).toBe('What changed since your last move (#8):');
    expect(changed.events.map((e) => describeEvent(e, glossary(view)))).toEqual([
      '#9 Order sealed [de]',
      '#10 Unit committed [de]: unit Rifle Squad (de-001), crew null, line front',
    ]);
    expect(sinceMyLastMove(feed(), 'bob')).toBeUndefined();
    expect(sinceMyLastMove(feed().slice(6), 'carol')!.title).toBe('What changed in the last 4 events:');
  });

  it('sums up the last whole turn by kind, with the results it had, leaving out the bookkeeping', () => {
    expect(lastTurn(feed())).toBe('Last turn 6: Initiative rolled; Attack rolled ×2 (hit 1, miss 1); Unit destroyed.');
    expect(lastTurn(feed().slice(6))).toBeUndefined();
  });

  it('prints the board instead of the view JSON, then the changes, the last turn and the legal commands', () => {
    const v: GameViewBody = {
      summary: {
        gameId: 'g1',
        engine: 'spearpoint-1943',
        title: 'Frontline General: Spearpoint 1943',
        status: 'active',
        version: 8,
        hash: '',
        createdBy: 'alice',
        createdAt: '',
        updatedAt: '',
        seats: [{ id: 'us', name: 'United States', player: 'alice', joined: true }],
        pending: [{ seat: 'us', kind: 'sealed', prompt: 'Seal your order', player: 'alice' }],
      },
      seat: 'us',
      view,
      legalCommands: [{ type: 'SealOrder' }],
      pending: [{ seat: 'us', kind: 'sealed', prompt: 'Seal your order', player: 'alice' }],
      scene,
    };
    const text = formatGame(v, 'alice', feed());
    expect(text).toContain('Board as United States:\n  Spearpoint 1943 · seen by United States');
    expect(text).toContain('  Score: United States 5 VP');
    expect(text).not.toContain('"battleArea"');
    expect(text.indexOf('What changed')).toBeLessThan(text.indexOf('Last turn 6'));
    expect(text.indexOf('Last turn 6')).toBeLessThan(text.indexOf('Your legal commands:'));
    // An engine that draws no picture still shows its view.
    const { scene: _none, ...plain } = v;
    expect(formatGame(plain, 'alice')).toContain('"battleArea"');
  });
});
