import { describeEngine } from '../../../domain/kernel/index.js';
import { defineRoute, type RouteModule } from '../types.js';

/** GET /v1/engines: public; every engine this server plays, with what it takes to create a game of it. */
export const engineRoutes: RouteModule = (deps) => {
  // Built once per cold start: the registry never changes while the process runs.
  const engines = deps.engines.ids().map((id) => describeEngine(deps.engines.get(id)!));
  return [
    defineRoute({
      method: 'GET',
      path: '/v1/engines',
      auth: 'none',
      handle: async () => ({ status: 200, body: { engines } }),
    }),
  ];
};
