import type { LazyRouteModule } from '../types.js';
import { gameRoutes } from './games.js';

/**
 * The route modules of routes/index.ts as the Lambda function serves them: each built on the
 * first request whose path starts with one of its prefixes. The game routes come with the handler,
 * since nearly every request is a game's and they bring no zod (their requests are checked by
 * functions/http/edge.ts); each other module is imported then (esbuild splits each into a chunk
 * of its own), so a cold start that serves a game command does not load nor build the clubs',
 * tournaments', settings' and inbox routes and their schemas (issue 16). Same order as
 * routeModules; tests/http/lazy-routes.test.ts holds the two lists to each other.
 */
export const lazyRouteModules: readonly LazyRouteModule[] = [
  { prefixes: ['/v1/health'], load: async () => (await import('./health.js')).healthRoutes },
  { prefixes: ['/v1/engines'], load: async () => (await import('./engines.js')).engineRoutes },
  { prefixes: ['/v1/games'], load: async () => gameRoutes },
  { prefixes: ['/v1/lobby', '/v1/me/games'], load: async () => (await import('./inbox.js')).inboxRoutes },
  { prefixes: ['/v1/me/settings', '/v1/me/email', '/v1/me/deliveries', '/v1/unsubscribe'], load: async () => (await import('./settings.js')).settingsRoutes },
  { prefixes: ['/v1/me/vacation'], load: async () => (await import('./vacation.js')).vacationRoutes },
  { prefixes: ['/v1/clubs'], load: async () => (await import('./clubs.js')).clubRoutes },
  { prefixes: ['/v1/tournaments', '/v1/ratings', '/v1/players'], load: async () => (await import('./tournaments.js')).tournamentRoutes },
];
