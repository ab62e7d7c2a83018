import {
  adjudicateBody,
  createTournamentBody,
  emptyBody,
  errors,
  forfeitBody,
  leaderboardReply,
  playerParams,
  playerReply,
  ratingsQuery,
  rescheduleBody,
  tournamentListReply,
  tournamentParams,
  tournamentReply,
  tournamentsQuery,
  withdrawBody,
} from '../club-schemas.js';
import { present } from '../present.js';
import { defineRoute, type RouteModule } from '../types.js';
import { doc, worldOf } from './clubs.js';

/**
 * Tournaments and ratings: create, enter, withdraw, start (directors), adjudicate and forfeit
 * (directors), the tournament with its rounds, pairings (each with its gameId), results and
 * standings; listings; a player's ratings and an engine's leaderboard. Games, results and the
 * next rounds follow from the stream (app/tournament-reactor.ts), not from these requests.
 */
export const tournamentRoutes: RouteModule = (deps) => {
  const { tournaments } = worldOf(deps);
  const ok = (body: unknown) => ({ status: 200, body });
  return [
    defineRoute({
      ...doc("Create a tournament (a club's owner or directors; without a club, you direct it)", { 201: tournamentReply, ...errors(403, 404, 422) }),
      method: 'POST',
      path: '/v1/tournaments',
      auth: 'required',
      body: createTournamentBody,
      async handle({ body, player }) {
        const v = await tournaments.create(player, present(body));
        return { status: 201, body: v, headers: { location: `/v1/tournaments/${v.tournamentId}` } };
      },
    }),
    defineRoute({
      ...doc('Tournaments, by club and status', { 200: tournamentListReply }),
      method: 'GET',
      path: '/v1/tournaments',
      auth: 'required',
      query: tournamentsQuery,
      handle: async ({ query }) => ok({ tournaments: await tournaments.list(present(query)) }),
    }),
    defineRoute({
      ...doc('The tournament: players, rounds, pairings with their gameId, results, standings', { 200: tournamentReply, ...errors(404) }),
      method: 'GET',
      path: '/v1/tournaments/{id}',
      auth: 'required',
      params: tournamentParams,
      handle: async ({ params }) => ok(await tournaments.view(params.id)),
    }),
    defineRoute({
      ...doc('Enter the tournament (members of its club); your rating for its engine is your entry rating', { 200: tournamentReply, ...errors(403, 404, 422) }),
      method: 'POST',
      path: '/v1/tournaments/{id}/join',
      auth: 'required',
      params: tournamentParams,
      body: emptyBody,
      handle: async ({ params, body, player }) =>
        ok(await tournaments.command(player, params.id, { type: 'JoinTournament', player, rating: 0 }, body.commandId)),
    }),
    defineRoute({
      ...doc('Withdraw (yourself, or a player if you direct it); a game in progress is forfeited', { 200: tournamentReply, ...errors(403, 404, 422) }),
      method: 'POST',
      path: '/v1/tournaments/{id}/withdraw',
      auth: 'required',
      params: tournamentParams,
      body: withdrawBody,
      handle: async ({ params, body, player }) =>
        ok(
          await tournaments.command(
            player,
            params.id,
            {
              type: 'WithdrawPlayer',
              player: body.player ?? player,
              reason: body.reason ?? (body.player === undefined || body.player === player ? 'withdrew' : `withdrawn by ${player}`),
            },
            body.commandId,
          ),
        ),
    }),
    defineRoute({
      ...doc("Start (the director or the club's owner): the first round is paired and its games created", { 200: tournamentReply, ...errors(403, 404, 422) }),
      method: 'POST',
      path: '/v1/tournaments/{id}/start',
      auth: 'required',
      params: tournamentParams,
      body: emptyBody,
      handle: async ({ params, body, player }) => ok(await tournaments.command(player, params.id, { type: 'StartTournament' }, body.commandId)),
    }),
    defineRoute({
      ...doc('Move the scheduled start of an open tournament (directors); null removes it', { 200: tournamentReply, ...errors(403, 404, 422) }),
      method: 'POST',
      path: '/v1/tournaments/{id}/schedule',
      auth: 'required',
      params: tournamentParams,
      body: rescheduleBody,
      handle: async ({ params, body, player }) =>
        ok(await tournaments.command(player, params.id, { type: 'RescheduleStart', startsAt: body.startsAt }, body.commandId)),
    }),
    defineRoute({
      ...doc('Adjudicate a pairing without a result (directors), with a reason', { 200: tournamentReply, ...errors(403, 404, 422) }),
      method: 'POST',
      path: '/v1/tournaments/{id}/adjudicate',
      auth: 'required',
      params: tournamentParams,
      body: adjudicateBody,
      handle: async ({ params, body, player }) =>
        ok(
          await tournaments.command(
            player,
            params.id,
            { type: 'Adjudicate', pairingId: body.pairingId, winner: body.winner, reason: body.reason },
            body.commandId,
          ),
        ),
    }),
    defineRoute({
      ...doc('Declare a forfeit (directors), with a reason', { 200: tournamentReply, ...errors(403, 404, 422) }),
      method: 'POST',
      path: '/v1/tournaments/{id}/forfeit',
      auth: 'required',
      params: tournamentParams,
      body: forfeitBody,
      handle: async ({ params, body, player }) =>
        ok(
          await tournaments.command(player, params.id, { type: 'Forfeit', pairingId: body.pairingId, loser: body.loser, reason: body.reason }, body.commandId),
        ),
    }),
    defineRoute({
      ...doc("A player's page: rating, deviation, volatility and history for each engine they are rated in", { 200: playerReply }),
      method: 'GET',
      path: '/v1/players/{id}',
      auth: 'required',
      params: playerParams,
      handle: async ({ params }) => ok(await tournaments.player(params.id)),
    }),
    defineRoute({
      ...doc("An engine's leaderboard (Glicko-2), provisional players marked", { 200: leaderboardReply, ...errors(404) }),
      method: 'GET',
      path: '/v1/ratings',
      auth: 'required',
      query: ratingsQuery,
      handle: async ({ query }) => ok(await tournaments.leaderboard(query.engine)),
    }),
  ];
};
