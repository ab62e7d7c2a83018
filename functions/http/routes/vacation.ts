import * as z from 'zod';
import { clubVacationDays, createVacationService, DynamoVacationStore } from '../../app/vacation.js';
import { ReadModelStore } from '../../projections/read-model-store.js';
import { defineRoute, type RouteModule } from '../types.js';

/**
 * GET /v1/me/vacation: the allowance, what is used and the leave under way.
 * PUT /v1/me/vacation {"away": true, "days"?: n}: start a leave (all that is left by default);
 * {"away": false}: come back. Beyond the allowance: 422 vacation/over-allowance.
 * VACATION_DAYS sets the yearly allowance (30 by default); a member of clubs gets the most
 * generous of that and their clubs' vacationDaysPerYear.
 */
export const vacationBody = z.union([
  z.strictObject({ away: z.literal(true), days: z.number().gt(0).max(366).optional() }),
  z.strictObject({ away: z.literal(false) }),
]);

/** The reply of both routes: the allowance in days, what is used and left, the leave under way. */
export const vacationReply = z.object({
  allowanceDays: z.number(),
  usedDays: z.number(),
  leftDays: z.number(),
  away: z.boolean(),
  from: z.string().optional(),
  until: z.string().optional(),
  games: z.array(z.object({ gameId: z.string(), recorded: z.boolean(), reason: z.string().optional() })).optional(),
});

export const vacationRoutes: RouteModule = (deps) => {
  const allowance = Number(process.env['VACATION_DAYS']);
  const vacation = createVacationService({
    store: new DynamoVacationStore(deps.dynamo.client, deps.dynamo.tableName),
    games: deps.service,
    inbox: new ReadModelStore(deps.dynamo.client, deps.dynamo.tableName),
    clock: deps.clock,
    clubDays: clubVacationDays(deps.dynamo.client, deps.dynamo.tableName),
    ...(Number.isFinite(allowance) && allowance > 0 ? { allowanceDays: allowance } : {}),
  });
  return [
    defineRoute({
      method: 'GET',
      path: '/v1/me/vacation',
      summary: 'Your vacation allowance, what is used and the leave under way',
      auth: 'required',
      responses: { 200: vacationReply },
      handle: async ({ player }) => ({ status: 200, body: await vacation.status(player) }),
    }),
    defineRoute({
      method: 'PUT',
      path: '/v1/me/vacation',
      summary: 'Start a leave (your clocks stop in every game) or come back from it',
      auth: 'required',
      body: vacationBody,
      responses: (r) => ({ 200: vacationReply, ...r.errors(400, 409, 422) }),
      handle: async ({ player, body }) => ({
        status: 200,
        body: body.away ? await vacation.start(player, body.days !== undefined ? { days: body.days } : {}) : await vacation.end(player),
      }),
    }),
  ];
};
