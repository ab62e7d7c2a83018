import * as z from '../kernel/zod-mini.js';
import { timeControlSchema } from '../kernel/time-control.js';
import { CLUB_ROLES } from './club.js';

/**
 * A club's commands and settings (club.ts is the Decider). The schemas check a club's creation
 * (functions/app/club-service.ts imports this module with the first one it creates) and the HTTP
 * edge's club requests (functions/http/club-schemas.ts). A module of its own so the tournaments
 * function, which creates no club, loads no zod at a cold start (issue 16).
 */

const id = z.string().check(z.minLength(1), z.maxLength(200));
const joinCode = z.string().check(z.minLength(6), z.maxLength(100));

export const clubSettingsSchema = z.strictObject({
  /** Hours a seat may leave a game unchanged before the other side may claim it (kernel's timeLimitHours). */
  defaultTimeLimitHours: z.optional(z.int().check(z.minimum(1), z.maximum(24 * 60))),
  /** The correspondence clock a member's club game or a tournament gets when it names none (the kernel's time control). */
  defaultTimeControl: z.optional(timeControlSchema()),
  /** Days a player may pause their clocks each year. */
  vacationDaysPerYear: z.optional(z.int().check(z.minimum(0), z.maximum(366))),
});
export type ClubSettings = z.infer<typeof clubSettingsSchema>;

export const clubCommandSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('CreateClub'),
    clubId: id,
    name: z.string().check(z.minLength(1), z.maxLength(200)),
    description: z._default(z.string().check(z.maxLength(5000)), ''),
    joinCode: z.optional(joinCode),
  }),
  z.strictObject({
    type: z.literal('UpdateClub'),
    name: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
    description: z.optional(z.string().check(z.maxLength(5000))),
  }),
  z.strictObject({ type: z.literal('SetJoinCode'), joinCode: z.nullable(joinCode) }),
  z.strictObject({ type: z.literal('JoinClub'), joinCode }),
  z.strictObject({ type: z.literal('InviteMember'), invitee: id, role: z._default(z.enum(['director', 'member']), 'member') }),
  z.strictObject({ type: z.literal('AcceptInvitation') }),
  z.strictObject({ type: z.literal('SetRole'), member: id, role: z.enum(CLUB_ROLES) }),
  z.strictObject({ type: z.literal('RemoveMember'), member: id, reason: z.optional(z.string().check(z.maxLength(500))) }),
  z.strictObject({ type: z.literal('LeaveClub') }),
  z.strictObject({ type: z.literal('UpdateSettings'), settings: clubSettingsSchema }),
  z.strictObject({ type: z.literal('StoreEngineData'), engine: id, name: id, data: z.unknown() }),
  z.strictObject({ type: z.literal('RemoveEngineData'), engine: id, name: id }),
]);
export type ClubCommand = z.infer<typeof clubCommandSchema>;
