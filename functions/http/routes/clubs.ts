import type { z } from 'zod';
import type { TournamentWorld } from '../../app/tournament-reactor.js';
import {
  clubGameBody,
  clubGameReply,
  clubGamesReply,
  clubParams,
  clubReply,
  createClubBody,
  emptyBody,
  engineDataBody,
  engineDataParams,
  errors,
  inviteBody,
  joinClubBody,
  joinCodeBody,
  memberParams,
  membersReply,
  removeBody,
  roleBody,
  settingsBody,
  tournamentListReply,
} from '../club-schemas.js';
import { present } from '../present.js';
import { defineRoute, type ApiDeps, type RouteModule } from '../types.js';

/** What the API document says of a route: one line and every status it answers itself, with its body. */
export const doc = (summary: string, responses: Readonly<Record<number, z.ZodType>>) => ({ summary, responses });

/** A service whose every method is async, imported and built on its first call (each call awaits that first). */
function onFirstCall<S extends { [K in keyof S]: (...args: never[]) => Promise<unknown> }>(load: () => Promise<S>): S {
  return new Proxy({} as S, {
    get:
      (_, method) =>
      async (...args: unknown[]) => {
        const service = await load();
        return (service[method as keyof S] as unknown as (...a: unknown[]) => Promise<unknown>).apply(service, args);
      },
  });
}

/**
 * The world of clubs and tournaments beside the game service, built once per route module on
 * the first club or tournament request: a cold start that serves a game loads none of its code.
 */
export const worldOf = (deps: ApiDeps): Pick<TournamentWorld, 'clubs' | 'tournaments'> => {
  let world: Promise<TournamentWorld> | undefined;
  const load = () =>
    (world ??= import('../../app/tournament-reactor.js').then(({ createTournamentWorld }) =>
      createTournamentWorld({ client: deps.dynamo.client, tableName: deps.dynamo.tableName, engines: deps.engines, clock: deps.clock, games: deps.service }),
    ));
  return { clubs: onFirstCall(async () => (await load()).clubs), tournaments: onFirstCall(async () => (await load()).tournaments) };
};

/**
 * Clubs: create one, get in (join code or invitation), roles, members, settings (default
 * clock, vacation allowance), engine data stored once and chosen by name, the club's games
 * and tournaments.
 */
export const clubRoutes: RouteModule = (deps) => {
  const { clubs, tournaments } = worldOf(deps);
  const ok = (body: unknown, status = 200) => ({ status, body });
  return [
    defineRoute({
      ...doc('Create a club; you are its owner', { 201: clubReply, ...errors(409) }),
      method: 'POST',
      path: '/v1/clubs',
      auth: 'required',
      body: createClubBody,
      async handle({ body, player }) {
        const v = await clubs.create(player, present(body));
        return { status: 201, body: v, headers: { location: `/v1/clubs/${v.clubId}` } };
      },
    }),
    defineRoute({
      ...doc('The club: members, settings, engine data names (invitations and join code state for its directors)', { 200: clubReply, ...errors(404) }),
      method: 'GET',
      path: '/v1/clubs/{id}',
      auth: 'required',
      params: clubParams,
      handle: async ({ params, player }) => ok(await clubs.view(player, params.id)),
    }),
    defineRoute({
      ...doc('Join the club with its join code', { 200: clubReply, ...errors(404, 422) }),
      method: 'POST',
      path: '/v1/clubs/{id}/join',
      auth: 'required',
      params: clubParams,
      body: joinClubBody,
      handle: async ({ params, body, player }) => ok(await clubs.command(player, params.id, { type: 'JoinClub', joinCode: body.joinCode }, body.commandId)),
    }),
    defineRoute({
      ...doc('Set or clear the join code (directors)', { 200: clubReply, ...errors(403, 404) }),
      method: 'PUT',
      path: '/v1/clubs/{id}/join-code',
      auth: 'required',
      params: clubParams,
      body: joinCodeBody,
      handle: async ({ params, body, player }) => ok(await clubs.command(player, params.id, { type: 'SetJoinCode', joinCode: body.joinCode })),
    }),
    defineRoute({
      ...doc('Invite a player (directors; only the owner invites directors)', { 200: clubReply, ...errors(403, 404, 422) }),
      method: 'POST',
      path: '/v1/clubs/{id}/invitations',
      auth: 'required',
      params: clubParams,
      body: inviteBody,
      handle: async ({ params, body, player }) =>
        ok(await clubs.command(player, params.id, { type: 'InviteMember', invitee: body.player, role: body.role ?? 'member' })),
    }),
    defineRoute({
      ...doc('Accept your invitation', { 200: clubReply, ...errors(404, 422) }),
      method: 'POST',
      path: '/v1/clubs/{id}/accept',
      auth: 'required',
      params: clubParams,
      body: emptyBody,
      handle: async ({ params, body, player }) => ok(await clubs.command(player, params.id, { type: 'AcceptInvitation' }, body.commandId)),
    }),
    defineRoute({
      ...doc('The members and their roles', { 200: membersReply, ...errors(404) }),
      method: 'GET',
      path: '/v1/clubs/{id}/members',
      auth: 'required',
      params: clubParams,
      async handle({ params, player }) {
        const v = await clubs.view(player, params.id);
        return ok({ clubId: v.clubId, members: v.members });
      },
    }),
    defineRoute({
      ...doc("Change a member's role (the owner; making someone owner hands the club over)", { 200: clubReply, ...errors(403, 404, 422) }),
      method: 'PUT',
      path: '/v1/clubs/{id}/members/{player}',
      auth: 'required',
      params: memberParams,
      body: roleBody,
      handle: async ({ params, body, player }) => ok(await clubs.command(player, params.id, { type: 'SetRole', member: params.player, role: body.role })),
    }),
    defineRoute({
      ...doc('Remove a member (directors), or leave the club (yourself)', { 200: clubReply, ...errors(403, 404, 422) }),
      method: 'DELETE',
      path: '/v1/clubs/{id}/members/{player}',
      auth: 'required',
      params: memberParams,
      body: removeBody,
      handle: async ({ params, body, player }) =>
        ok(
          await clubs.command(
            player,
            params.id,
            params.player === player
              ? { type: 'LeaveClub' }
              : { type: 'RemoveMember', member: params.player, ...(body.reason !== undefined ? { reason: body.reason } : {}) },
          ),
        ),
    }),
    defineRoute({
      ...doc('Club settings: default time control (or time limit in hours), vacation days a year (directors)', { 200: clubReply, ...errors(403, 404) }),
      method: 'PUT',
      path: '/v1/clubs/{id}/settings',
      auth: 'required',
      params: clubParams,
      body: settingsBody,
      handle: async ({ params, body, player }) => ok(await clubs.command(player, params.id, { type: 'UpdateSettings', settings: present(body.settings) })),
    }),
    defineRoute({
      ...doc("Store engine data under a name: options of that engine, such as Spearpoint's {catalog} (directors)", {
        200: clubReply,
        ...errors(403, 404, 422),
      }),
      method: 'PUT',
      path: '/v1/clubs/{id}/engine-data/{engine}/{name}',
      auth: 'required',
      params: engineDataParams,
      body: engineDataBody,
      handle: async ({ params, body, player }) =>
        ok(await clubs.command(player, params.id, { type: 'StoreEngineData', engine: params.engine, name: params.name, data: body.data })),
    }),
    defineRoute({
      ...doc('Remove engine data (directors)', { 200: clubReply, ...errors(403, 404, 422) }),
      method: 'DELETE',
      path: '/v1/clubs/{id}/engine-data/{engine}/{name}',
      auth: 'required',
      params: engineDataParams,
      handle: async ({ params, player }) => ok(await clubs.command(player, params.id, { type: 'RemoveEngineData', engine: params.engine, name: params.name })),
    }),
    defineRoute({
      ...doc("The club's games: those its members created in the club and its tournaments' games", { 200: clubGamesReply, ...errors(404) }),
      method: 'GET',
      path: '/v1/clubs/{id}/games',
      auth: 'required',
      params: clubParams,
      handle: async ({ params }) => ok({ clubId: params.id, games: await clubs.games(params.id) }),
    }),
    defineRoute({
      ...doc("Create a game in the club (members): the club's engine data by name, its default clock unless you give one", {
        201: clubGameReply,
        ...errors(403, 404, 422),
      }),
      method: 'POST',
      path: '/v1/clubs/{id}/games',
      auth: 'required',
      params: clubParams,
      body: clubGameBody,
      async handle({ params, body, player }) {
        const r = await clubs.createGame(player, params.id, present(body));
        return { status: r.duplicate ? 200 : 201, body: r, headers: { location: `/v1/games/${encodeURIComponent(r.gameId)}` } };
      },
    }),
    defineRoute({
      ...doc("The club's tournaments", { 200: tournamentListReply, ...errors(404) }),
      method: 'GET',
      path: '/v1/clubs/{id}/tournaments',
      auth: 'required',
      params: clubParams,
      async handle({ params, player }) {
        await clubs.view(player, params.id);
        return ok({ tournaments: await tournaments.list({ club: params.id }) });
      },
    }),
  ];
};
