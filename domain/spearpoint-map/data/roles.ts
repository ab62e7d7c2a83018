/**
 * What the map expansion needs to know about a unit card that the card game's data does not
 * carry: its role (mortar, sniper, MG team …) and its main gun's calibre in mm (003 Combat 7,
 * 20; §II 9–11). REPRESENTATIVE, read from the cards' weapon names; a club that loads its own
 * catalog passes its own table in the `roles` option.
 */
export type Role = 'rifle' | 'mg' | 'sniper' | 'mortar' | 'at-team' | 'crew' | 'tank' | 'vehicle' | 'gun' | 'artillery' | 'aircraft';

export interface RoleEntry {
  readonly role: Role;
  /** Main gun calibre in mm (0: no gun that destroys features). */
  readonly calibre: number;
}

export const ROLES: ReadonlyMap<string, RoleEntry> = new Map<string, RoleEntry>([
  ['us-rifle-squad', { role: 'rifle', calibre: 0 }],
  ['us-30cal-lmg-team', { role: 'mg', calibre: 0 }],
  ['us-sniper', { role: 'sniper', calibre: 0 }],
  ['us-mortar-squad', { role: 'mortar', calibre: 60 }],
  ['us-bazooka-team', { role: 'at-team', calibre: 0 }],
  ['us-57mm-at-gun', { role: 'gun', calibre: 57 }],
  ['us-105mm-howitzer', { role: 'artillery', calibre: 105 }],
  ['us-8in-howitzer', { role: 'artillery', calibre: 203 }],
  ['us-m7-priest', { role: 'artillery', calibre: 105 }],
  ['us-m10', { role: 'tank', calibre: 76 }],
  ['us-m4a1-sherman', { role: 'tank', calibre: 75 }],
  ['us-p40-warhawk', { role: 'aircraft', calibre: 0 }],
  ['us-p38-lightning', { role: 'aircraft', calibre: 0 }],
  ['de-rifle-squad', { role: 'rifle', calibre: 0 }],
  ['de-mg42-team', { role: 'mg', calibre: 0 }],
  ['de-sniper', { role: 'sniper', calibre: 0 }],
  ['de-mortar-squad', { role: 'mortar', calibre: 81 }],
  ['de-panzerschreck-team', { role: 'at-team', calibre: 0 }],
  ['de-88mm-flak-36', { role: 'artillery', calibre: 88 }],
  ['de-15cm-sfh-18', { role: 'artillery', calibre: 150 }],
  ['de-tiger-i', { role: 'tank', calibre: 88 }],
  ['de-panther', { role: 'tank', calibre: 75 }],
  ['de-pantherturm-i', { role: 'gun', calibre: 75 }],
  ['de-bf109', { role: 'aircraft', calibre: 0 }],
  ['de-ju87-stuka', { role: 'aircraft', calibre: 0 }],
]);
