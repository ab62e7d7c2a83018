import { describe, expect, it } from 'vitest';
import { seededRng, type Emitted } from '../../domain/kernel/index.js';
import type { Viewer, Visibility } from '../../domain/kernel/visibility.js';
import { SCENARIO_IDS } from '../../domain/spearpoint-map/data/scenarios.js';
import type { Event, State } from '../../domain/spearpoint-map/model.js';
import { engine } from './play.js';

/** Every string inside a value. */
function strings(x: unknown, into: Set<string> = new Set()): Set<string> {
  if (typeof x === 'string') into.add(x);
  else if (Array.isArray(x)) for (const v of x) strings(v, into);
  else if (x && typeof x === 'object') for (const v of Object.values(x)) strings(v, into);
  return into;
}
const sees = (v: Visibility, seat: string): boolean => v.to === 'all' || (v.to === 'seats' && v.seats.includes(seat));
/** Events that show a card as it leaves a hand (committed, discarded or played face up). */
const REVEALS = new Set([
  'UnitCommitted',
  'CommandCardDiscarded',
  'CommandDiscarded',
  'CommandPlayed',
  'SmokeLaid',
  'CommandUsed',
  'UnitWithdrawn',
  'UnitRepaired',
  'UnitSabotaged',
  'CaptureRolled',
]);
/** What `seat` may not know: the other side's hand and Command cards, every deck's cards. */
const secrets = (s: State, seat: 'us' | 'de'): Set<string> => {
  const o = seat === 'us' ? s.seats.de : s.seats.us;
  return new Set([
    ...o.hand,
    ...o.commands,
    ...o.reserves,
    ...o.support,
    ...s.commandDeck.draw,
    ...s.damageDeck.draw,
    ...(seat === 'us' ? s.seats.us : s.seats.de).reserves,
  ]);
};

const othersCards = (s: State, seat: 'us' | 'de'): Set<string> => {
  const o = seat === 'us' ? s.seats.de : s.seats.us;
  return new Set([...o.hand, ...o.commands, ...o.reserves, ...o.support]);
};

describe('spearpoint-1943-map hidden information: hands and decks never reach the other seat', () => {
  for (const scenario of SCENARIO_IDS) {
    it(`${scenario}: views, scenes and the events each seat receives show no card it may not know`, () => {
      let s = engine.initialState(engine.optionsSchema.parse({ scenario, maxTurns: 4 }), engine.version);
      const rng = seededRng({ seed: 'd4'.repeat(32), gameId: scenario, entropy: [], counter: 0 });
      // Units a Withdraw card took back to a hand were face up on the map: both sides know them.
      const faceUp = new Set<string>();
      const apply = (list: readonly Emitted<Event>[]) => {
        for (const { event, visibility } of list) {
          if (event.type === 'UnitWithdrawn') for (const x of [event.unit, event.crew]) if (x) faceUp.add(x);
          for (const seat of ['us', 'de'] as const) {
            if (!sees(visibility, seat)) continue;
            // A seat's own draws show it the cards it takes; the other side's cards stay hidden even then.
            const hidden = visibility.to === 'seats' ? othersCards(s, seat) : secrets(s, seat);
            const leaked = [...strings(event)].filter((x) => hidden.has(x));
            if (leaked.length && !(REVEALS.has(event.type) && 'seat' in event && event.seat !== seat))
              // Cards that turn face up in public: a Damage card drawn for a unit, Command cards placed with a scenario's units.
              if (!(event.type === 'DamageCardDrawn' || event.type === 'UnitPlaced' || event.type === 'AircraftArrived'))
                throw new Error(`${seat} saw ${leaked.join(',')} in ${event.type}`);
          }
          s = engine.evolve(s, event);
        }
      };
      const setup = engine.setup(s, { rng, now: '' });
      if (!setup.ok) throw new Error(setup.error.message);
      apply(setup.value);
      let checked = 0;
      for (let n = 0; n < 3000 && !s.result; n++) {
        for (const seat of ['us', 'de'] as const) {
          const viewer: Viewer = { kind: 'seat', seat };
          const hidden = secrets(s, seat);
          const inView = [...strings(engine.view(s, viewer)), ...strings(engine.scene!(s, viewer))].filter((x) => hidden.has(x) && !faceUp.has(x));
          expect(inView, `${seat} view`).toEqual([]);
          const spectator = [...strings(engine.view(s, { kind: 'spectator' }))].filter((x) => s.seats.us.hand.includes(x) || s.seats.de.commands.includes(x));
          expect(spectator).toEqual([]);
          checked++;
        }
        const seat = (['us', 'de'] as const).find((x) => engine.legalCommands(s, x).length > 0)!;
        const legal = engine.legalCommands(s, seat);
        const r = engine.decide(s, legal[rng.int(legal.length)]!, seat, { rng, now: '' });
        if (!r.ok) throw new Error(r.error.message);
        apply(r.value);
      }
      expect(s.result).not.toBeNull();
      expect(checked).toBeGreaterThan(20);
    }, 120_000);
  }
});
