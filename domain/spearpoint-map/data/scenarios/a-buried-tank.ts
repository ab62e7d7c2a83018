// A Buried Tank (003 §IV A Buried Tank) as data; the REPRESENTATIVE choices are marked where they are made.
import type { Scenario } from '../scenarios.js';
import { de, repeat, us } from './cards.js';

/** The Damage card each buried Sherman starts with (see its placement below). */
const CREW_LOST = ['Crew Casualty', 'Commander Hit'];

export const A_BURIED_TANK: Scenario = {
  id: 'a-buried-tank',
  title: 'A Buried Tank',
  description: 'Defensive Line in mud: the US needs 35 points and the Pantherturm I destroyed, Germany 40 points; or Overrun.',
  rule: '003 §IV A Buried Tank',
  map: 'defensive-line',
  tiles: [
    { space: 'A5', kind: 'pantherturm' },
    { space: 'A3', kind: 'natural-cover' },
    { space: 'A7', kind: 'infantry-trench' },
    { space: 'B3', kind: 'wire' },
    { space: 'B8', kind: 'mg-nest' },
    { space: 'C2', kind: 'natural-cover' },
    { space: 'C8', kind: 'natural-cover' },
    { space: 'B1', kind: 'natural-cover' },
  ],
  start: {
    us: [
      // 003 §IV A Buried Tank: each with a "Crew Casualty" Damage card. The REPRESENTATIVE
      // Damage deck holds one; the second takes Commander Hit, the other card whose vehicle
      // edge killed the crew in the version-2 deck.
      { card: us('m4a1-sherman'), at: 'B6', damaged: CREW_LOST },
      { card: us('m4a1-sherman'), at: 'C5', damaged: CREW_LOST },
      { card: us('rifle-squad'), at: 'C3' },
      { card: us('rifle-squad'), at: 'C7' },
      { card: us('30cal-lmg-team'), at: 'C4' },
      { card: us('sniper'), at: 'C8' },
    ],
    de: [
      { card: de('pantherturm-i'), crew: de('artillery-crew'), at: 'A5' },
      { card: de('rifle-squad'), at: 'A4' },
      { card: de('rifle-squad'), at: 'A7' },
      { card: de('mg42-team'), at: 'B8' },
    ],
  },
  decks: {
    us: [
      ...repeat(4, us('rifle-squad')),
      ...repeat(2, us('30cal-lmg-team')),
      ...repeat(2, us('bazooka-team')),
      ...repeat(2, us('mortar-squad')),
      us('sniper'),
      us('105mm-howitzer'),
      us('artillery-crew'),
    ],
    de: [
      ...repeat(4, de('rifle-squad')),
      ...repeat(2, de('mg42-team')),
      ...repeat(2, de('mortar-squad')),
      de('panzerschreck-team'),
      de('sniper'),
      de('15cm-sfh-18'),
      de('artillery-crew'),
    ],
  },
  deckMax: { us: 60, de: 60 },
  entry: { us: ['C1', 'C2', 'C3', 'C4', 'C5', 'C6', 'C7', 'C8', 'C9'], de: ['A1', 'A2', 'A3', 'A4', 'A5', 'A6', 'A7', 'A8', 'A9'] },
  firstCommitTurn: { us: 1, de: 1 },
  rearLine: true,
  startingHand: { units: 4, commands: 3 },
  extraDraws: 2,
  infantryMove: 1,
  noSprint: true,
  noVehicleCommit: true,
  victory: { kind: 'buried-tank', de: 40, us: 35 },
};
