import { SEATS } from './model.js';
import type { Side } from '../frontline-general/data/schema.js';
import type { Out } from './out.js';
import { landUnits } from './rules.js';

/**
 * 001 Victory Points and Winning the Game: destroyed units score their cost, captured ones
 * double; 51 points or an Overrun (an unopposed land unit for three consecutive turns) wins a
 * Standard Game, a Situation's own win conditions a Situation game. The engine adds ends of its
 * own for a game that could otherwise never finish.
 */

function decideGame(out: Out, winners: Side[], reason: string): true {
  out.emit({ type: 'GameDecided', winners, reason });
  return true;
}

/** Immediate win conditions: points and destroyed-type objectives (checked whenever points are scored). */
export function checkVictory(out: Out): boolean {
  const s = out.s;
  if (s.result) return true;
  for (const wc of s.situation.winConditions) {
    if (wc.kind === 'points') {
      const over = SEATS.filter((x) => s.seats[x].score >= wc.target);
      if (over.length === 1) return decideGame(out, over, `${over[0]} reached ${wc.target} Victory Points`);
      if (over.length === 2) return byScore(out, `both sides reached ${wc.target} Victory Points`);
    }
    if (wc.kind === 'destroyTypes') {
      const n = wc.types.reduce((acc, t) => acc + (s.seats[wc.seat].destroyedTypes[t] ?? 0), 0);
      if (n >= wc.count) return decideGame(out, [wc.seat], `${wc.seat} destroyed or captured ${wc.count} enemy ${wc.types.join('/')} unit(s)`);
    }
  }
  return false;
}

function byScore(out: Out, why: string): true {
  const { us, de } = { us: out.s.seats.us.score, de: out.s.seats.de.score };
  return decideGame(out, us === de ? [] : [us > de ? 'us' : 'de'], `${why}; ${us === de ? 'scores are level: a draw' : 'the higher score wins'} (${us}-${de})`);
}

/**
 * End-of-turn conditions: Overrun, hold-out objectives, and the engine's own ends for a game
 * that could otherwise never finish: the turn limit, or nothing left to fight with on either
 * side (no units in play, empty Reserves, and no unit committed this turn). Those end by the
 * higher score.
 */
export function checkEndOfTurn(out: Out): boolean {
  const s = out.s;
  for (const wc of s.situation.winConditions) {
    if (wc.kind === 'overrun') {
      const over = SEATS.filter((x) => s.seats[x].overrun >= wc.turns);
      if (over.length) return decideGame(out, [over[0]!], `${over[0]} overran the enemy: an unopposed land unit for ${wc.turns} consecutive turns`);
    }
    if (wc.kind === 'holdOut' && s.turn >= wc.turns && landUnits(s, wc.seat).length > 0) {
      return decideGame(out, [wc.seat], `${wc.seat} held out through turn ${wc.turns}`);
    }
  }
  // Judged on public facts only: reading the hidden hands here would tell a side that the game
  // went on because the other still holds a unit. A side that holds units commits one to play on.
  const exhausted = SEATS.every(
    (x) => Object.values(s.inPlay).every((u) => u.controller !== x) && s.seats[x].reserves.length === 0 && s.seats[x].lastCommitTurn < s.turn,
  );
  if (exhausted) return byScore(out, 'neither side has a unit in play or in Reserves, and neither committed one this turn');
  if (s.turn >= s.maxTurns) return byScore(out, `the turn limit (${s.maxTurns}) was reached`);
  return false;
}
