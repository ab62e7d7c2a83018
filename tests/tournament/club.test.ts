import { describe, expect, it } from 'vitest';
import { violation } from '../../domain/kernel/errors.js';
import {
  CLUB_ERRORS as E,
  decideClub,
  engineDataNamed,
  evolveClub,
  initialClubState,
  joinCodeHash,
  type ClubCtx,
  type ClubEvent,
  type ClubState,
} from '../../domain/tournament/club.js';
import { clubCommandSchema } from '../../domain/tournament/club-commands.js';

const given = (...events: ClubEvent[]): ClubState => events.reduce(evolveClub, initialClubState);
const decide = (s: ClubState, command: unknown, actor: string, ctx?: ClubCtx) => decideClub(s, clubCommandSchema.parse(command), actor, ctx);
const expectEvents = (s: ClubState, command: unknown, actor: string, then: ClubEvent[]) => expect(decide(s, command, actor)).toEqual({ ok: true, value: then });
const expectRefused = (s: ClubState, command: unknown, actor: string, code: string) => {
  const r = decide(s, command, actor);
  expect(r.ok ? 'accepted' : r.error.code).toBe(code);
};
const apply = (s: ClubState, command: unknown, actor: string, ctx?: ClubCtx): ClubState => {
  const r = decide(s, command, actor, ctx);
  if (!r.ok) throw new Error(r.error.code);
  return r.value.reduce(evolveClub, s);
};

const club = () =>
  given(
    { type: 'ClubCreated', clubId: 'c1', name: 'Panzer Lehr PBW', description: 'Weekly games', owner: 'olga' },
    { type: 'MemberJoined', member: 'olga', role: 'owner', via: 'founder' },
    { type: 'JoinCodeSet', codeHash: joinCodeHash('c1', 'kursk-43') },
    { type: 'MemberJoined', member: 'dora', role: 'director', via: 'invitation' },
    { type: 'MemberJoined', member: 'mo', role: 'member', via: 'code' },
  );

describe('club', () => {
  it('the founder owns the new club; the join code is kept only as a hash', () => {
    expectEvents(given(), { type: 'CreateClub', clubId: 'c1', name: 'Panzer Lehr PBW', description: 'Weekly games', joinCode: 'kursk-43' }, 'olga', [
      { type: 'ClubCreated', clubId: 'c1', name: 'Panzer Lehr PBW', description: 'Weekly games', owner: 'olga' },
      { type: 'MemberJoined', member: 'olga', role: 'owner', via: 'founder' },
      { type: 'JoinCodeSet', codeHash: joinCodeHash('c1', 'kursk-43') },
    ]);
    expect(JSON.stringify(club())).not.toContain('kursk-43');
    expectRefused(club(), { type: 'CreateClub', clubId: 'c1', name: 'Again' }, 'x', E.exists);
    expectRefused(given(), { type: 'JoinClub', joinCode: 'kursk-43' }, 'x', E.notFound);
  });

  it('joining with the right code; a wrong code or a second join is refused', () => {
    expectEvents(club(), { type: 'JoinClub', joinCode: 'kursk-43' }, 'newbie', [{ type: 'MemberJoined', member: 'newbie', role: 'member', via: 'code' }]);
    expectRefused(club(), { type: 'JoinClub', joinCode: 'kursk-44' }, 'newbie', E.badCode);
    expectRefused(club(), { type: 'JoinClub', joinCode: 'kursk-43' }, 'mo', E.alreadyMember);
    const closed = apply(club(), { type: 'SetJoinCode', joinCode: null }, 'dora');
    expectRefused(closed, { type: 'JoinClub', joinCode: 'kursk-43' }, 'newbie', E.badCode);
    expectRefused(club(), { type: 'SetJoinCode', joinCode: 'mine-now' }, 'mo', E.forbidden);
  });

  it('invitations: directors invite members, only the owner invites directors; the invitee accepts', () => {
    expectEvents(club(), { type: 'InviteMember', invitee: 'ivan' }, 'dora', [{ type: 'MemberInvited', invitee: 'ivan', role: 'member', by: 'dora' }]);
    expectRefused(club(), { type: 'InviteMember', invitee: 'ivan', role: 'director' }, 'dora', E.forbidden);
    expectRefused(club(), { type: 'InviteMember', invitee: 'ivan' }, 'mo', E.forbidden);
    expectRefused(club(), { type: 'AcceptInvitation' }, 'ivan', E.noInvitation);
    const invited = apply(club(), { type: 'InviteMember', invitee: 'ivan', role: 'director' }, 'olga');
    expectEvents(invited, { type: 'AcceptInvitation' }, 'ivan', [{ type: 'MemberJoined', member: 'ivan', role: 'director', via: 'invitation' }]);
    expect(apply(invited, { type: 'AcceptInvitation' }, 'ivan').invitations.size).toBe(0);
  });

  it('roles: only the owner changes them; handing over ownership leaves the old owner a director', () => {
    expectRefused(club(), { type: 'SetRole', member: 'mo', role: 'director' }, 'dora', E.forbidden);
    expectRefused(club(), { type: 'SetRole', member: 'ghost', role: 'director' }, 'olga', E.notMember);
    const s = apply(club(), { type: 'SetRole', member: 'mo', role: 'owner' }, 'olga');
    expect([...s.members]).toEqual([
      ['olga', 'director'],
      ['dora', 'director'],
      ['mo', 'owner'],
    ]);
  });

  it('leaving and removal: the owner stays until handing over; directors remove plain members only', () => {
    expectRefused(club(), { type: 'LeaveClub' }, 'olga', E.ownerStays);
    expectEvents(club(), { type: 'LeaveClub' }, 'mo', [{ type: 'MemberLeft', member: 'mo' }]);
    expectEvents(club(), { type: 'RemoveMember', member: 'mo', reason: 'abusive chat' }, 'dora', [
      { type: 'MemberRemoved', member: 'mo', by: 'dora', reason: 'abusive chat' },
    ]);
    expectRefused(club(), { type: 'RemoveMember', member: 'dora' }, 'mo', E.forbidden);
    expectRefused(apply(club(), { type: 'InviteMember', invitee: 'x' }, 'olga'), { type: 'RemoveMember', member: 'olga' }, 'dora', E.ownerStays);
  });

  it('settings: default time limit and vacation allowance, set by a director', () => {
    const s = apply(club(), { type: 'UpdateSettings', settings: { defaultTimeLimitHours: 72, vacationDaysPerYear: 21 } }, 'dora');
    expect(s.settings).toEqual({ defaultTimeLimitHours: 72, vacationDaysPerYear: 21 });
    expectRefused(club(), { type: 'UpdateSettings', settings: { vacationDaysPerYear: 365 } }, 'mo', E.forbidden);
    expect(clubCommandSchema.safeParse({ type: 'UpdateSettings', settings: { defaultTimeLimitHours: 0 } }).success).toBe(false);
  });

  it("engine data (a club's own card catalog) is stored once, checked by the engine, and chosen by name", () => {
    const catalog = { cards: [{ id: 'sherman', attack: 6 }] };
    const ctx: ClubCtx = {
      validateEngineData: (_engine, data) => ((data as typeof catalog).cards.length ? undefined : violation('catalog/empty', 'A catalog needs cards')),
    };
    const s = apply(club(), { type: 'StoreEngineData', engine: 'spearpoint-1943', name: 'club-2025', data: catalog }, 'dora', ctx);
    expect(engineDataNamed(s, 'spearpoint-1943', 'club-2025')).toMatchObject({ data: catalog, hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(engineDataNamed(s, 'spearpoint-1943', 'other')).toBeUndefined();
    const bad = decide(club(), { type: 'StoreEngineData', engine: 'spearpoint-1943', name: 'empty', data: { cards: [] } }, 'dora', ctx);
    expect(bad).toEqual({ ok: false, error: { code: E.badEngineData, message: 'A catalog needs cards' } });
    expectRefused(club(), { type: 'StoreEngineData', engine: 'spearpoint-1943', name: 'x', data: {} }, 'mo', E.forbidden);
    expectRefused(club(), { type: 'RemoveEngineData', engine: 'spearpoint-1943', name: 'club-2025' }, 'dora', E.noEngineData);
    expect(
      engineDataNamed(apply(s, { type: 'RemoveEngineData', engine: 'spearpoint-1943', name: 'club-2025' }, 'olga'), 'spearpoint-1943', 'club-2025'),
    ).toBeUndefined();
  });
});
