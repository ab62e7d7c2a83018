import type { Side } from '../../frontline-general/data/schema.js';

/**
 * Ready-made Reserves decks so a quick game needs no options. Each lists catalog unit ids
 * (copies repeated) and totals 80-100 points against the built-in catalog, as deck building
 * requires (001 Two-Player Standard Game Setup).
 */
export const PRESET_DECKS: Readonly<Record<string, { side: Side; title: string; cards: readonly string[] }>> = {
  'us-combined-arms': {
    side: 'us',
    title: 'US combined arms (96 points)',
    cards: [
      'us-rifle-squad',
      'us-rifle-squad',
      'us-rifle-squad',
      'us-30cal-lmg-team',
      'us-30cal-lmg-team',
      'us-sniper',
      'us-mortar-squad',
      'us-bazooka-team',
      'us-bazooka-team',
      'us-57mm-at-gun',
      'us-artillery-crew',
      'us-105mm-howitzer',
      'us-artillery-crew',
      'us-m4a1-sherman',
      'us-tank-crew',
      'us-m4a1-sherman',
      'us-tank-crew',
      'us-p40-warhawk',
      'us-pilot',
    ],
  },
  'us-armor': {
    side: 'us',
    title: 'US armored spearhead (99 points)',
    cards: [
      'us-rifle-squad',
      'us-bazooka-team',
      'us-30cal-lmg-team',
      'us-m4a1-sherman',
      'us-tank-crew',
      'us-m4a1-sherman',
      'us-tank-crew',
      'us-m10',
      'us-tank-crew',
      'us-m7-priest',
      'us-artillery-crew',
      'us-p38-lightning',
      'us-pilot',
      'us-8in-howitzer',
      'us-artillery-crew',
    ],
  },
  'de-combined-arms': {
    side: 'de',
    title: 'German combined arms (92 points)',
    cards: [
      'de-rifle-squad',
      'de-rifle-squad',
      'de-rifle-squad',
      'de-mg42-team',
      'de-mg42-team',
      'de-sniper',
      'de-panzerschreck-team',
      'de-panzerschreck-team',
      'de-mortar-squad',
      'de-tiger-i',
      'de-tank-crew',
      'de-88mm-flak-36',
      'de-artillery-crew',
      'de-ju87-stuka',
      'de-pilot',
    ],
  },
  'de-armor': {
    side: 'de',
    title: 'German heavy armor (89 points)',
    cards: [
      'de-rifle-squad',
      'de-rifle-squad',
      'de-mg42-team',
      'de-panzerschreck-team',
      'de-panther',
      'de-tank-crew',
      'de-tiger-i',
      'de-tank-crew',
      'de-pantherturm-i',
      'de-artillery-crew',
      'de-bf109',
      'de-pilot',
    ],
  },
};

export const DEFAULT_PRESET: Readonly<Record<Side, string>> = { us: 'us-combined-arms', de: 'de-combined-arms' };
