import type { CommandResult } from '../../app/game-service.js';
import { DynamoStreamStore } from '../../store/stream-store.js';
import { AppError } from '../../ports.js';
import { edge } from '../edge.js';
import { present } from '../present.js';
import { gamesOf, LIMITS_RULE, MAX_OPEN_GAMES, MAX_SEATS } from '../limits.js';
import { defineRoute, type ApiDeps, type Reply, type RouteModule } from '../types.js';

/**
 * The service returns only the events the caller may see. A repeated command answers 200. The
 * sender's view after the command comes when asked for (`?view=true`): it is computed only then.
 */
const result = (r: CommandResult, query: { view?: 'true' | 'false' | undefined }, status = 200): Reply => ({
  status: r.duplicate ? 200 : status,
  body: {
    gameId: r.gameId,
    version: r.version,
    duplicate: r.duplicate,
    events: r.events,
    next: r.next,
    seats: r.seats,
    ...(query.view === 'true' ? { view: r.view } : {}),
  },
});

/**
 * Open games a player created, and games a player sits in, are capped (http/limits.ts): counted
 * from the player's inbox read model, on create and join only (never on a move).
 */
async function withinGameLimits(dynamo: ApiDeps['dynamo'], player: string, opts: { creating: boolean }): Promise<void> {
  const { openCreated, seated } = await gamesOf(dynamo.client, dynamo.tableName, player);
  if (opts.creating && openCreated >= MAX_OPEN_GAMES)
    throw new AppError(
      429,
      'limit/open-games',
      `You have ${openCreated} games waiting for players (at most ${MAX_OPEN_GAMES}); cancel one or wait until one starts`,
      LIMITS_RULE,
    );
  if (seated >= MAX_SEATS) throw new AppError(429, 'limit/seats', `You sit in ${seated} games (at most ${MAX_SEATS}); finish or resign one first`, LIMITS_RULE);
}

/** Under Lambda's 6 MB response limit, with room for headers and encoding. */
export const EXPORT_LIMIT_BYTES = 5_500_000;

/** The game command API: create, join, view, board picture, events, commands, preview, standing orders, lapse, resign, claim, cancel, export. */
export const gameRoutes: RouteModule = ({ service, dynamo, engines, exportLimitBytes = EXPORT_LIMIT_BYTES }) => [
  defineRoute({
    method: 'POST',
    path: '/v1/games',
    summary:
      "Create a game (and take a seat in the same command); `rated`: a two-player game that counts for both players' ratings; `carryOverFrom`: a finished game whose final state starts this one",
    responses: (r) => ({ 201: r.commandResult, 200: r.commandResult, ...r.errors(400, 403, 404, 409, 422) }),
    limit: 'create',
    auth: 'required',
    body: edge('createBody'),
    query: edge('commandQuery'),
    async handle({ body, player, query }) {
      await withinGameLimits(dynamo, player, { creating: true });
      const input = present(body);
      // The club service's rules for a create: imported with the first create, not at a cold start.
      const { markRated, refuseReservedCommandId } = await import('../../app/club-service.js');
      refuseReservedCommandId(input.commandId);
      if (input.rated)
        await markRated(
          new DynamoStreamStore(dynamo.client, dynamo.tableName),
          engines,
          { player, engine: input.engine, options: input.options, commandId: input.commandId },
          'game/rated-needs-two',
        );
      const r = await service.create(player, input);
      const reply = result(r, query, 201);
      return { ...reply, headers: { location: `/v1/games/${encodeURIComponent(r.gameId)}` } };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/games/{id}/join',
    summary: 'Take a seat (an open one, or one reserved for you)',
    responses: (r) => ({ 200: r.commandResult, ...r.errors(403, 404, 409, 422, 429) }),
    auth: 'required',
    params: edge('gameParams'),
    body: edge('joinBody'),
    query: edge('commandQuery'),
    async handle({ params, body, player, query }) {
      await withinGameLimits(dynamo, player, { creating: false });
      return result(await service.join(player, params.id, present(body)), query);
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/games/{id}',
    summary: "Your view of a game: summary, your seat's view, legal commands, pending decisions",
    responses: (r) => ({ 200: r.gameView, ...r.errors(403, 404) }),
    auth: 'required',
    params: edge('gameParams'),
    query: edge('gameViewQuery'),
    async handle({ params, query, player }) {
      return { status: 200, body: await service.view(player, params.id, present(query)) };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/games/{id}/board.svg',
    summary: 'The same view as an SVG picture',
    responses: (r) => ({ 200: { contentType: 'image/svg+xml' }, ...r.errors(403, 404) }),
    auth: 'required',
    params: edge('gameParams'),
    query: edge('viewQuery'),
    async handle({ params, query, player }) {
      // The picture of the same view GET /v1/games/{id} answers: same seat rules, nothing more.
      const v = await service.view(player, params.id, present(query));
      if (!v.scene) throw new AppError(404, 'board/none', `${v.summary.title} has no board picture yet; GET /v1/games/${params.id} gives its view`);
      // The renderer loads with the first picture asked for: a game's commands and views never need it.
      const { renderSvg } = await import('../../../domain/kernel/render-svg.js');
      return { status: 200, text: renderSvg(v.scene), headers: { 'content-type': 'image/svg+xml; charset=utf-8' } };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/games/{id}/events',
    summary: 'The events you may see, in pages (after, limit)',
    responses: (r) => ({ 200: r.eventsPage, ...r.errors(403, 404) }),
    auth: 'required',
    params: edge('gameParams'),
    query: edge('eventsQuery'),
    async handle({ params, query, player }) {
      return { status: 200, body: await service.events(player, params.id, query) };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/games/{id}/commands',
    summary: 'Send a command (one of legalCommands); a repeated commandId answers the first result',
    responses: (r) => ({ 200: r.commandResult, ...r.errors(403, 404, 409, 422) }),
    auth: 'required',
    params: edge('gameParams'),
    body: edge('commandBody'),
    query: edge('commandQuery'),
    async handle({ params, body, player, query }) {
      return result(await service.submit(player, params.id, present(body)), query);
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/games/{id}/preview',
    summary: 'Your view with these draft steps taken; nothing is stored',
    responses: (r) => ({ 200: r.gameView, ...r.errors(403, 404, 409, 422) }),
    auth: 'required',
    params: edge('gameParams'),
    body: edge('previewBody'),
    async handle({ params, body, player }) {
      return { status: 200, body: await service.preview(player, params.id, present(body)) };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/games/{id}/resign',
    summary: 'Resign your seat; your side loses',
    responses: (r) => ({ 200: r.commandResult, ...r.errors(403, 404, 409, 422) }),
    auth: 'required',
    params: edge('gameParams'),
    body: edge('resignBody'),
    query: edge('commandQuery'),
    async handle({ params, body, player, query }) {
      return result(await service.resign(player, params.id, present(body)), query);
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/games/{id}/claim-timeout',
    summary: 'Claim the game once the seats it waits for have let the time limit pass',
    responses: (r) => ({ 200: r.commandResult, ...r.errors(403, 404, 409, 422) }),
    auth: 'required',
    params: edge('gameParams'),
    body: edge('claimBody'),
    query: edge('commandQuery'),
    async handle({ params, body, player, query }) {
      return result(await service.claimTimeout(player, params.id, present(body)), query);
    },
  }),
  defineRoute({
    method: 'PUT',
    path: '/v1/games/{id}/standing-orders',
    summary: "Replace your seat's standing orders (an empty list clears them)",
    responses: (r) => ({ 200: r.commandResult, ...r.errors(403, 404, 409, 422) }),
    auth: 'required',
    params: edge('gameParams'),
    body: edge('standingOrdersBody'),
    query: edge('commandQuery'),
    async handle({ params, body, player, query }) {
      return result(await service.setStandingOrders(player, params.id, present(body)), query);
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/games/{id}/lapse',
    summary: 'Take the default answer of a decision window whose deadline has passed',
    responses: (r) => ({ 200: r.commandResult, ...r.errors(403, 404, 409, 422) }),
    auth: 'required',
    params: edge('gameParams'),
    body: edge('lapseBody'),
    query: edge('commandQuery'),
    async handle({ params, body, player, query }) {
      return result(await service.lapse(player, params.id, present(body)), query);
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/games/{id}/cancel',
    summary: 'The creator withdraws a game that has not started',
    responses: (r) => ({ 200: r.commandResult, ...r.errors(403, 404, 409, 422) }),
    auth: 'required',
    params: edge('gameParams'),
    body: edge('cancelBody'),
    query: edge('commandQuery'),
    async handle({ params, body, player, query }) {
      return result(await service.cancel(player, params.id, body), query);
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/games/{id}/export',
    summary: 'The whole hash-chained log of an ended game, for audit',
    responses: (r) => ({ 200: r.exportedLog, ...r.errors(403, 404, 409, 413) }),
    limit: 'export',
    auth: 'required',
    params: edge('gameParams'),
    async handle({ params, player }) {
      const events = await service.exportLog(player, params.id);
      const last = events[events.length - 1];
      const body = { format: 'fieldpost-log/1', gameId: params.id, version: last?.seq ?? 0, finalHash: last?.hash ?? null, events };
      // A Lambda response carries at most 6 MB: a longer log is read in pages instead.
      const bytes = Buffer.byteLength(JSON.stringify(body));
      if (bytes > exportLimitBytes) {
        throw new AppError(
          413,
          'export/too-large',
          `This log is ${(bytes / 1e6).toFixed(1)} MB, more than one response carries; read it in pages with GET /v1/games/${params.id}/events?after=N (the whole log is open now the game has ended), as npm run cli -- export does`,
        );
      }
      return { status: 200, body, headers: { 'content-disposition': `attachment; filename="fieldpost-${params.id}.json"` } };
    },
  }),
];
