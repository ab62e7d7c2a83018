import { z } from 'zod';
import type { InboxModel, LobbyModel } from '../../projections/project.js';
import { ReadModelStore } from '../../projections/read-model-store.js';
import { defineRoute, type RouteModule } from '../types.js';

const strip = <T extends { pk: string; sk: string; type: string }>({ pk: _pk, sk: _sk, type: _t, ...rest }: T) => rest;

export const inboxQuery = z.strictObject({
  status: z.enum(['open', 'active', 'ended']).optional(),
  yourMove: z.enum(['true', 'false']).optional(),
});

/** Your move first (longest waiting first), then the rest, most recently changed first. */
export function inboxOrder(a: InboxModel, b: InboxModel): number {
  if (a.yourMove !== b.yourMove) return a.yourMove ? -1 : 1;
  if (a.yourMove) return a.since < b.since ? -1 : a.since > b.since ? 1 : 0;
  return a.updatedAt > b.updatedAt ? -1 : a.updatedAt < b.updatedAt ? 1 : 0;
}

/**
 * Read models built by the projector from the table's stream: the caller's games with
 * "your move" flags, and the lobby of open games. Eventually consistent with commands
 * (the stream usually lags by well under a second).
 */
export const inboxRoutes: RouteModule = ({ dynamo }) => {
  const models = new ReadModelStore(dynamo.client, dynamo.tableName);
  return [
    defineRoute({
      method: 'GET',
      path: '/v1/me/games',
      auth: 'required',
      query: inboxQuery,
      async handle({ player, query }) {
        const all = (await models.inbox(player))
          .filter((g) => (query.status === undefined || g.status === query.status) && (query.yourMove === undefined || g.yourMove === (query.yourMove === 'true')))
          .sort(inboxOrder);
        return { status: 200, body: { player, yourMoveCount: all.filter((g) => g.yourMove).length, games: all.map(strip) } };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/lobby',
      auth: 'required',
      query: z.strictObject({ engine: z.string().max(64).optional() }),
      async handle({ query }) {
        const games = (await models.lobby()).filter((g: LobbyModel) => query.engine === undefined || g.engine === query.engine).sort((a, b) => (a.createdAt > b.createdAt ? -1 : a.createdAt < b.createdAt ? 1 : 0));
        return { status: 200, body: { games: games.map(strip) } };
      },
    }),
  ];
};
