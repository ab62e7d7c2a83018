import { describe, expect, it } from 'vitest';
import { computeStandings, type GameScore } from '../../domain/tournament/standings.js';

const game = (round: number, a: string, b: string, pointsA: number): GameScore => ({ round, seats: [a, b], points: [pointsA, 1 - pointsA] });
const entrants = (...ids: string[]) => ids.map((player, seed) => ({ player, seed }));
const row = (table: ReturnType<typeof computeStandings>, p: string) => table.find((r) => r.player === p)!;

describe('round-robin standings (points, head-to-head, Sonneborn-Berger)', () => {
  it('head-to-head separates two players tied on points', () => {
    // A-B ½, A-C 1-0, A-D 0-1, B-C 1-0, B-D ½, C-D 1-0 → A 1½, B 2, C 1, D 1½.
    const games = [game(1, 'A', 'B', 0.5), game(1, 'C', 'D', 1), game(2, 'A', 'C', 1), game(2, 'B', 'D', 0.5), game(3, 'D', 'A', 1), game(3, 'B', 'C', 1)];
    const table = computeStandings('round-robin', entrants('A', 'B', 'C', 'D'), games, []);
    expect(table.map((r) => [r.rank, r.player, r.points])).toEqual([
      [1, 'B', 2],
      [2, 'D', 1.5],
      [3, 'A', 1.5],
      [4, 'C', 1],
    ]);
    // D beat A, the only other player on 1½.
    expect(row(table, 'D').tiebreaks.headToHead).toBe(1);
    expect(row(table, 'A').tiebreaks.headToHead).toBe(0);
    // SB: A = ½·2 (B) + 1·1 (C) = 2; D = 1·1½ (A) + ½·2 (B) = 2½; B = ½·1½ + 1·1 + ½·1½ = 2½; C = 1·1½ (D) = 1½.
    expect(table.map((r) => [r.player, r.tiebreaks.sonnebornBerger])).toEqual([
      ['B', 2.5],
      ['D', 2.5],
      ['A', 2],
      ['C', 1.5],
    ]);
  });

  it('Sonneborn-Berger separates players whose game between them was drawn', () => {
    // A-B ½, A-C 1-0, A-D ½, B-C ½, B-D ½, C-D 1-0 → A 2, B 1½, C 1½, D 1.
    const games = [game(1, 'A', 'B', 0.5), game(1, 'C', 'D', 1), game(2, 'A', 'C', 1), game(2, 'B', 'D', 0.5), game(3, 'D', 'A', 0.5), game(3, 'B', 'C', 0.5)];
    const table = computeStandings('round-robin', entrants('A', 'C', 'B', 'D'), games, []);
    // Head-to-head B v C is ½ each; SB: B = ½·2 + ½·1½ + ½·1 = 2¼, C = ½·1½ + 1·1 = 1¾.
    expect(table.map((r) => [r.rank, r.player, r.points, r.tiebreaks.headToHead, r.tiebreaks.sonnebornBerger])).toEqual([
      [1, 'A', 2, 0, 2.75],
      [2, 'B', 1.5, 0.5, 2.25],
      [3, 'C', 1.5, 0.5, 1.75],
      [4, 'D', 1, 0, 1.75],
    ]);
    expect(row(table, 'B')).toMatchObject({ played: 3, wins: 0, draws: 3, losses: 0 });
  });

  it('a round-robin bye brings no points and no opponent; players equal on everything share a rank', () => {
    const table = computeStandings(
      'round-robin',
      entrants('A', 'B', 'C'),
      [game(1, 'A', 'B', 0.5), game(2, 'B', 'C', 0.5), game(3, 'C', 'A', 0.5)],
      [
        { round: 1, player: 'C', points: 0 },
        { round: 2, player: 'A', points: 0 },
        { round: 3, player: 'B', points: 0 },
      ],
    );
    expect(table.map((r) => [r.rank, r.player, r.points, r.byes])).toEqual([
      [1, 'A', 1, 1],
      [1, 'B', 1, 1],
      [1, 'C', 1, 1],
    ]);
  });
});

describe('Swiss standings (points, Buchholz, median Buchholz)', () => {
  // Six players, three rounds:
  //   R1: P1-P4 1-0, P2-P5 ½, P3-P6 0-1      R2: P1-P6 1-0, P2-P3 1-0, P5-P4 ½
  //   R3: P1-P2 ½, P6-P5 ½, P4-P3 ½
  // Final: P1 2½, P2 2, P6 1½, P5 1½, P4 1, P3 ½.
  const games = [
    game(1, 'P1', 'P4', 1),
    game(1, 'P2', 'P5', 0.5),
    game(1, 'P3', 'P6', 0),
    game(2, 'P1', 'P6', 1),
    game(2, 'P2', 'P3', 1),
    game(2, 'P5', 'P4', 0.5),
    game(3, 'P1', 'P2', 0.5),
    game(3, 'P6', 'P5', 0.5),
    game(3, 'P4', 'P3', 0.5),
  ];
  const table = computeStandings('swiss', entrants('P1', 'P2', 'P3', 'P4', 'P5', 'P6'), games, []);

  it('Buchholz is the sum of the opponents’ points; median Buchholz drops the best and the worst', () => {
    // P1 met P4 (1), P6 (1½), P2 (2): Buchholz 4½, median 1½.
    // P2 met P5 (1½), P3 (½), P1 (2½): 4½, median 1½.
    // P6 met P3 (½), P1 (2½), P5 (1½): 4½, median 1½.
    // P5 met P2 (2), P4 (1), P6 (1½): 4½, median 1½.
    // P4 met P1 (2½), P5 (1½), P3 (½): 4½, median 1½.
    // P3 met P6 (1½), P2 (2), P4 (1): 4½, median 1½.
    for (const r of table) expect(r.tiebreaks).toEqual({ buchholz: 4.5, medianBuchholz: 1.5 });
  });

  it('the table: ties that no tiebreak separates share a rank, listed by seed', () => {
    expect(table.map((r) => [r.rank, r.player, r.points])).toEqual([
      [1, 'P1', 2.5],
      [2, 'P2', 2],
      [3, 'P5', 1.5],
      [3, 'P6', 1.5],
      [5, 'P4', 1],
      [6, 'P3', 0.5],
    ]);
  });

  it('Buchholz, then median Buchholz, separate players on equal points; a bye adds points but no opponent', () => {
    // Five players, three rounds, one bye a round:
    //   R1: A-B 1-0, C-D 0-1, E bye      R2: A-D ½, E-B 1-0, C bye      R3: D-E 1-0, B-C ½, A bye
    // Final: A 2½ (bye 1), D 2½, E 2 (bye 1), C 1½ (bye 1), B ½.
    const five = [game(1, 'A', 'B', 1), game(1, 'C', 'D', 0), game(2, 'A', 'D', 0.5), game(2, 'E', 'B', 1), game(3, 'D', 'E', 1), game(3, 'B', 'C', 0.5)];
    const byes = [
      { round: 1, player: 'E', points: 1 },
      { round: 2, player: 'C', points: 1 },
      { round: 3, player: 'A', points: 1 },
    ];
    const t = computeStandings('swiss', entrants('A', 'B', 'C', 'D', 'E'), five, byes);
    // A met B (½), D (2½): Buchholz 3, fewer than three opponents so median = 3.
    // D met C (1½), A (2½), E (2): Buchholz 6, median 2.
    // E met B (½), D (2½): 3.   C met D (2½), B (½): 3.   B met A (2½), E (2), C (1½): 6, median 2.
    expect(t.map((r) => [r.rank, r.player, r.points, r.tiebreaks.buchholz, r.tiebreaks.medianBuchholz, r.byes])).toEqual([
      [1, 'D', 2.5, 6, 2, 0],
      [2, 'A', 2.5, 3, 3, 1],
      [3, 'E', 2, 3, 3, 1],
      [4, 'C', 1.5, 3, 3, 1],
      [5, 'B', 0.5, 6, 2, 0],
    ]);
  });

  it('median Buchholz separates players equal on points and Buchholz', () => {
    // X and Y each win three games. X's opponents end on 0, 2 and 2 (Buchholz 4, median 2);
    // Y's on 1, 1 and 2 (Buchholz 4, median 1). Y is the higher seed, yet X ranks above.
    const wins = (a: string, b: string) => game(1, a, b, 1);
    const games = [
      wins('X', 'O1'),
      wins('X', 'O2'),
      wins('X', 'O3'),
      wins('O2', 'Z1'),
      wins('O2', 'Z2'),
      wins('O3', 'Z3'),
      wins('O3', 'Z4'),
      wins('Y', 'O4'),
      wins('Y', 'O5'),
      wins('Y', 'O6'),
      wins('O4', 'Z5'),
      wins('O5', 'Z6'),
      wins('O6', 'Z7'),
      wins('O6', 'Z8'),
    ];
    const ids = ['Y', 'X', 'O1', 'O2', 'O3', 'O4', 'O5', 'O6', 'Z1', 'Z2', 'Z3', 'Z4', 'Z5', 'Z6', 'Z7', 'Z8'];
    const t = computeStandings('swiss', entrants(...ids), games, []);
    expect(t.slice(0, 2).map((r) => [r.rank, r.player, r.points, r.tiebreaks.buchholz, r.tiebreaks.medianBuchholz])).toEqual([
      [1, 'X', 3, 4, 2],
      [2, 'Y', 3, 4, 1],
    ]);
  });
});
