import { discarded, drawn, reshuffled } from '../kernel/deck.js';
import { assertNever } from '../kernel/errors.js';
import { other, type Event, type State, type UnitState } from './model.js';

const withUnit = (s: State, id: string, f: (u: UnitState) => UnitState): State => ({ ...s, units: s.units.map((u) => (u.id === id ? f(u) : u)) });
const unit = (s: State, id: string): UnitState | undefined => s.units.find((u) => u.id === id);

/** Folds one event; never draws, never decides: everything it needs is in the event. */
export function evolve(s: State, e: Event): State {
  switch (e.type) {
    case 'DeckShuffled':
      return { ...s, deck: { draw: [...e.order], discard: [] } };
    case 'DeckReshuffled':
      return { ...s, deck: reshuffled(s.deck, e.order) };
    case 'CardsDrawn':
      return {
        ...s,
        deck: discarded(drawn(s.deck, e.cards), e.cards),
        lastCards: [...(e.fresh ? [] : s.lastCards), { purpose: e.purpose, cards: e.cards }],
      };
    case 'HexesRegistered':
      return { ...s, registered: { ...s.registered, [e.seat]: e.hexes } };
    case 'RegistrationDone':
      return { ...s, registrationDone: { ...s.registrationDone, [e.seat]: true } };
    case 'ForceChosen':
      return { ...s, chosenForces: { ...s.chosenForces, [e.seat]: e.units } };
    case 'ForceSelectionBegan':
      return { ...s, phase: 'forces' };
    case 'ForceSealed':
      // The public notice of a sealed force; the force itself came in the seat's own ForceChosen.
      return s;
    case 'ForcesRevealed': {
      const added: UnitState[] = [];
      for (const seat of ['allies', 'axis'] as const) {
        const base = s.units.filter((u) => u.owner === seat).length;
        e.forces[seat].forEach((type, i) =>
          added.push(newUnit(`${seat}-${String(base + i + 1).padStart(2, '0')}`, type, seat, 0, s.unitTypes.find((t) => t.id === type)!.steps)),
        );
      }
      return { ...s, chosenForces: e.forces, units: [...s.units, ...added] };
    }
    case 'PlacementBegan':
      return { ...s, phase: e.placement.kind === 'setup' ? 'setup' : 'reinforce', active: e.placement.seat, placement: e.placement };
    case 'UnitPlaced':
      return {
        ...withUnit(s, e.unit, (u) => ({ ...u, hex: e.hex, status: 'map', dugIn: e.dugIn })),
        placement: s.placement ? { ...s.placement, placed: s.placement.placed + 1 } : null,
      };
    case 'PlayerTurnBegan':
      return {
        ...s,
        phase: 'indirect',
        active: e.seat,
        turn: e.turn,
        placement: null,
        offMapUsed: false,
        airUsed: false,
        units: s.units.map((u) => (u.owner === e.seat ? { ...u, firedIndirect: false, actions: [], twoActions: false } : u)),
      };
    case 'ActionPhaseBegan': {
      const two = new Set(e.twoActions);
      return {
        ...s,
        phase: 'action',
        units: s.units.map((u) => (u.owner === e.seat ? { ...u, actions: [], twoActions: two.has(u.id), startHex: u.hex } : u)),
      };
    }
    case 'StrikeDeclared': {
      const { source } = e;
      let next: State = { ...s, markers: [...s.markers, { kind: source.kind === 'air' ? 'air' : 'artillery', hex: e.hex, owner: e.seat }] };
      if (source.unit !== undefined) next = withUnit(next, source.unit, (u) => ({ ...u, firedIndirect: true }));
      if (source.mission !== undefined)
        next = {
          ...next,
          missions: { ...next.missions, [e.seat]: next.missions[e.seat].map((m) => (m.id === source.mission ? { ...m, used: true } : m)) },
          ...(source.kind === 'air' ? { airUsed: true } : { offMapUsed: true }),
        };
      return next;
    }
    case 'MarkerDrifted': {
      const i = s.markers.length - 1;
      const markers = e.to === null ? s.markers.slice(0, i) : s.markers.map((m, k) => (k === i ? { ...m, hex: e.to! } : m));
      return { ...s, markers };
    }
    case 'StepLost': {
      const u = unit(s, e.unit)!;
      const steps = u.steps - 1;
      const lost = { ...s.stepsLost, [u.owner]: s.stepsLost[u.owner] + 1 };
      return { ...withUnit(s, e.unit, (x) => ({ ...x, steps, ...(steps === 0 ? { status: 'eliminated' as const, hex: null } : {}) })), stepsLost: lost };
    }
    case 'HitAbsorbed':
      // Dug In kept the step (the marker stays); the event is the record of the card.
      return s;
    case 'UnitSuppressed':
      return withUnit(s, e.unit, (u) => ({ ...u, suppressed: true }));
    case 'UnitEliminated': {
      const u = unit(s, e.unit)!;
      return {
        ...withUnit(s, e.unit, (x) => ({ ...x, steps: 0, status: 'eliminated', hex: null })),
        stepsLost: { ...s.stepsLost, [u.owner]: s.stepsLost[u.owner] + u.steps },
      };
    }
    case 'UnitMoved': {
      const to = e.path[e.path.length - 1]!;
      const moved = withUnit(s, e.unit, (u) => ({ ...u, hex: to, dugIn: false, actions: [...u.actions, 'move'] }));
      return e.carried === undefined ? moved : withUnit(moved, e.carried, (u) => ({ ...u, hex: to, dugIn: false, actions: [...u.actions, 'move'] }));
    }
    case 'UnitExited': {
      const u = unit(s, e.unit)!;
      return {
        ...withUnit(s, e.unit, (x) => ({ ...x, status: 'exited', hex: null, actions: [...x.actions, 'move'] })),
        exited: { ...s.exited, [u.owner]: s.exited[u.owner] + 1 },
      };
    }
    case 'FireDeclared':
      return withUnit(s, e.unit, (u) => ({ ...u, actions: [...u.actions, 'fire'] }));
    case 'RallyTried': {
      const led = withUnit(s, e.leader, (u) => ({ ...u, actions: [...u.actions, 'command'] }));
      return e.success ? withUnit(led, e.unit, (u) => ({ ...u, suppressed: false })) : led;
    }
    case 'DigInTried': {
      const led = withUnit(s, e.leader, (u) => ({ ...u, actions: [...u.actions, 'command'] }));
      return withUnit(led, e.unit, (u) => ({ ...u, actions: ['dig'], dugIn: u.dugIn || e.success }));
    }
    case 'AssaultResolved':
      // The loser's elimination follows as its own event.
      return s;
    case 'MarkerPhaseDone':
      return {
        ...s,
        units: s.units.map((u) => (u.owner === e.seat ? { ...u, suppressed: false } : u)),
        markers: s.markers.filter((m) => m.owner !== other(e.seat)),
      };
    case 'GameTurnEnded':
      return { ...s, lastCards: [] };
    case 'GameDecided':
      return { ...s, phase: 'over', result: { winners: e.winners, reason: e.reason } };
    default:
      return assertNever(e, 'event');
  }
}

export function newUnit(id: string, type: string, owner: UnitState['owner'], entry: number, steps: number): UnitState {
  return {
    id,
    type,
    owner,
    hex: null,
    status: 'waiting',
    entry,
    steps,
    suppressed: false,
    dugIn: false,
    actions: [],
    twoActions: false,
    startHex: null,
    firedIndirect: false,
  };
}
