// The Liri Valley Road (003 §IV The Liri Valley Road) as data; the REPRESENTATIVE choices are marked where they are made.
import type { Scenario } from '../scenarios.js';
import { de, repeat, us } from './cards.js';

export const LIRI_VALLEY_ROAD: Scenario = {
  id: 'liri-valley-road',
  title: 'The Liri Valley Road',
  description: 'Village road: six US convoy units run row B from B-9 to B-1 under hidden German artillery; two must get through.',
  rule: '003 §IV The Liri Valley Road',
  map: 'village',
  tiles: [
    { space: 'A3', kind: 'building' },
    { space: 'A4', kind: 'building' },
    { space: 'A5', kind: 'crops' },
  ],
  start: {
    us: [
      { card: us('m4a1-sherman'), crew: us('tank-crew'), at: 'B7' },
      { card: us('m4a1-sherman'), crew: us('tank-crew'), at: 'B8' },
      { card: us('m10'), crew: us('tank-crew'), at: 'C9' },
      { card: us('rifle-squad'), at: 'B7' },
      { card: us('rifle-squad'), at: 'B8' },
    ],
    de: [
      { card: de('15cm-sfh-18'), crew: de('artillery-crew'), at: 'rear', with: ['Zero In Artillery'] },
      { card: de('15cm-sfh-18'), crew: de('artillery-crew'), at: 'rear', with: ['Zero In Artillery'] },
    ],
  },
  decks: {
    us: [
      ...repeat(4, us('rifle-squad')),
      us('30cal-lmg-team'),
      us('bazooka-team'),
      us('mortar-squad'),
      us('m4a1-sherman'),
      us('tank-crew'),
      us('57mm-at-gun'),
      us('artillery-crew'),
      us('105mm-howitzer'),
      us('artillery-crew'),
    ],
    de: [de('15cm-sfh-18'), de('artillery-crew'), de('88mm-flak-36'), de('artillery-crew'), de('bf109'), de('pilot')],
  },
  deckMax: { us: 75, de: 50 },
  entry: { us: ['B9'], de: [] },
  firstCommitTurn: { us: 1, de: 1 },
  rearLine: true,
  startingHand: { units: 2, commands: 1 },
  extraDraws: 2,
  reinforcements: [{ side: 'us', turn: 3, units: [{ card: us('p40-warhawk'), crew: us('pilot'), at: 'air' }] }],
  noAircraftBefore: { us: 3 },
  hiddenSpotters: 'de',
  convoy: { turns: [2, 4, 6], perTurn: 2, entry: 'B9', goal: 'B1' },
  victory: { kind: 'convoy', needed: 2 },
};
