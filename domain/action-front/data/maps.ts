import type { MapCard } from '../hexmap.js';

/**
 * REPRESENTATIVE maps (004 prints none). "guadalcanal-ridge" is laid out so that 004's worked
 * examples happen on it as described (a reconstruction, see RULINGS.md): jungle in 0502 hides
 * 0601 from 0402, the ridge (0604, 0704, 0705) is a hill, 0805 is a (partial) edge hex in a
 * straight row below 0803. A club passes its own maps with `options.maps`.
 */
const riverBetweenColumns = (col: number, rows: number, fords: readonly number[]): [string, string][] => {
  const id = (c: number, r: number) => `${String(c).padStart(2, '0')}${String(r).padStart(2, '0')}`;
  const out: [string, string][] = [];
  for (let r = 1; r <= rows; r++) {
    if (fords.includes(r)) continue;
    // An even column is shifted down: its east neighbours are the same row and the next.
    out.push([id(col, r), id(col + 1, r)]);
    if (col % 2 === 0 ? r < rows : r > 1) out.push([id(col, r), id(col + 1, col % 2 === 0 ? r + 1 : r - 1)]);
  }
  return out;
};

export const REPRESENTATIVE_MAPS: readonly MapCard[] = [
  {
    id: 'guadalcanal-ridge',
    name: 'Guadalcanal: the Lunga ridge',
    cols: 12,
    rows: 5,
    terrain: {
      '0201': 'jungle',
      '0301': 'jungle',
      '0502': 'jungle',
      '0305': 'jungle',
      '0901': 'jungle',
      '1001': 'jungle',
      '1002': 'jungle',
      '1105': 'jungle',
      '1204': 'jungle',
      '1103': 'building',
    },
    hills: [['0604', '0704', '0705']],
    rivers: [
      ['1003', '1103'],
      ['1003', '1104'],
      ['1004', '1104'],
    ],
  },
  {
    id: 'normandy-bocage',
    name: 'Normandy: hedgerow country',
    cols: 12,
    rows: 6,
    terrain: {
      '0302': 'forest',
      '0303': 'forest',
      '0305': 'building',
      '0502': 'forest',
      '0505': 'forest',
      '0606': 'building',
      '0701': 'forest',
      '0802': 'building',
      '0804': 'forest',
      '0903': 'forest',
      '1005': 'building',
      '1102': 'forest',
    },
    hills: [
      ['0603', '0604', '0703'],
      ['1003', '1004'],
    ],
    rivers: [],
  },
  {
    id: 'river-crossing',
    name: 'A river line with one ford',
    cols: 12,
    rows: 6,
    terrain: {
      '0202': 'forest',
      '0405': 'forest',
      '0503': 'building',
      '0804': 'building',
      '0805': 'building',
      '0902': 'forest',
      '1104': 'forest',
    },
    hills: [['0903', '1003', '1002']],
    rivers: riverBetweenColumns(6, 6, [3]),
  },
];
