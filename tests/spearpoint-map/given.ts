import { scriptedRng } from '../../domain/kernel/index.js';
import { evolve } from '../../domain/spearpoint-map/evolve.js';
import type { Command, DeclarationStep, Event, Phase, State } from '../../domain/spearpoint-map/model.js';
import { engine } from './play.js';

export interface Piece {
  id: string;
  card: string;
  at: string;
  crew?: string;
}

/**
 * A position for a rule test: the scenario's rules with only these tiles and units, in the given
 * phase of turn 2 with the US to act (Initiative won by the US).
 */
export function given(opts: {
  scenario?: string;
  tiles?: { space: string; kind: string; intact?: boolean; arrows?: string[]; edges?: Record<string, string> }[];
  units: Piece[];
  phase?: Phase;
  /** The declaration step (003 Combat 2): 'ground' unless aircraft or artillery are to declare. */
  step?: DeclarationStep;
  turn?: number;
}): State {
  const o = engine.optionsSchema.parse({ scenario: opts.scenario ?? 'man-vs-beast', tiles: opts.tiles ?? [] });
  let s = engine.initialState(o, engine.version);
  const cards = { ...s.cards };
  for (const p of opts.units) {
    cards[p.id] = { card: p.card, owner: p.card.startsWith('us-') ? 'us' : 'de' };
    if (p.crew) cards[`${p.id}c`] = { card: p.crew, owner: p.card.startsWith('us-') ? 'us' : 'de' };
  }
  s = { ...s, cards };
  const events: Event[] = [
    ...opts.units.map((p): Event => ({
      type: 'UnitPlaced',
      unit: p.id,
      card: p.card,
      owner: cards[p.id]!.owner,
      crew: p.crew ? `${p.id}c` : null,
      at: p.at,
      attached: [],
      damageCard: null,
    })),
    { type: 'TurnBegan', turn: opts.turn ?? 2 },
    { type: 'InitiativeRolled', rolls: [{ us: 9, de: 1 }], winner: 'us' },
    {
      type: 'PhaseBegan',
      phase: opts.phase ?? 'declaration',
      active: 'us',
      ...((opts.phase ?? 'declaration') === 'declaration' ? { step: opts.step ?? 'ground' } : {}),
    },
  ];
  return events.reduce(evolve, s);
}

/** Decides a command with scripted dice; returns the events or throws the refusal. */
export function run(s: State, c: Command, seat = 'us', dice: number[] = []) {
  const r = engine.decide(s, c, seat, { rng: scriptedRng(dice), now: '' });
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return { events: r.value.map((e) => e.event), state: r.value.reduce((x, e) => evolve(x, e.event), s) };
}
export function refused(s: State, c: Command, seat = 'us'): string {
  const r = engine.decide(s, c, seat, { rng: scriptedRng([]), now: '' });
  if (r.ok) throw new Error(`${JSON.stringify(c)} was accepted`);
  return r.error.code;
}
