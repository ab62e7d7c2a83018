import { describe, expect, it } from 'vitest';
import { canSee, renderSvg, seededRng, type Viewer } from '../../domain/kernel/index.js';
import { actionFront, type Command, type State } from '../../domain/action-front/index.js';
import { forceProblem } from '../../domain/action-front/forces.js';
import { view } from '../../domain/action-front/view.js';
import { MemoryGame } from '../kernel/play.js';

/**
 * Hidden information: a side's secret choices (its builder force until both are revealed, its
 * registered hexes) and the deck's order never reach the other seat or a spectator, in views,
 * scenes or events. Checked as indistinguishability: whatever the secret, everything the other
 * seat is shown is the same; the owner's own view does differ (the check can see a difference).
 */
const BUILDER = { builder: { type: 'meeting-engagement' }, artilleryRegistration: false };
const AXIS: Viewer = { kind: 'seat', seat: 'axis' };
const ALLIES: Viewer = { kind: 'seat', seat: 'allies' };
const SPECTATOR: Viewer = { kind: 'spectator' };

function gameAfter(options: unknown, moves: [string, Command][]): MemoryGame {
  const g = new MemoryGame(actionFront, 'a1'.repeat(32), 'hidden');
  for (const r of [g.create(options), g.join('alice', 'allies'), g.join('bob', 'axis')]) if (!r.ok) throw new Error(JSON.stringify(r.error));
  for (const [player, c] of moves) {
    const r = g.play(player, c);
    if (!r.ok) throw new Error(JSON.stringify(r.error));
  }
  return g;
}

/** Everything a viewer is shown: the view, the picture (as SVG), and the data of every event it may read. */
function shown(g: MemoryGame, viewer: Viewer) {
  const s = g.state!.game as State;
  return {
    view: view(s, viewer),
    svg: renderSvg(actionFront.scene!(s, viewer)),
    events: g.events.filter((e) => canSee(e.visibility, viewer, false)).map((e) => [e.type, e.data]),
  };
}

describe('hidden information', () => {
  const forces = actionFront.legalCommands(gameAfter(BUILDER, []).state!.game as State, 'allies');
  it('the builder offers several forces to choose from in secret', () => expect(forces.length).toBeGreaterThan(1));

  it('a force chosen in secret is invisible to the other seat and to spectators until both are revealed', () => {
    const [a, b] = [gameAfter(BUILDER, [['alice', forces[0]!]]), gameAfter(BUILDER, [['alice', forces[1]!]])];
    for (const viewer of [AXIS, SPECTATOR]) expect(shown(a, viewer)).toEqual(shown(b, viewer));
    // Control: the chooser sees its own force, so the comparison would notice a leak.
    expect(shown(a, ALLIES)).not.toEqual(shown(b, ALLIES));
    expect(shown(a, AXIS).view.forces.allies).toEqual({ sealed: true });
  });

  it('property: whichever valid force a side seals (offered or its own pick), in either builder type, on one map or several, and whichever side chooses, the other seat and spectators are shown the same, and the other seat is offered the same commands', () => {
    const r = seededRng({ seed: 'c3'.repeat(32), gameId: 'forces', entropy: [], counter: 0 });
    let compared = 0;
    const builders = [
      { type: 'point-defense' },
      { type: 'meeting-engagement' },
      { type: 'point-defense', maps: ['guadalcanal-ridge', 'guadalcanal-ridge'] },
      { type: 'meeting-engagement', maps: ['normandy-bocage', 'river-crossing'], armies: { allies: 'us-army', axis: 'wehrmacht' } },
    ];
    for (const builder of builders)
      for (const [chooser, player, watcher] of [
        ['allies', 'alice', AXIS],
        ['axis', 'bob', ALLIES],
      ] as const) {
        const options = { builder };
        const s = gameAfter(options, []).state!.game as State;
        const offered = actionFront.legalCommands(s, chooser).flatMap((c) => (c.type === 'ChooseForce' ? [c.units] : []));
        // Forces of its own: random units of its army, kept while the points allow.
        const table = s.unitTypes.filter((t) => t.army === s.builder!.armies[chooser]);
        const own = [...Array(4)].map(() => {
          const force: string[] = [];
          for (let k = 0; k < 12; k++) {
            const id = table[r.int(table.length)]!.id;
            const p = forceProblem(s, chooser, [...force, id]);
            if (p === undefined || p === 'a force needs at least one troop unit') force.push(id);
          }
          return force;
        });
        const forces = [...offered, ...own.filter((f) => !forceProblem(s, chooser, f))];
        expect(forces.length).toBeGreaterThan(offered.length);
        const games = forces.map((units) => gameAfter(options, [[player, { type: 'ChooseForce', units }]]));
        const other = watcher.kind === 'seat' ? watcher.seat : 'allies';
        for (const g of games.slice(1)) {
          for (const viewer of [watcher, SPECTATOR]) expect(shown(g, viewer)).toEqual(shown(games[0]!, viewer));
          expect(actionFront.legalCommands(g.state!.game as State, other)).toEqual(actionFront.legalCommands(games[0]!.state!.game as State, other));
          compared++;
        }
      }
    expect(compared).toBeGreaterThan(24);
  });

  it('once both have chosen, both forces are revealed together', () => {
    const axisForce = actionFront.legalCommands(gameAfter(BUILDER, []).state!.game as State, 'axis')[0]!;
    const g = gameAfter(BUILDER, [
      ['alice', forces[0]!],
      ['bob', axisForce],
    ]);
    const seen = shown(g, AXIS);
    expect(seen.view.forces.allies?.units).toEqual((forces[0] as { units: string[] }).units);
    expect(seen.events.some(([type]) => type === 'ForcesRevealed')).toBe(true);
    expect(seen.view.savedBuilder).toMatchObject({ type: 'meeting-engagement', forces: { allies: (forces[0] as { units: string[] }).units } });
  });

  it('registered hexes are invisible to the other seat', () => {
    const options = { scenario: 'bocage', artilleryRegistration: true };
    const [a, b] = [
      gameAfter(options, [['alice', { type: 'RegisterHexes', hexes: [] }]]),
      gameAfter(options, [['alice', { type: 'RegisterHexes', hexes: ['0602', '0603'] }]]),
    ];
    for (const viewer of [AXIS, SPECTATOR]) expect(shown(a, viewer)).toEqual(shown(b, viewer));
    expect(shown(a, ALLIES)).not.toEqual(shown(b, ALLIES));
  });

  it('the deck order is never shown to a seat: no shuffle event, no order in the view', () => {
    const g = gameAfter({ scenario: 'edsons-ridge' }, []);
    for (const viewer of [AXIS, ALLIES, SPECTATOR]) {
      const seen = shown(g, viewer);
      expect(seen.events.some(([type]) => type === 'DeckShuffled')).toBe(false);
      expect(JSON.stringify(seen.view)).not.toContain('deckOrder');
    }
    expect(JSON.stringify(actionFront.view(g.state!.game as State, { kind: 'auditor' }))).toContain('deckOrder');
  });
});
