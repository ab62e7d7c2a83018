import type { RouteModule } from '../types.js';
import { clubRoutes } from './clubs.js';
import { engineRoutes } from './engines.js';
import { gameRoutes } from './games.js';
import { healthRoutes } from './health.js';
import { inboxRoutes } from './inbox.js';
import { settingsRoutes } from './settings.js';
import { tournamentRoutes } from './tournaments.js';
import { vacationRoutes } from './vacation.js';

/**
 * Every route module the API serves, in AWS and locally. Adding endpoints is one import and
 * one entry here: a module is `(deps: ApiDeps) => Route[]` built with defineRoute().
 */
export const routeModules: readonly RouteModule[] = [
  healthRoutes,
  engineRoutes,
  gameRoutes,
  inboxRoutes,
  settingsRoutes,
  vacationRoutes,
  clubRoutes,
  tournamentRoutes,
];
