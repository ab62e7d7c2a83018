import { describe, expect, it } from 'vitest';
import { canSee, decideDraft, decidePlay, draftRoles, type GameState, type NewEvent } from '../../domain/kernel/index.js';
import { spearpoint, type Command, type State } from '../../domain/spearpoint/index.js';
import { given, when, withHand } from './given.js';

/**
 * Spearpoint's sealed orders drafted in private (kernel/draft.ts; 001 Commitment Phase and
 * Target Declaration): order steps are tried on a scratch copy, and SealOrder carries the
 * draft, so the other side learns nothing of the order, not even its length, until the reveal.
 */
type Side = 'us' | 'de';
const NOW = '2026-01-01T00:00:00.000Z';
const SEED = 'ef'.repeat(32);
const PLAYER = { us: 'alice', de: 'bob' } as const;

/** A running game around an engine state, as the service would have it. */
const asGame = (game: State): GameState<State> => ({
  meta: {
    gameId: 'g1',
    engine: spearpoint.id,
    engineVersion: spearpoint.version,
    options: {},
    seats: (['us', 'de'] as const).map((id) => ({ id, name: id, side: id, player: PLAYER[id], joined: true, entropy: '' })),
    status: 'active',
    commitment: '',
    createdBy: 'alice',
    createdAt: NOW,
    updatedAt: NOW,
    rngCounter: 0,
    waiting: [],
    standing: [],
    banks: [],
    away: [],
    reminded: [],
    version: 40,
    hash: 'h'.repeat(64),
  },
  game,
});

const table = (phase: State['phase'] = 'commitment') =>
  withHand(
    withHand(
      given({ us: [{ card: 'us-rifle-squad' }], de: [{ card: 'de-rifle-squad' }] }, phase),
      'us',
      ['us-m4a1-sherman', 'us-tank-crew', 'us-rifle-squad', 'us-30cal-lmg-team'],
      [],
    ),
    'de',
    ['de-tiger-i', 'de-tank-crew'],
    [],
  );

const draftOf = (s: State, seat: Side, steps: Command[]) => decideDraft(spearpoint, asGame(s), { player: PLAYER[seat], steps, now: NOW });
const seal = (s: State, seat: Side, command: Command, draft?: Command[]) =>
  decidePlay(spearpoint, asGame(s), { player: PLAYER[seat], command, now: NOW, ...(draft ? { draft } : {}) }, SEED);
const seenBy = (events: readonly NewEvent[], seat: Side) => events.filter((e) => canSee(e.visibility, { kind: 'seat', seat }, false));
const orderOf = (s: State, seat: Side) => s.seats[seat].order;

const commitSherman: Command = { type: 'CommitUnit', unit: 'us-h1', crew: 'us-h2' };
const commitRifles: Command = { type: 'CommitUnit', unit: 'us-h3' };
const commitLmg: Command = { type: 'CommitUnit', unit: 'us-h4' };

describe('Spearpoint: drafting a sealed order', () => {
  it('a draft shows the seat its order as if the steps were sent, and changes the legal commands', () => {
    const s = table();
    const r = draftOf(s, 'us', [commitSherman, commitRifles]);
    expect(r.ok).toBe(true);
    const game = r.ok ? r.value.game : s;
    expect(orderOf(game, 'us')).toEqual(orderOf(when(when(s, 'us', commitSherman).s, 'us', commitRifles).s, 'us'));
    const legalAfter = spearpoint.legalCommands(game, 'us');
    expect(legalAfter).not.toContainEqual(commitRifles);
    expect(spearpoint.legalCommands(s, 'us')).toContainEqual(commitRifles);
    expect(orderOf(s, 'us')).toEqual([]);
  });

  it('sealing a draft gives the same order as sending its steps one by one', () => {
    const s = table();
    const stepwise = when(when(when(s, 'us', commitSherman).s, 'us', commitRifles).s, 'us', { type: 'SealOrder' });
    const drafted = seal(s, 'us', { type: 'SealOrder' }, [commitSherman, commitRifles]);
    expect(drafted.ok).toBe(true);
    const finalized = (drafted.ok ? drafted.value : []).find((e) => e.type === 'OrderFinalized');
    const { type: _t, ...expected } = stepwise.events.find((e) => e.type === 'OrderFinalized')!;
    expect(finalized?.data).toEqual(expected);
  });

  it('the other side sees the same events whether the draft had one step or three', () => {
    const s = table();
    const trace = (draft: Command[]) => {
      const r = seal(s, 'us', { type: 'SealOrder' }, draft);
      expect(r.ok).toBe(true);
      return seenBy(r.ok ? r.value : [], 'de');
    };
    const one = trace([commitRifles]);
    const three = trace([commitSherman, commitRifles, commitLmg]);
    expect(one.map((e) => e.type)).toEqual(['OrderSealed']);
    expect(three).toEqual(one);
  });

  it('ClearOrder in a draft starts it over', () => {
    const s = table();
    const r = draftOf(s, 'us', [commitSherman, { type: 'ClearOrder' }, commitRifles]);
    expect(r.ok && orderOf(r.value.game, 'us')).toEqual(orderOf(when(s, 'us', commitRifles).s, 'us'));
    const sealed = seal(s, 'us', { type: 'SealOrder' }, [commitSherman, { type: 'ClearOrder' }, commitRifles]);
    const accepted = (sealed.ok ? sealed.value : []).find((e) => e.type === 'Game.CommandAccepted');
    expect((accepted?.data as { command: unknown }).command).toEqual({ type: 'SealOrder', steps: [commitRifles] });
  });

  it('a draft replaces steps sent one by one before, as SealOrder with steps does', () => {
    const sent = when(table(), 'us', commitSherman).s;
    const r = draftOf(sent, 'us', [commitRifles]);
    expect(r.ok && orderOf(r.value.game, 'us')).toEqual(orderOf(when(table(), 'us', commitRifles).s, 'us'));
  });

  it('target declaration is drafted too, and the Initiative boost travels with the seal', () => {
    const s = withHand(given({ us: [{ card: 'us-rifle-squad' }], de: [{ card: 'de-rifle-squad' }] }, 'declaration'), 'us', [], ['cmd-05']);
    const legal = spearpoint.legalCommands(s, 'us');
    const attack = legal.find((c) => c.type === 'DeclareAttack')!;
    expect(attack).toBeDefined();
    const r = draftOf(s, 'us', [attack]);
    expect(r.ok && orderOf(r.value.game, 'us')).toHaveLength(1);
    const sealed = seal(s, 'us', { type: 'SealOrder', initiativeBoost: 'cmd-05' }, [attack]);
    const accepted = (sealed.ok ? sealed.value : []).find((e) => e.type === 'Game.CommandAccepted');
    expect((accepted?.data as { command: unknown }).command).toEqual({ type: 'SealOrder', initiativeBoost: 'cmd-05', steps: [attack] });
  });

  it('only order steps are drafted; a seal that lists its own steps takes no draft', () => {
    const s = table();
    const roles = draftRoles(spearpoint, spearpoint.legalCommands(s, 'us'));
    const legal = spearpoint.legalCommands(s, 'us');
    expect(new Set(roles.steps.map((i) => legal[i]!.type))).toEqual(new Set(['CommitUnit']));
    expect(roles.seals.map((i) => legal[i]!.type)).toEqual(['SealOrder']);
    const started = when(s, 'us', commitSherman).s;
    const legalLater = spearpoint.legalCommands(started, 'us');
    expect(new Set(draftRoles(spearpoint, legalLater).steps.map((i) => legalLater[i]!.type))).toEqual(new Set(['CommitUnit', 'ClearOrder']));
    const drawn = draftOf(s, 'us', [{ type: 'DrawCard', from: 'command' }]);
    expect(!drawn.ok && drawn.error.code).toBe('draft/not-a-step');
    const both = seal(s, 'us', { type: 'SealOrder', steps: [commitRifles] }, [commitSherman]);
    expect(!both.ok && both.error.code).toBe('draft/not-a-seal');
  });

  it('an illegal step is refused with its number and the rule it breaks', () => {
    const r = draftOf(table(), 'us', [commitRifles, { type: 'CommitUnit', unit: 'de-h1' }]);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error.message).toMatch(/^Step 2 \(CommitUnit\): /);
    expect(!r.ok && r.error.rule).toMatch(/^001 /);
  });

  it('after sealing, nothing more can be drafted until the next order', () => {
    const sealed = when(table(), 'us', { type: 'SealOrder' }).s;
    const r = draftOf(sealed, 'us', [commitRifles]);
    expect(!r.ok && r.error.code).toBe('order/sealed');
  });
});

describe('Spearpoint: a draft is tidied as it grows', () => {
  it('steps before the last ClearOrder are dropped from the draft the seat keeps', () => {
    const r = draftOf(table(), 'us', [commitSherman, commitLmg, { type: 'ClearOrder' }, commitRifles]);
    expect(r.ok && r.value.steps).toEqual([commitRifles]);
    const cleared = draftOf(table(), 'us', [commitSherman, { type: 'ClearOrder' }]);
    expect(cleared.ok && cleared.value.steps).toEqual([]);
  });
});
