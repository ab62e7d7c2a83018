// Gunter's Return (003 §IV Gunter's Return) as data; the REPRESENTATIVE choices are marked where they are made.
import type { Scenario } from '../scenarios.js';
import { de, repeat, us } from './cards.js';

export const GUNTERS_RETURN: Scenario = {
  id: 'gunters-return',
  title: "Gunter's Return",
  description: 'Village: the US must hold the German Command Post in A-5 with infantry by the end of turn 6 (8 if the Stuka misses it).',
  rule: "003 §IV Gunter's Return",
  map: 'village',
  tiles: [
    { space: 'A5', kind: 'building' },
    { space: 'A2', kind: 'building' },
    { space: 'A8', kind: 'building' },
    { space: 'C3', kind: 'building' },
    { space: 'C7', kind: 'building' },
    { space: 'B5', kind: 'tiger-wreck' },
  ],
  start: {
    us: [
      { card: us('m4a1-sherman'), crew: us('tank-crew'), at: 'B1', with: ['Veteran Crew'] },
      { card: us('rifle-squad'), at: 'A1' },
      { card: us('rifle-squad'), at: 'B1' },
      { card: us('rifle-squad'), at: 'C1' },
    ],
    de: [
      { card: de('rifle-squad'), at: 'A5' },
      { card: de('mg42-team'), at: 'A4' },
      { card: de('rifle-squad'), at: 'B6' },
    ],
  },
  decks: {
    us: [
      ...repeat(4, us('rifle-squad')),
      ...repeat(2, us('30cal-lmg-team')),
      ...repeat(2, us('bazooka-team')),
      us('mortar-squad'),
      us('sniper'),
      us('m4a1-sherman'),
      us('tank-crew'),
      us('m10'),
      us('tank-crew'),
      us('57mm-at-gun'),
      us('artillery-crew'),
      us('105mm-howitzer'),
      us('artillery-crew'),
    ],
    de: [...repeat(2, de('rifle-squad')), ...repeat(2, de('mg42-team')), de('sniper')],
  },
  deckMax: { us: 100, de: 20 },
  entry: { us: ['A1', 'B1', 'C1'], de: ['A4', 'A6'] },
  firstCommitTurn: { us: 1, de: 1 },
  rearLine: true,
  startingHand: { units: 2, commands: 3 },
  extraDraws: 2,
  // 003 lists three aircraft (two Bf 109s and the Stuka) though the setup says two: RULINGS.
  reinforcements: [
    {
      side: 'de',
      turn: 6,
      units: [
        { card: de('bf109'), crew: de('pilot'), at: 'air', with: ['Fighter Ace'] },
        { card: de('bf109'), crew: de('pilot'), at: 'air' },
        { card: de('ju87-stuka'), crew: de('pilot'), at: 'air' },
      ],
    },
  ],
  noBuildingTargets: 'us',
  victory: { kind: 'command-post', space: 'A5', turn: 6, extendedTurn: 8 },
};
