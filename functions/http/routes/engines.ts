import { loadAll } from '../../../domain/kernel/index.js';
import { describeEngine, type EngineDescription } from '../../../domain/kernel/listing.js';
import { defineRoute, type RouteModule } from '../types.js';

/** GET /v1/engines: public; every engine this server plays, with what it takes to create a game of it. */
export const engineRoutes: RouteModule = (deps) => {
  // Built on the first request and kept: the catalog never changes while the process runs, and a cold start loads no engine for it.
  let engines: Promise<EngineDescription[]> | undefined;
  const listing = async () => {
    const all = await loadAll(deps.engines);
    return all.ids().map((id) => describeEngine(all.get(id)!));
  };
  return [
    defineRoute({
      method: 'GET',
      path: '/v1/engines',
      summary: 'Every engine this server plays, with its options schema, seats, sides and standing orders',
      responses: (r) => ({ 200: r.enginesBody }),
      auth: 'none',
      handle: async () => ({ status: 200, body: { engines: await (engines ??= listing()) } }),
    }),
  ];
};
