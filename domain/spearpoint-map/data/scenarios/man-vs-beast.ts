// Man vs. Beast (003 §IV Man vs. Beast) as data; the REPRESENTATIVE choices are marked where they are made.
import type { Scenario } from '../scenarios.js';
import { de, repeat, us } from './cards.js';

export const MAN_VS_BEAST: Scenario = {
  id: 'man-vs-beast',
  title: 'Man vs. Beast',
  description: 'Village, infantry and a 57mm gun against a Tiger: first to 25 points or Overrun.',
  rule: '003 §IV Man vs. Beast',
  map: 'village',
  tiles: [
    { space: 'B3', kind: 'building' },
    { space: 'A6', kind: 'building' },
    { space: 'B5', kind: 'fountain' },
    { space: 'C4', kind: 'cemetery' },
    { space: 'A4', kind: 'crops' },
    { space: 'C7', kind: 'wire' },
  ],
  start: {
    us: [
      { card: us('sniper'), at: 'A6', with: ['Veteran Soldiers'], withRoll: 8 },
      { card: us('30cal-lmg-team'), at: 'C4' },
      { card: us('rifle-squad'), at: 'B3' },
      { card: us('57mm-at-gun'), crew: us('artillery-crew'), at: 'B4' },
    ],
    de: [
      { card: de('tiger-i'), crew: de('tank-crew'), at: 'B9', with: ['Veteran Crew'], withRoll: 7 },
      { card: de('rifle-squad'), at: 'A9' },
    ],
  },
  decks: {
    us: [...repeat(3, us('rifle-squad')), ...repeat(2, us('30cal-lmg-team')), ...repeat(2, us('bazooka-team')), us('mortar-squad'), us('sniper')],
    de: [...repeat(3, de('rifle-squad')), ...repeat(2, de('mg42-team')), ...repeat(2, de('panzerschreck-team')), de('sniper')],
  },
  deckMax: { us: 35, de: 35 },
  entry: { us: ['A1', 'B1', 'C1'], de: ['A9', 'B9', 'C9'] },
  firstCommitTurn: { us: 2, de: 3 },
  rearLine: false,
  startingHand: { units: 1, commands: 1 },
  extraDraws: 1,
  // 003 §IV: the air and artillery cards, and those that capture an enemy unit or stop it attacking, are left out.
  removeCommands: ['Fighter Ace', 'Fire Mission!', 'Fire for Effect!', 'Zero In Artillery', 'Capture That Unit!', 'Sabotage'],
  victory: { kind: 'points', target: { us: 25, de: 25 } },
  mirrorable: true,
};
