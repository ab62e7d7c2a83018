import { describe, expect, it } from 'vitest';
import { canonicalJson, renderSvg, seededRng, type CardArea, type Region, type Scene, type Viewer } from '../../domain/kernel/index.js';
import { spearpoint, type State } from '../../domain/spearpoint/index.js';
import { svgToPng } from '../../functions/notify/png.js';
import { svgProblem } from '../support/svg.js';
import { cardTitled, given, withHand } from './given.js';
import { CheckedGame } from './harness.js';
import { checkpoints, PROBER, twin } from './twins.js';

const US: Viewer = { kind: 'seat', seat: 'us' };
const DE: Viewer = { kind: 'seat', seat: 'de' };
const SPECTATOR: Viewer = { kind: 'spectator' };
const sceneOf = (s: State, v: Viewer): Scene => spearpoint.scene!(s, v);
const regions = (sc: Scene): Map<string, Region> => new Map(sc.rows.flat().map((r) => [r.id, r]));
const area = (sc: Scene, id: string): CardArea => {
  const r = regions(sc).get(id);
  if (r?.kind !== 'area') throw new Error(`no area ${id}`);
  return r;
};
const pieceOf = (sc: Scene, id: string) =>
  sc.rows.flatMap((row) => row.flatMap((r) => (r.kind === 'area' ? r.lanes.flatMap((l) => l.pieces) : []))).find((p) => p.id === id);

/** Combat on turn 1: a shaken, hit Sherman has fired at a damaged Tiger; a dug-in rifle squad; cards in both hands. */
function combat(): State {
  let s = given(
    {
      us: [{ card: 'us-m4a1-sherman', patch: { endurance: 10, shakenUntil: 1 } }, { card: 'us-rifle-squad' }],
      de: [{ card: 'de-tiger-i', patch: { endurance: 12, damageCard: 'dmg-01' } }],
    },
    'combat',
  );
  const digIn = cardTitled(s, 'Dig In');
  s = withHand(withHand(s, 'us', ['us-rifle-squad']), 'de', ['de-tiger-i'], [cardTitled(s, 'Dig In', 1)]);
  return {
    ...s,
    commandDeck: { ...s.commandDeck, draw: s.commandDeck.draw.filter((c) => c !== digIn) },
    effects: [{ card: digIn, title: 'Dig In', seat: 'us', unit: 'us-t2', effect: { kind: 'defense', amount: 2 }, duration: 'permanent' }],
    seats: { ...s.seats, us: { ...s.seats.us, score: 5 } },
    initiative: 'us',
    chooser: 'de',
    attacks: [
      { id: 't1-us-1', seat: 'us', attackers: ['us-t1'], target: 'de-t1', weapons: [0], closeAssault: false, status: 'resolved', shotsDone: 1 },
      { id: 't1-de-1', seat: 'de', attackers: ['de-t1'], target: 'us-t1', weapons: [0], closeAssault: false, status: 'pending', shotsDone: 0 },
    ],
  };
}

describe("Spearpoint's scene", () => {
  it("shows both battle areas with each unit's Defense, Endurance and damage, the cards on units, scores, turn, phase and whose move", () => {
    const sc = sceneOf(combat(), US);
    expect(sc.title).toBe('Spearpoint 1943 · seen by United States');
    expect(sc.status[0]).toBe('Standard Game · turn 1 of at most 40 · Combat phase');
    expect(sc.status).toContain('Initiative: United States');
    expect(sc.status).toContain('Waiting for Germany: Choose one of your declared attacks to resolve');
    expect(sc.scores.map((x) => `${x.label}: ${x.value}`)).toEqual(['United States: 5 VP', 'Germany: 0 VP']);
    // The other side across the table, yours below, then the hands.
    expect(sc.rows.map((row) => row.map((r) => r.id))).toEqual([['battle-de'], ['battle-us'], ['hand-us', 'hand-de']]);
    const sherman = pieceOf(sc, 'us-t1')!;
    expect(sherman.label).toBe('M4A1 Sherman');
    expect(sherman.details[0]).toBe('Defense 5 · Endurance 10/14');
    expect(sherman.markers.map((m) => m.label)).toEqual(['4 damage', 'Shaken']);
    const tiger = pieceOf(sc, 'de-t1')!;
    expect(tiger.markers.some((m) => m.tone === 'bad' && m.label.startsWith('Damage card: '))).toBe(true);
    expect(pieceOf(sc, 'us-t2')!.markers).toContainEqual({ label: 'Dig In', tone: 'good' });
  });

  it("draws this turn's attacks with how far each got, the fired ones as the last move", () => {
    const sc = sceneOf(combat(), US);
    expect(sc.links).toEqual([
      { from: { piece: 'us-t1' }, to: { piece: 'de-t1' }, kind: 'attack', label: 't1-us-1: resolved', highlight: true },
      { from: { piece: 'de-t1' }, to: { piece: 'us-t1' }, kind: 'attack', label: 't1-de-1: pending' },
    ]);
    expect(pieceOf(sc, 'us-t1')!.highlight).toBe(true);
    expect(pieceOf(sc, 'us-t2')!.highlight).toBeUndefined();
    expect(sc.notes[0]).toEqual({ text: 'Attack t1-us-1: M4A1 Sherman (us-t1) → PzKpfw VI Tiger I (de-t1): resolved, 1 shot fired', highlight: true });
  });

  it("shows your hand and Command cards face up, and only counts for the other side's", () => {
    const mine = sceneOf(combat(), US);
    expect(area(mine, 'hand-us').lanes[0]!.pieces.map((p) => [p.label, p.faceDown ?? false])).toEqual([['Rifle Squad', false]]);
    const theirs = area(mine, 'hand-de').lanes;
    expect(theirs.map((l) => l.pieces.map((p) => [p.label, p.faceDown, p.count]))).toEqual([
      [['Unit cards', true, 1]],
      [['Command cards', true, 1]],
      [['Reserves deck', true, expect.any(Number)]],
    ]);
    const spectator = sceneOf(combat(), SPECTATOR);
    expect(spectator.title).toBe('Spearpoint 1943 · spectator');
    expect(area(spectator, 'hand-us').lanes[0]!.pieces[0]!.faceDown).toBe(true);
  });
});

describe('hidden information in pictures', () => {
  const CHECKPOINTS = checkpoints();

  it('a seat gets the same scene, SVG and PNG for games that differ only in what it must not know', async () => {
    let pngs = 0;
    for (const s of CHECKPOINTS) {
      for (const decks of [false, true]) {
        const { t, changed } = twin(s, decks);
        const where = `${s.phase}, changed ${changed.join('; ')}`;
        for (const viewer of [{ kind: 'seat', seat: PROBER } as const, SPECTATOR]) {
          const [a, b] = [sceneOf(s, viewer), sceneOf(t, viewer)];
          expect(canonicalJson(b), where).toBe(canonicalJson(a));
          expect(renderSvg(b), where).toBe(renderSvg(a));
        }
      }
      // The PNG of one twin per phase: rasterizing is the slow part.
      if (CHECKPOINTS.find((x) => x.phase === s.phase) === s) {
        const { t } = twin(s, true);
        expect(Buffer.from(await svgToPng(renderSvg(sceneOf(t, US)))).equals(Buffer.from(await svgToPng(renderSvg(sceneOf(s, US))))), s.phase).toBe(true);
        pngs++;
      }
    }
    // One per phase: muster, commitment, declaration, initiative (a tied roll, rules version 3), combat, draw.
    expect(pngs).toBe(6);
  }, 120_000);

  it("each seat's picture is well-formed SVG at every phase of a fuzzed game, and differs from the other seat's only in hands and orders", async () => {
    const game = new CheckedGame('e3'.repeat(32), 'scene-fuzz', { checkedEvents: 0, checkedViews: 0 }, false);
    game.start({ situation: 'tiger-hunt', maxTurns: 8 });
    const pick = seededRng({ seed: '71'.repeat(32), gameId: 'scene-pick', entropy: [], counter: 0 });
    const phases = new Set<string>();
    let checked = 0;
    for (let n = 0; n < 2000; n++) {
      const s = game.state!.game;
      phases.add(s.phase);
      const [us, de, spectator] = [sceneOf(s, US), sceneOf(s, DE), sceneOf(s, SPECTATOR)];
      if (n % 3 === 0 || game.state!.meta.status !== 'active') {
        for (const sc of [us, de]) expect(await svgProblem(renderSvg(sc)), `${s.phase} #${n}`).toBeUndefined();
        checked++;
      }
      // Public things are the same in every picture: battle areas, scores, attacks, losses and decks.
      for (const side of ['us', 'de']) {
        const lanes = canonicalJson(area(spectator, `battle-${side}`).lanes);
        expect(canonicalJson(area(us, `battle-${side}`).lanes)).toBe(lanes);
        expect(canonicalJson(area(de, `battle-${side}`).lanes)).toBe(lanes);
      }
      for (const sc of [us, de]) {
        expect(canonicalJson(sc.scores)).toBe(canonicalJson(spectator.scores));
        expect(canonicalJson(sc.links)).toBe(canonicalJson(spectator.links));
        expect(canonicalJson(sc.notes.filter((x) => !x.text.startsWith('Your order')))).toBe(canonicalJson(spectator.notes));
      }
      // The other side's hand is what a spectator sees of it: backs and counts.
      expect(canonicalJson(area(us, 'hand-de').lanes)).toBe(canonicalJson(area(spectator, 'hand-de').lanes));
      expect(canonicalJson(area(de, 'hand-us').lanes)).toBe(canonicalJson(area(spectator, 'hand-us').lanes));
      if (game.state!.meta.status !== 'active') break;
      const pending = spearpoint.pending(s);
      const seat = pending[pick.int(pending.length)]!.seat as 'us' | 'de';
      const legal = spearpoint.legalCommands(s, seat);
      game.play(seat, legal[pick.int(legal.length)]);
    }
    expect(game.state!.meta.status).toBe('ended');
    expect(phases).toEqual(new Set(['muster', 'commitment', 'declaration', 'combat', 'draw', 'over']));
    expect(checked).toBeGreaterThan(20);
  }, 120_000);
});
