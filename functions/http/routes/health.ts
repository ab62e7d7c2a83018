import { defineRoute, type RouteModule } from '../types.js';

/** GET /v1/health: public, cheap (no database call), lists the engines served. */
export const healthRoutes: RouteModule = (deps) => [
  defineRoute({
    method: 'GET',
    path: '/v1/health',
    summary: 'Liveness: service status and the engines served (no database call)',
    responses: (r) => ({ 200: r.healthBody }),
    auth: 'none',
    handle: async () => ({ status: 200, body: { ok: true, service: 'fieldpost', time: deps.clock.now(), engines: deps.engines.ids() } }),
  }),
];
