import { canonicalJson } from '../kernel/canonical.js';
import { assertNever, violation, type RuleViolation } from '../kernel/errors.js';
import { err, ok, type Result } from '../kernel/result.js';
import { sha256Hex } from '../kernel/sha256.js';
import type { ClubCommand, ClubSettings } from './club-commands.js';

/**
 * A club as a Decider: who belongs (owner, directors, members), how people get in (a join
 * code or an invitation), and the club's settings, including engine data such as a Spearpoint
 * card catalog stored once and chosen by name when a game or tournament is set up.
 *
 * Roles: the owner (exactly one) may do everything, including changing roles and handing the
 * club over; directors run tournaments, invite, set the join code, the settings and the engine
 * data, and remove plain members; members play. The owner cannot leave without handing over.
 */

export const CLUB_ROLES = ['owner', 'director', 'member'] as const;
export type ClubRole = (typeof CLUB_ROLES)[number];

// The commands' shapes, the settings', and the schemas a club's creation and the HTTP edge check them with: club-commands.ts.
export type { ClubCommand, ClubSettings } from './club-commands.js';

export type ClubEvent =
  | { type: 'ClubCreated'; clubId: string; name: string; description: string; owner: string }
  | { type: 'ClubUpdated'; name?: string; description?: string }
  /** Only a hash of the code is kept, so the log and its readers never learn the code. */
  | { type: 'JoinCodeSet'; codeHash: string | null }
  | { type: 'MemberInvited'; invitee: string; role: 'director' | 'member'; by: string }
  | { type: 'MemberJoined'; member: string; role: ClubRole; via: 'founder' | 'code' | 'invitation' }
  | { type: 'RoleChanged'; member: string; role: ClubRole; by: string }
  | { type: 'MemberRemoved'; member: string; by: string; reason?: string }
  | { type: 'MemberLeft'; member: string }
  | { type: 'SettingsChanged'; settings: ClubSettings }
  | { type: 'EngineDataStored'; engine: string; name: string; data: unknown; hash: string }
  | { type: 'EngineDataRemoved'; engine: string; name: string };

export const CLUB_ERRORS = {
  exists: 'club/exists',
  notFound: 'club/not-found',
  notMember: 'club/not-a-member',
  alreadyMember: 'club/already-member',
  forbidden: 'club/forbidden',
  badCode: 'club/bad-join-code',
  noInvitation: 'club/no-invitation',
  ownerStays: 'club/owner-must-hand-over',
  badEngineData: 'club/bad-engine-data',
  noEngineData: 'club/no-such-engine-data',
} as const;
export type ClubErrorCode = (typeof CLUB_ERRORS)[keyof typeof CLUB_ERRORS];

export interface EngineData {
  readonly engine: string;
  readonly name: string;
  readonly data: unknown;
  /** SHA-256 of the canonical JSON of the data: a game records it to show which catalog it used. */
  readonly hash: string;
}

export interface ClubState {
  readonly exists: boolean;
  readonly clubId: string;
  readonly name: string;
  readonly description: string;
  readonly codeHash: string | null;
  readonly members: ReadonlyMap<string, ClubRole>;
  readonly invitations: ReadonlyMap<string, 'director' | 'member'>;
  readonly settings: ClubSettings;
  /** Keyed by `engine/name`. */
  readonly engineData: ReadonlyMap<string, EngineData>;
}

export const initialClubState: ClubState = {
  exists: false,
  clubId: '',
  name: '',
  description: '',
  codeHash: null,
  members: new Map(),
  invitations: new Map(),
  settings: {},
  engineData: new Map(),
};

/** What decide may use besides state: a check of engine data against its engine's schema (e.g. Spearpoint's loadCatalog). */
export interface ClubCtx {
  readonly validateEngineData?: (engine: string, data: unknown) => RuleViolation | undefined;
}

export const joinCodeHash = (clubId: string, code: string): string => sha256Hex(`${clubId}\n${code}`);
const dataKey = (engine: string, name: string) => `${engine}/${name}`;

/** A club's engine data chosen by name, or undefined. */
export const engineDataNamed = (s: ClubState, engine: string, name: string): EngineData | undefined => s.engineData.get(dataKey(engine, name));

export function evolveClub(s: ClubState, e: ClubEvent): ClubState {
  switch (e.type) {
    case 'ClubCreated':
      return { ...initialClubState, exists: true, clubId: e.clubId, name: e.name, description: e.description };
    case 'ClubUpdated':
      return { ...s, ...(e.name !== undefined ? { name: e.name } : {}), ...(e.description !== undefined ? { description: e.description } : {}) };
    case 'JoinCodeSet':
      return { ...s, codeHash: e.codeHash };
    case 'MemberInvited':
      return { ...s, invitations: new Map(s.invitations).set(e.invitee, e.role) };
    case 'MemberJoined': {
      const invitations = new Map(s.invitations);
      invitations.delete(e.member);
      return { ...s, members: new Map(s.members).set(e.member, e.role), invitations };
    }
    case 'RoleChanged': {
      const members = new Map(s.members);
      // Handing the club over: the old owner stays on as a director.
      if (e.role === 'owner') for (const [m, r] of members) if (r === 'owner') members.set(m, 'director');
      members.set(e.member, e.role);
      return { ...s, members };
    }
    case 'MemberRemoved':
    case 'MemberLeft': {
      const members = new Map(s.members);
      members.delete(e.member);
      return { ...s, members };
    }
    case 'SettingsChanged':
      return { ...s, settings: { ...s.settings, ...e.settings } };
    case 'EngineDataStored':
      return { ...s, engineData: new Map(s.engineData).set(dataKey(e.engine, e.name), { engine: e.engine, name: e.name, data: e.data, hash: e.hash }) };
    case 'EngineDataRemoved': {
      const engineData = new Map(s.engineData);
      engineData.delete(dataKey(e.engine, e.name));
      return { ...s, engineData };
    }
    default:
      return assertNever(e, 'club event');
  }
}

type Decision = Result<ClubEvent[], RuleViolation>;
const refuse = (code: ClubErrorCode, message: string): Decision => err(violation(code, message));
const atLeastDirector = (r: ClubRole | undefined) => r === 'owner' || r === 'director';

export function decideClub(s: ClubState, c: ClubCommand, actor: string, ctx: ClubCtx = {}): Decision {
  if (c.type === 'CreateClub') {
    if (s.exists) return refuse(CLUB_ERRORS.exists, 'This club already exists.');
    return ok([
      { type: 'ClubCreated', clubId: c.clubId, name: c.name, description: c.description, owner: actor },
      { type: 'MemberJoined', member: actor, role: 'owner', via: 'founder' },
      ...(c.joinCode !== undefined ? [{ type: 'JoinCodeSet' as const, codeHash: joinCodeHash(c.clubId, c.joinCode) }] : []),
    ]);
  }
  if (!s.exists) return refuse(CLUB_ERRORS.notFound, 'There is no such club.');
  const role = s.members.get(actor);
  const needDirector = (): Decision | undefined =>
    atLeastDirector(role) ? undefined : refuse(CLUB_ERRORS.forbidden, "Only the club's owner or a director may do that.");

  switch (c.type) {
    case 'UpdateClub':
      return (
        needDirector() ??
        ok([{ type: 'ClubUpdated', ...(c.name !== undefined ? { name: c.name } : {}), ...(c.description !== undefined ? { description: c.description } : {}) }])
      );
    case 'SetJoinCode':
      return needDirector() ?? ok([{ type: 'JoinCodeSet', codeHash: c.joinCode === null ? null : joinCodeHash(s.clubId, c.joinCode) }]);
    case 'JoinClub':
      if (role !== undefined) return refuse(CLUB_ERRORS.alreadyMember, 'You are already a member.');
      if (s.codeHash === null || s.codeHash !== joinCodeHash(s.clubId, c.joinCode)) return refuse(CLUB_ERRORS.badCode, 'That join code is not this club’s.');
      return ok([{ type: 'MemberJoined', member: actor, role: 'member', via: 'code' }]);
    case 'InviteMember': {
      const refused = needDirector();
      if (refused) return refused;
      if (s.members.has(c.invitee)) return refuse(CLUB_ERRORS.alreadyMember, 'That player is already a member.');
      if (c.role === 'director' && role !== 'owner') return refuse(CLUB_ERRORS.forbidden, 'Only the owner appoints directors.');
      return ok([{ type: 'MemberInvited', invitee: c.invitee, role: c.role, by: actor }]);
    }
    case 'AcceptInvitation': {
      if (role !== undefined) return refuse(CLUB_ERRORS.alreadyMember, 'You are already a member.');
      const invited = s.invitations.get(actor);
      if (invited === undefined) return refuse(CLUB_ERRORS.noInvitation, 'You have not been invited to this club.');
      return ok([{ type: 'MemberJoined', member: actor, role: invited, via: 'invitation' }]);
    }
    case 'SetRole': {
      if (role !== 'owner') return refuse(CLUB_ERRORS.forbidden, 'Only the owner changes roles.');
      const current = s.members.get(c.member);
      if (current === undefined) return refuse(CLUB_ERRORS.notMember, 'That player is not a member.');
      if (c.member === actor) return refuse(CLUB_ERRORS.ownerStays, 'Hand the club to another member instead.');
      return ok([{ type: 'RoleChanged', member: c.member, role: c.role, by: actor }]);
    }
    case 'RemoveMember': {
      const current = s.members.get(c.member);
      if (current === undefined) return refuse(CLUB_ERRORS.notMember, 'That player is not a member.');
      if (current === 'owner') return refuse(CLUB_ERRORS.ownerStays, 'The owner cannot be removed.');
      if (!(role === 'owner' || (role === 'director' && current === 'member'))) return refuse(CLUB_ERRORS.forbidden, 'You may not remove that member.');
      return ok([{ type: 'MemberRemoved', member: c.member, by: actor, ...(c.reason !== undefined ? { reason: c.reason } : {}) }]);
    }
    case 'LeaveClub':
      if (role === undefined) return refuse(CLUB_ERRORS.notMember, 'You are not a member.');
      if (role === 'owner') return refuse(CLUB_ERRORS.ownerStays, 'Hand the club to another member before leaving.');
      return ok([{ type: 'MemberLeft', member: actor }]);
    case 'UpdateSettings':
      return needDirector() ?? ok([{ type: 'SettingsChanged', settings: c.settings }]);
    case 'StoreEngineData': {
      const refused = needDirector();
      if (refused) return refused;
      const problem = ctx.validateEngineData?.(c.engine, c.data);
      if (problem) return err(violation(CLUB_ERRORS.badEngineData, problem.message, problem.rule));
      return ok([{ type: 'EngineDataStored', engine: c.engine, name: c.name, data: c.data, hash: sha256Hex(canonicalJson(c.data)) }]);
    }
    case 'RemoveEngineData':
      return (
        needDirector() ??
        (engineDataNamed(s, c.engine, c.name) === undefined
          ? refuse(CLUB_ERRORS.noEngineData, 'The club has no engine data of that name.')
          : ok([{ type: 'EngineDataRemoved', engine: c.engine, name: c.name }]))
      );
    default:
      return assertNever(c, 'club command');
  }
}
