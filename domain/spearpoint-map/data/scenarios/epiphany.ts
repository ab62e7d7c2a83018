// Epiphany (003 §IV Epiphany) as data; the REPRESENTATIVE choices are marked where they are made.
import type { Scenario } from '../scenarios.js';
import { de, repeat, us } from './cards.js';

export const EPIPHANY: Scenario = {
  id: 'epiphany',
  title: 'Epiphany',
  description: 'Defensive Line past the broken emplacement: two Reserves decks each (infantry first, then support); 71 points or Overrun.',
  rule: '003 §IV Epiphany',
  map: 'defensive-line',
  tiles: [
    { space: 'C2', kind: 'pantherturm', intact: false },
    { space: 'A4', kind: 'building' },
    { space: 'B3', kind: 'natural-cover' },
    { space: 'A7', kind: 'natural-cover' },
    { space: 'B6', kind: 'natural-cover' },
    { space: 'C7', kind: 'natural-cover' },
  ],
  start: {
    us: [
      { card: us('rifle-squad'), at: 'C2', with: ['Veteran Soldiers'] },
      { card: us('rifle-squad'), at: 'C3' },
      { card: us('30cal-lmg-team'), at: 'B2' },
    ],
    de: [
      { card: de('rifle-squad'), at: 'A4' },
      { card: de('rifle-squad'), at: 'A7' },
      { card: de('mg42-team'), at: 'B6' },
    ],
  },
  decks: {
    us: [...repeat(4, us('rifle-squad')), ...repeat(2, us('30cal-lmg-team')), us('bazooka-team'), us('mortar-squad'), us('sniper')],
    de: [...repeat(3, de('rifle-squad')), ...repeat(2, de('mg42-team')), de('panzerschreck-team'), de('mortar-squad'), de('sniper')],
  },
  support: {
    us: [
      us('m4a1-sherman'),
      us('tank-crew'),
      us('m10'),
      us('tank-crew'),
      us('105mm-howitzer'),
      us('artillery-crew'),
      us('p40-warhawk'),
      us('pilot'),
      us('57mm-at-gun'),
      us('artillery-crew'),
      ...repeat(2, us('rifle-squad')),
    ],
    de: [
      de('panther'),
      de('tank-crew'),
      de('tiger-i'),
      de('tank-crew'),
      de('15cm-sfh-18'),
      de('artillery-crew'),
      de('bf109'),
      de('pilot'),
      ...repeat(2, de('rifle-squad')),
    ],
  },
  deckMax: { us: 135, de: 135 },
  entry: { us: ['C2', 'C3', 'C4', 'C5', 'C6', 'C7', 'C8'], de: ['A1', 'B1', 'C1', 'A9', 'B9', 'C9'] },
  firstCommitTurn: { us: 1, de: 1 },
  rearLine: true,
  startingHand: { units: 2, commands: 3 },
  extraDraws: 2,
  extraCommands: { de: ['Ambush!'] },
  victory: { kind: 'points', target: { us: 71, de: 71 } },
};
