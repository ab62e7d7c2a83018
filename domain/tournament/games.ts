// The games of a round: binding a pairing to the game made for it, and its result, reported by
// the game's end, adjudicated by a director, or a forfeit (a timeout or a director's call).
import { ok } from '../kernel/result.js';
import { after } from './rounds.js';
import { forfeitOf, resultOf } from './scoring.js';
import { isDirector, refuse, TOURNAMENT_ERRORS, type Actor, type CommandOf, type Decision, type TournamentState } from './tournament.js';

export function bindGame(s: TournamentState, c: CommandOf<'BindGame'>, actor: Actor): Decision {
  if (actor.kind !== 'system') return refuse(TOURNAMENT_ERRORS.systemOnly, 'Games are bound by the system.');
  const p = s.pairings.get(c.pairingId);
  if (!p) return refuse(TOURNAMENT_ERRORS.unknownPairing, 'There is no such pairing.');
  if (p.gameId !== undefined) return refuse(TOURNAMENT_ERRORS.alreadyBound, 'That pairing already has its game.');
  if (s.games.has(c.gameId)) return refuse(TOURNAMENT_ERRORS.gameInUse, 'That game already belongs to another pairing.');
  return ok([{ type: 'GameBound', pairingId: c.pairingId, gameId: c.gameId }]);
}

export function recordResult(s: TournamentState, c: CommandOf<'RecordResult'>, actor: Actor): Decision {
  if (actor.kind !== 'system') return refuse(TOURNAMENT_ERRORS.systemOnly, "Results come from the games' ends.");
  const pairingId = s.games.get(c.gameId);
  if (pairingId === undefined) return refuse(TOURNAMENT_ERRORS.unknownGame, 'That game is not part of this tournament.');
  const p = s.pairings.get(pairingId)!;
  if (p.result) return refuse(TOURNAMENT_ERRORS.resultKnown, 'That pairing already has its result.');
  if (c.winner !== null && !p.seats.includes(c.winner)) return refuse(TOURNAMENT_ERRORS.notInPairing, 'The winner did not play in that game.');
  return ok(after(s, [resultOf(p, c.winner, 'played')]));
}

export function adjudicate(s: TournamentState, c: CommandOf<'Adjudicate'>, actor: Actor): Decision {
  if (!isDirector(s, actor)) return refuse(TOURNAMENT_ERRORS.notDirector, 'Only a director adjudicates.');
  const p = s.pairings.get(c.pairingId);
  if (!p) return refuse(TOURNAMENT_ERRORS.unknownPairing, 'There is no such pairing.');
  if (p.result) return refuse(TOURNAMENT_ERRORS.resultKnown, 'That pairing already has its result.');
  if (c.winner !== null && !p.seats.includes(c.winner)) return refuse(TOURNAMENT_ERRORS.notInPairing, 'The winner is not in that pairing.');
  return ok(after(s, [resultOf(p, c.winner, 'adjudicated', c.reason)]));
}

export function forfeit(s: TournamentState, c: CommandOf<'Forfeit'>, actor: Actor): Decision {
  if (!isDirector(s, actor)) return refuse(TOURNAMENT_ERRORS.notDirector, 'Only the system (a timeout) or a director declares a forfeit.');
  const p = s.pairings.get(c.pairingId);
  if (!p) return refuse(TOURNAMENT_ERRORS.unknownPairing, 'There is no such pairing.');
  if (p.result) return refuse(TOURNAMENT_ERRORS.resultKnown, 'That pairing already has its result.');
  if (!p.seats.includes(c.loser)) return refuse(TOURNAMENT_ERRORS.notInPairing, 'That player is not in that pairing.');
  return ok(after(s, [forfeitOf(p, [c.loser], c.reason)]));
}
