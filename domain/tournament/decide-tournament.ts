// The tournament Decider: refuses what no tournament in its state accepts, then hands each
// command to the section it belongs to (entries.ts, games.ts); rounds.ts pairs what follows.
import { assertNever } from '../kernel/errors.js';
import { create, join, rescheduleStart, startNow, startOnSchedule, withdraw } from './entries.js';
import { adjudicate, bindGame, forfeit, recordResult } from './games.js';
import { refuse, TOURNAMENT_ERRORS, type Actor, type Decision, type TournamentCommand, type TournamentState } from './tournament.js';

export function decideTournament(s: TournamentState, c: TournamentCommand, actor: Actor): Decision {
  if (c.type === 'CreateTournament') return create(s, c, actor);
  if (s.status === 'none') return refuse(TOURNAMENT_ERRORS.notFound, 'There is no such tournament.');
  if (s.status === 'finished') return refuse(TOURNAMENT_ERRORS.finished, 'The tournament has finished.');
  if (s.status === 'cancelled') return refuse(TOURNAMENT_ERRORS.cancelled, `The tournament was cancelled: ${s.cancelled ?? ''}`);

  switch (c.type) {
    case 'JoinTournament':
      return join(s, c, actor);
    case 'WithdrawPlayer':
      return withdraw(s, c, actor);
    case 'StartTournament':
      return startNow(s, actor);
    case 'StartOnSchedule':
      return startOnSchedule(s, c, actor);
    case 'RescheduleStart':
      return rescheduleStart(s, c, actor);
    case 'BindGame':
      return bindGame(s, c, actor);
    case 'RecordResult':
      return recordResult(s, c, actor);
    case 'Adjudicate':
      return adjudicate(s, c, actor);
    case 'Forfeit':
      return forfeit(s, c, actor);
    default:
      return assertNever(c, 'tournament command');
  }
}
