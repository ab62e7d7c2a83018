import { describe, expect, it } from 'vitest';
import { actionFront, type State } from '../../domain/action-front/index.js';
import { seededRng } from '../../domain/kernel/index.js';
import { REPRESENTATIVE_SCENARIOS } from '../../domain/action-front/data/scenarios.js';
import { HOSTILE_IDS, playRandom } from './harness.js';

/** Random legal games to the end for every scenario and both builder types, with the optional rules, hostile ids throughout. */
const GAMES: [string, unknown][] = [
  ["Edson's Ridge", { scenario: 'edsons-ridge' }],
  ['Hedgerow Duel with Friendly Fire', { scenario: 'bocage', friendlyFire: true }],
  ['Over the River with Artillery Registration', { scenario: 'river-crossing', artilleryRegistration: true }],
  ['a Point Defense from the builder', { builder: { type: 'point-defense' } }],
  [
    'a Point Defense on two maps joined along the front',
    { builder: { type: 'point-defense', maps: ['guadalcanal-ridge', 'river-crossing'], defender: 'axis' } },
  ],
  [
    'a Meeting Engagement from the builder, in Normandy, both optional rules',
    {
      builder: { type: 'meeting-engagement', map: 'normandy-bocage', armies: { allies: 'us-army', axis: 'wehrmacht' } },
      artilleryRegistration: true,
      friendlyFire: true,
    },
  ],
];

describe('action-front fuzz: random legal games to the end', () => {
  for (const [i, [name, options]] of GAMES.entries())
    it(`${name}: every listed command is accepted, hostile ids are refused, the game ends and its log verifies`, () => {
      const played = playRandom(options, `${i + 1}f`, `fuzz-${i}`);
      const end = played.game.state!.game as State;
      expect(end.result).not.toBeNull();
      expect(actionFront.legalCommands(end, 'allies')).toEqual([]);
      expect(played.probes).toBeGreaterThan(10);
      expect(played.types).toContain('EndActions');
      expect(played.game.events.some((e) => e.type === 'CardsDrawn')).toBe(true);
    });
});

/** Every string in an options object, one at a time, replaced by a hostile id. */
function* withHostileLeaf(o: unknown, id: string): Generator<unknown> {
  if (typeof o === 'string') yield id;
  else if (Array.isArray(o)) for (const [i, x] of o.entries()) for (const v of withHostileLeaf(x, id)) yield o.map((y, k) => (k === i ? v : y));
  else if (o && typeof o === 'object')
    for (const [k, x] of Object.entries(o))
      for (const v of withHostileLeaf(x, id)) yield Object.fromEntries(Object.entries(o).map(([j, y]) => [j, j === k ? v : y]));
}

describe('action-front fuzz: hostile ids in every option field', () => {
  const card = REPRESENTATIVE_SCENARIOS.find((s) => s.id === 'river-crossing')!;
  const samples: unknown[] = [
    { scenarioCard: { ...card, visibility: 4, emplaced: ['us-81mm'] } },
    {
      builder: {
        type: 'point-defense',
        maps: ['guadalcanal-ridge', 'guadalcanal-ridge'],
        west: 'axis',
        defender: 'allies',
        armies: { allies: 'usmc', axis: 'ija' },
        forces: { allies: ['usmc-rifle'], axis: ['ija-infantry'] },
      },
    },
    { builder: { type: 'meeting-engagement', map: 'normandy-bocage', movesFirst: 'axis', armies: { allies: 'us-army', axis: 'wehrmacht' } } },
  ];
  it('each is refused with a message naming the field, or (where any string is allowed, as a name) the game starts and offers commands; never a throw', () => {
    let refused = 0;
    let started = 0;
    for (const sample of samples) {
      expect(actionFront.optionsSchema.safeParse(sample).success).toBe(true);
      for (const id of HOSTILE_IDS)
        for (const options of withHostileLeaf(sample, id)) {
          const r = actionFront.optionsSchema.safeParse(options);
          if (!r.success) {
            expect(r.error.issues.every((i) => i.message.length > 0)).toBe(true);
            refused++;
            continue;
          }
          const s = actionFront.initialState(r.data, actionFront.version);
          const setUp = actionFront.setup(s, { rng: seededRng({ seed: 'ab'.repeat(32), gameId: 'h', entropy: [], counter: 0 }), now: '' });
          expect(setUp.ok).toBe(true);
          started++;
        }
    }
    expect(refused).toBeGreaterThan(100);
    expect(started).toBeGreaterThan(0);
  });
});
