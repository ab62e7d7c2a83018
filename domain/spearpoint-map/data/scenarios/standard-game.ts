// Expansion Standard Game (003 §III Game Types and Setup 1) as data; the REPRESENTATIVE choices are marked where they are made.
import type { Scenario, TileList } from '../scenarios.js';
import { de, repeat, us } from './cards.js';

const STANDARD_VILLAGE: TileList = [
  { space: 'B3', kind: 'building' },
  { space: 'A7', kind: 'building' },
  { space: 'B5', kind: 'fountain' },
  { space: 'C6', kind: 'crops' },
  { space: 'A4', kind: 'cemetery' },
];

export const STANDARD_GAME: Scenario = {
  // 003 §III Game Types and Setup 1 (a–j) and Win Conditions: the Expansion Standard Game.
  id: 'standard-game',
  title: 'Expansion Standard Game',
  description: 'Either map side, 80–100 point decks, no starting units: first to 51 points or Overrun.',
  rule: '003 §III Game Types and Setup 1',
  map: 'village',
  // (c) At least 4 tiles, placed by the players: REPRESENTATIVE layouts, one per map side (the `map` option).
  tiles: STANDARD_VILLAGE,
  maps: {
    village: STANDARD_VILLAGE,
    'defensive-line': [
      { space: 'B3', kind: 'natural-cover' },
      { space: 'A6', kind: 'infantry-trench' },
      { space: 'B6', kind: 'wire' },
      { space: 'A8', kind: 'mg-nest' },
      { space: 'C5', kind: 'minefield' },
    ],
  },
  // (j) The turn sequence begins with the map empty: every unit is committed from the hand.
  start: { us: [], de: [] },
  // (d) REPRESENTATIVE decks within 80–100 (US 98 with an M7 that changes line, Germany 84); a club passes its own as `us.cards` / `de.cards`.
  decks: {
    us: [
      ...repeat(4, us('rifle-squad')),
      ...repeat(2, us('30cal-lmg-team')),
      ...repeat(2, us('bazooka-team')),
      us('mortar-squad'),
      us('sniper'),
      us('m4a1-sherman'),
      us('tank-crew'),
      us('105mm-howitzer'),
      us('artillery-crew'),
      us('57mm-at-gun'),
      us('artillery-crew'),
      us('p40-warhawk'),
      us('pilot'),
      us('m7-priest'),
      us('artillery-crew'),
    ],
    de: [
      ...repeat(4, de('rifle-squad')),
      ...repeat(2, de('mg42-team')),
      de('panzerschreck-team'),
      de('mortar-squad'),
      de('sniper'),
      de('panther'),
      de('tank-crew'),
      de('15cm-sfh-18'),
      de('artillery-crew'),
      de('bf109'),
      de('pilot'),
    ],
  },
  deckMax: { us: 100, de: 100 },
  deckMin: { us: 80, de: 80 },
  // (e) Setup spaces for front-line reinforcements: REPRESENTATIVE, each side's edge column.
  entry: { us: ['A1', 'B1', 'C1'], de: ['A9', 'B9', 'C9'] },
  firstCommitTurn: { us: 1, de: 1 },
  rearLine: true,
  // (g) four Unit cards; (i) three Command cards each.
  startingHand: { units: 4, commands: 3 },
  extraDraws: 2,
  victory: { kind: 'points', target: { us: 51, de: 51 } },
};
