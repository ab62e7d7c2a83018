import { describe, expect, it } from 'vitest';
import {
  canonicalJson,
  canSee,
  chain,
  decideCreate,
  decideJoin,
  envelopeHash,
  foldAll,
  GENESIS,
  seedCommitment,
  seededRng,
  type Emitted,
  type EventEnvelope,
  type GameState,
} from '../../domain/kernel/index.js';
import { spearpoint, type Command, type Event, type State } from '../../domain/spearpoint/index.js';
import { CheckedGame } from './harness.js';
import { bothSeal, given, withHand } from './given.js';
import { checkpoints, NOW, OPP, PROBER, rngFor, twin, type Side } from './twins.js';

/**
 * A red team for hidden information, played the way a cheating seat would: with nothing but
 * the API. The seat sends commands (legal ones, and probes naming every card id there is) and
 * reads its view, its legal commands and the events it may see. For each checkpoint of a real
 * game we build a twin that differs only in what that seat must not know (the other hand, the
 * other side's command cards and unsealed order, and every deck order), and require the seat
 * to be unable to tell the two apart: same view, same legal commands, same answer to every probe.
 */
/** What the prober learns from sending `c`: the refusal, or the events it may read. A crash is an answer too. */
function answer(s: State, c: Command, tag: string): string {
  try {
    const r = spearpoint.decide(s, c, PROBER, { rng: rngFor(tag), now: NOW });
    if (!r.ok) return `refused ${canonicalJson(r.error)}`;
    return `accepted ${canonicalJson(r.value.filter((e: Emitted<Event>) => canSee(e.visibility, { kind: 'seat', seat: PROBER }, false)).map((e) => e.event))}`;
  } catch (e) {
    return `threw ${(e as Error).message}`;
  }
}

/**
 * Ids a probe names: every card hidden from the prober (the other hand and command cards, and
 * the first few of each deck), the prober's own cards, every unit in play, and one id that does
 * not exist. Catalog ids go to PickStartingUnit only (see probes).
 */
function probeIds(s: State): string[] {
  const opp = s.seats[OPP];
  const me = s.seats[PROBER];
  return [
    ...new Set([
      ...opp.hand,
      ...opp.commands,
      ...opp.reserves.slice(0, 3),
      ...s.commandDeck.draw.slice(0, 3),
      ...s.damageDeck.draw.slice(0, 2),
      ...me.hand,
      ...me.commands,
      ...me.reserves.slice(0, 2),
      ...Object.keys(s.inPlay),
      'zz-404',
    ]),
  ];
}

/** Probe commands: each command shape with every id slot filled by X (other slots by something sensible of the prober's). */
function probes(s: State): Command[] {
  const me = s.seats[PROBER];
  const mine = Object.values(s.inPlay)
    .filter((u) => u.controller === PROBER)
    .map((u) => u.id);
  const theirs = Object.values(s.inPlay)
    .filter((u) => u.controller === OPP)
    .map((u) => u.id);
  const unit = me.hand[0] ?? 'zz-1';
  const card = me.commands[0] ?? 'zz-2';
  const myUnit = mine[0] ?? 'zz-3';
  const target = theirs[0] ?? 'zz-4';
  const attack = s.attacks.find((a) => a.seat === PROBER && a.status === 'pending')?.id ?? 't1-us-1';
  const out: Command[] = [];
  for (const u of s.catalog.units) out.push({ type: 'PickStartingUnit', card: u.id });
  for (const x of probeIds(s)) {
    out.push(
      { type: 'CommitUnit', unit: x },
      { type: 'CommitUnit', unit, crew: x },
      { type: 'CommitUnit', unit: x, line: 'rear' },
      { type: 'ReplaceCrew', crew: x, unit: myUnit },
      { type: 'ReplaceCrew', crew: me.hand.at(-1) ?? 'zz-5', unit: x },
      { type: 'MoveCrew', from: x, to: myUnit },
      { type: 'MoveCrew', from: myUnit, to: x },
      { type: 'MoveLine', unit: x, line: 'rear' },
      { type: 'PlayCommandCard', card: x },
      { type: 'PlayCommandCard', card: x, target },
      { type: 'PlayCommandCard', card, target: x },
      { type: 'PlayCommandCard', card, target: x, boostWith: me.commands[1] ?? 'zz-6' },
      { type: 'PlayCommandCard', card, target, boostWith: x },
      { type: 'DeclareAttack', attacker: x, target, weapons: [0] },
      { type: 'DeclareAttack', attacker: myUnit, target: x, weapons: [0] },
      { type: 'JoinCloseAssault', attacker: x, target },
      { type: 'JoinCloseAssault', attacker: myUnit, target: x },
      { type: 'SealOrder', initiativeBoost: x },
      { type: 'SealOrder', steps: [{ type: 'CommitUnit', unit: x }] },
      { type: 'ResolveAttack', attackId: x },
      { type: 'ResolveAttack', attackId: attack, boostWith: x },
      { type: 'ResolveAttack', attackId: attack, boosts: [{ card: x, roll: 'intensity', shot: 2 }] },
      { type: 'ChooseFriendlyFireVictim', unit: x },
      { type: 'DiscardUnit', card: x },
      { type: 'DiscardCommand', card: x },
    );
  }
  out.push(
    { type: 'AutoPickHand' },
    { type: 'ClearOrder' },
    { type: 'SealOrder' },
    { type: 'DrawCard', from: 'command' },
    { type: 'DrawCard', from: 'reserves' },
  );
  return out;
}

const CHECKPOINTS = checkpoints();
const seatView = (s: State, who: Side | 'spectator') =>
  canonicalJson(spearpoint.view(s, who === 'spectator' ? { kind: 'spectator' } : { kind: 'seat', seat: who }));

describe('hidden information, probed through the API: a seat cannot tell apart games that differ only in what it must not know', () => {
  it('the checkpoints cover every phase, and each twin really differs in hidden cards', () => {
    // 'initiative' (rules version 3): a tied Initiative roll waits for each side's sealed +1 choice.
    expect(new Set(CHECKPOINTS.map((s) => s.phase))).toEqual(new Set(['muster', 'commitment', 'declaration', 'initiative', 'combat', 'draw']));
    const twins = CHECKPOINTS.map((s) => twin(s, false));
    expect(twins.filter((x) => x.changed.some((c) => c.startsWith('hand '))).length).toBeGreaterThan(CHECKPOINTS.length / 2);
    expect(twins.filter((x) => x.changed.some((c) => c.startsWith('command '))).length).toBeGreaterThan(CHECKPOINTS.length / 2);
    expect(twins.filter((x) => x.changed.some((c) => c.startsWith('order step'))).length).toBeGreaterThan(2);
    expect(twins.filter((x) => x.changed.includes('sealed order')).length).toBeGreaterThan(0);
  });

  it('the same view (for the seat and for a spectator), pending list and legal commands', () => {
    for (const s of CHECKPOINTS) {
      for (const decks of [false, true]) {
        const { t, changed } = twin(s, decks);
        const where = `${s.phase}, changed ${changed.join('; ')}`;
        expect(seatView(t, PROBER), where).toBe(seatView(s, PROBER));
        expect(seatView(t, 'spectator'), where).toBe(seatView(s, 'spectator'));
        expect(canonicalJson(spearpoint.pending(t)), where).toBe(canonicalJson(spearpoint.pending(s)));
        expect(canonicalJson(spearpoint.legalCommands(t, PROBER)), where).toBe(canonicalJson(spearpoint.legalCommands(s, PROBER)));
      }
    }
  });

  it('the same answer to every command, legal or a probe naming any card id: refusals word for word, and the events it may read', () => {
    let compared = 0;
    for (const [i, s] of CHECKPOINTS.entries()) {
      const commands = [...spearpoint.legalCommands(s, PROBER), ...probes(s)];
      const { t, changed } = twin(s, false);
      const { t: shuffled } = twin(s, true);
      for (const [k, c] of commands.entries()) {
        const tag = `${i}-${k}`;
        const a = answer(s, c, tag);
        expect(a.startsWith('threw'), `${canonicalJson(c)} in ${s.phase}: ${a}`).toBe(false);
        const ta = answer(t, c, tag);
        // Sealing reveals both orders, so an accepted seal may differ when the other sealed order was changed.
        const reveals = c.type === 'SealOrder' && changed.includes('sealed order') && a.startsWith('accepted') && ta.startsWith('accepted');
        if (!reveals) expect(ta, `${canonicalJson(c)} in ${s.phase}, changed ${changed.join('; ')}`).toBe(a);
        // With the deck orders changed too, accepted commands may draw other cards; refusals must still match.
        const b = answer(shuffled, c, tag);
        expect(b.startsWith('refused') || a.startsWith('refused') ? b : 'accepted', `${canonicalJson(c)} in ${s.phase} with decks reordered`).toBe(
          a.startsWith('refused') || b.startsWith('refused') ? a : 'accepted',
        );
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(5_000);
  });

  it('naming a card hidden in the other hand or in a deck is refused exactly as naming a card that does not exist', () => {
    for (const s of CHECKPOINTS) {
      const hidden = probeIds(s).filter(
        (id) => id !== 'zz-404' && !s.inPlay[id] && !s.seats[PROBER].hand.includes(id) && !s.seats[PROBER].commands.includes(id),
      );
      const shapes = probes(s).filter((c) => JSON.stringify(c).includes('"zz-404"'));
      for (const shape of shapes) {
        const ghost = answer(s, shape, 'ghost');
        for (const id of hidden) {
          const c = JSON.parse(JSON.stringify(shape).replaceAll('"zz-404"', JSON.stringify(id))) as Command;
          expect(answer(s, c, 'ghost').replaceAll(id, 'zz-404'), `${canonicalJson(c)} in ${s.phase}`).toBe(ghost);
        }
      }
    }
  });
});

describe('hidden information: the starting hand', () => {
  const mustering = (): State => {
    const game = new CheckedGame('d1'.repeat(32), 'probe-muster', { checkedEvents: 0, checkedViews: 0 }, false);
    game.start({});
    return game.state!.game;
  };
  const hand = (s: State, seat: Side, c: Command, secret: string): string[] => {
    const r = spearpoint.decide(s, c, seat, { rng: seededRng({ seed: secret, gameId: 'probe-muster', entropy: [], counter: 0 }), now: NOW });
    if (!r.ok) throw new Error(r.error.message);
    let t = s;
    for (const e of r.value) t = spearpoint.evolve(t, e.event);
    return [...t.seats[seat].hand];
  };
  const secrets = Array.from({ length: 12 }, (_, i) => `${i}`.padStart(2, '0').repeat(32));

  it('a hand the server picks (AutoPickHand) is drawn with the secret seed, not read off the public deck list', () => {
    // The deck lists are in the game's public options. If the server's pick were a function of
    // them, the other side would know this hand exactly; it must depend on the secret dice.
    const s = mustering();
    const hands = new Set(
      secrets.map((x) =>
        canonicalJson(
          hand(s, 'de', { type: 'AutoPickHand' }, x)
            .map((id) => s.cards[id]!.card)
            .sort(),
        ),
      ),
    );
    expect(hands.size).toBeGreaterThan(1);
    // Still a hand ready to play: 4 units, the ones needing no crew first.
    for (const x of secrets.slice(0, 3)) {
      const h = hand(s, 'de', { type: 'AutoPickHand' }, x);
      expect(h).toHaveLength(4);
      expect(h.every((id) => s.catalog.units.find((u) => u.id === s.cards[id]!.card)!.crew === 'none')).toBe(true);
    }
  });

  it('which of several identical cards a pick takes is hidden too: not always the first of the deck list', () => {
    // With the lowest copy always taken, a Sherman committed on turn 1 as the deck's second
    // Sherman would tell the other side that the first is still in hand.
    const s = mustering();
    const copies = s.seats.us.reserves.filter((id) => s.cards[id]!.card === 'us-rifle-squad');
    expect(copies.length).toBeGreaterThan(1);
    const pick = { type: 'PickStartingUnit', card: 'us-rifle-squad' } as const;
    const picked = new Set(secrets.map((x) => hand(s, 'us', { type: 'AutoPickHand', steps: [pick] }, x)[0]));
    expect(picked.size).toBeGreaterThan(1);
  });
});

describe('hidden information: the hash chain', () => {
  it('a seat cannot confirm a guess of the other side’s dealt cards from the public envelopes around them', () => {
    const seed = 'e5'.repeat(32);
    const gameId = 'probe-chain';
    const meta = (commandId: string, player: string) => ({ gameId, commandId, at: NOW, player, seed });
    const log: EventEnvelope[] = [];
    let st: GameState | undefined;
    const add = (envs: EventEnvelope[]) => {
      log.push(...envs);
      st = foldAll(spearpoint, envs, st);
    };
    const created = decideCreate(spearpoint, { gameId, options: {}, createdBy: 'alice', commitment: seedCommitment(seed) });
    if (!created.ok) throw new Error(created.error.message);
    add(chain(GENESIS, created.value, meta('c1', 'alice')));
    for (const [i, [player, seat]] of [
      ['alice', 'us'],
      ['bob', 'de'],
    ].entries()) {
      const joined = decideJoin(spearpoint, st!, { player: player!, seat: seat! }, seed);
      if (!joined.ok) throw new Error(joined.error.message);
      add(chain({ version: st!.meta.version, hash: st!.meta.hash }, joined.value, meta(`c${i + 2}`, player!)));
    }
    const dealt = log.find((e) => e.type === 'CommandCardsDealt' && (e.data as { seat: string }).seat === 'de')!;
    const before = log.find((e) => e.seq === dealt.seq - 1)!;
    const after = log.find((e) => e.seq === dealt.seq + 1)!;
    const us = { kind: 'seat', seat: 'us' } as const;
    // What us reads: the envelopes on both sides of the hidden one, not the hidden one itself.
    expect(canSee(before.visibility, us, false) && canSee(after.visibility, us, false)).toBe(true);
    expect(canSee(dealt.visibility, us, false)).toBe(false);
    // us's best possible guess is the truth itself; without the salt even that does not hash to the link.
    const { hash: _h, salt, ...guess } = dealt;
    expect(salt).toMatch(/^[0-9a-f]{64}$/);
    expect(after.prevHash).toBe(dealt.hash);
    expect(envelopeHash({ ...guess, prevHash: before.hash })).not.toBe(after.prevHash);
    expect(envelopeHash({ ...guess, salt, prevHash: before.hash })).toBe(after.prevHash);
    // Every event us may not read is salted; no salt appears in anything us may read but its own events.
    for (const e of log) if (e.visibility.to !== 'all') expect(e.salt, e.type).toBeDefined();
    const readable = JSON.stringify(log.filter((e) => canSee(e.visibility, us, false)));
    for (const e of log) if (e.salt && !canSee(e.visibility, us, false)) expect(readable.includes(e.salt)).toBe(false);
  });
});

describe('the engine’s own end of a game reads public facts only', () => {
  it('two games that differ only in a hidden hand end, or go on, alike', () => {
    const base = given({}, 'declaration');
    const empty: State = { ...base, seats: { us: { ...base.seats.us, reserves: [] }, de: { ...base.seats.de, reserves: [] } } };
    const crewOnly = withHand(withHand(empty, 'us', ['us-tank-crew']), 'de', ['de-tank-crew']);
    const withRifles = withHand(withHand(empty, 'us', ['us-tank-crew']), 'de', ['de-rifle-squad']);
    const types = (s: State) => bothSeal(s, [], []).events.map((e) => e.type);
    expect(types(withRifles)).toEqual(types(crewOnly));
    expect(types(crewOnly)).toContain('GameDecided');
  });

  it('a side that commits a unit keeps the game going', () => {
    const base = given({}, 'commitment');
    const empty: State = { ...base, seats: { us: { ...base.seats.us, reserves: [] }, de: { ...base.seats.de, reserves: [] } } };
    const s = withHand(withHand(empty, 'us', ['us-tank-crew']), 'de', ['de-rifle-squad']);
    const committed = bothSeal(s, [], [{ type: 'CommitUnit', unit: 'de-h1' }]);
    expect(committed.s.seats.de.lastCommitTurn).toBe(1);
    expect(committed.events.map((e) => e.type)).not.toContain('GameDecided');
  });
});
