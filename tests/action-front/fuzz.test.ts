import { describe, expect, it } from 'vitest';
import { actionFront, type State } from '../../domain/action-front/index.js';
import { playRandom } from './harness.js';

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
