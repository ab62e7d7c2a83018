// Entries: creating a tournament, entering and withdrawing, and the start (by a director, or by
// the system at the scheduled time), which seeds the field and pairs round one.
import { ok } from '../kernel/result.js';
import { after } from './rounds.js';
import { forfeitOf } from './scoring.js';
import {
  currentRound,
  isDirector,
  pairingsOf,
  refuse,
  TOURNAMENT_ERRORS,
  type Actor,
  type CommandOf,
  type Decision,
  type TournamentEvent,
  type TournamentState,
} from './tournament.js';

export function create(s: TournamentState, c: CommandOf<'CreateTournament'>, actor: Actor): Decision {
  if (s.status !== 'none') return refuse(TOURNAMENT_ERRORS.exists, 'This tournament already exists.');
  if (actor.kind !== 'user') return refuse(TOURNAMENT_ERRORS.notDirector, 'A tournament is created by a club director.');
  if (actor.clubRole !== 'owner' && actor.clubRole !== 'director')
    return refuse(TOURNAMENT_ERRORS.notDirector, "Only the club's owner or a director creates tournaments.");
  return ok([
    {
      type: 'TournamentCreated',
      tournamentId: c.tournamentId,
      clubId: c.clubId,
      name: c.name,
      engine: c.engine,
      format: c.format,
      rated: c.rated,
      createdBy: actor.userId,
      ...(c.maxPlayers !== undefined ? { maxPlayers: c.maxPlayers } : {}),
      ...(c.gameOptions !== undefined ? { gameOptions: c.gameOptions } : {}),
      ...(c.timeLimitHours !== undefined ? { timeLimitHours: c.timeLimitHours } : {}),
      ...(c.timeControl !== undefined ? { timeControl: c.timeControl } : {}),
      ...(c.startsAt !== undefined ? { startsAt: c.startsAt } : {}),
    },
  ]);
}

export function join(s: TournamentState, c: CommandOf<'JoinTournament'>, actor: Actor): Decision {
  if (s.status !== 'open') return refuse(TOURNAMENT_ERRORS.notOpen, 'The tournament has started; entries are closed.');
  if (actor.kind !== 'user' || actor.userId !== c.player) return refuse(TOURNAMENT_ERRORS.notYourself, 'Players enter themselves.');
  if (actor.clubRole === undefined) return refuse(TOURNAMENT_ERRORS.notMember, "Only the club's members may enter its tournaments.");
  if (s.players.has(c.player)) return refuse(TOURNAMENT_ERRORS.alreadyJoined, 'You have already entered.');
  if (s.maxPlayers !== undefined && s.players.size >= s.maxPlayers) return refuse(TOURNAMENT_ERRORS.full, 'The tournament is full.');
  return ok([{ type: 'PlayerJoined', player: c.player, rating: c.rating }]);
}

export function withdraw(s: TournamentState, c: CommandOf<'WithdrawPlayer'>, actor: Actor): Decision {
  const entry = s.players.get(c.player);
  if (!entry) return refuse(TOURNAMENT_ERRORS.notAPlayer, 'That player is not in the tournament.');
  if (!(actor.kind === 'user' && actor.userId === c.player) && !isDirector(s, actor))
    return refuse(TOURNAMENT_ERRORS.notDirector, 'Only the player or a director withdraws a player.');
  if (entry.withdrawn) return refuse(TOURNAMENT_ERRORS.withdrawn, 'That player has already withdrawn.');
  const round = currentRound(s)?.round ?? 0;
  const events: TournamentEvent[] = [{ type: 'PlayerWithdrew', player: c.player, reason: c.reason, round }];
  if (s.status === 'running') {
    // The game in progress is lost by forfeit (whatever the format); later rounds follow the format's rule when paired.
    for (const p of pairingsOf(s, currentRound(s)!)) {
      if (!p.result && p.seats.includes(c.player)) events.push(forfeitOf(p, [c.player], `withdrew: ${c.reason}`));
    }
  }
  return ok(after(s, events));
}

export function startNow(s: TournamentState, actor: Actor): Decision {
  if (s.status !== 'open') return refuse(TOURNAMENT_ERRORS.notOpen, 'The tournament has already started.');
  if (!isDirector(s, actor)) return refuse(TOURNAMENT_ERRORS.notDirector, 'Only a director starts the tournament.');
  if (s.players.size < 2) return refuse(TOURNAMENT_ERRORS.tooFewPlayers, 'A tournament needs at least two players.');
  return ok(start(s));
}

export function startOnSchedule(s: TournamentState, c: CommandOf<'StartOnSchedule'>, actor: Actor): Decision {
  if (actor.kind !== 'system') return refuse(TOURNAMENT_ERRORS.systemOnly, "The scheduled start is the system's.");
  if (s.status !== 'open') return refuse(TOURNAMENT_ERRORS.notOpen, 'The tournament has already started.');
  if (s.startsAt === undefined || Date.parse(c.at) < Date.parse(s.startsAt))
    return refuse(TOURNAMENT_ERRORS.notYet, 'The tournament has no scheduled start, or it is not yet time.');
  if (s.players.size < 2)
    return ok([{ type: 'TournamentCancelled', reason: `too few players at the scheduled start (${s.players.size}; a tournament needs 2)` }]);
  return ok(start(s));
}

export function rescheduleStart(s: TournamentState, c: CommandOf<'RescheduleStart'>, actor: Actor): Decision {
  if (s.status !== 'open') return refuse(TOURNAMENT_ERRORS.notOpen, 'The tournament has already started.');
  if (!isDirector(s, actor)) return refuse(TOURNAMENT_ERRORS.notDirector, 'Only a director moves the scheduled start.');
  if (c.startsAt === (s.startsAt ?? null)) return ok([]);
  return ok([{ type: 'StartRescheduled', startsAt: c.startsAt }]);
}

/** The start, by a director or at `startsAt`: seeded by rating, then by order of joining; round one is paired. */
function start(s: TournamentState): TournamentEvent[] {
  const seeds = [...s.players.values()].sort((a, b) => b.rating - a.rating || a.joined - b.joined).map((p) => p.player);
  return after(s, [{ type: 'TournamentStarted', seeds }]);
}
