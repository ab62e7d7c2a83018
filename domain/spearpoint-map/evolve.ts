import { afterDraw, discarded, drawn, reshuffled, withOrder } from '../kernel/deck.js';
import { indexCatalog } from '../frontline-general/data/catalog.js';
import { damageEdge, recoveredEndurance } from '../frontline-general/rules.js';
import type { Event, MapUnit, SeatState, State } from './model.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const newUnit = (s: State, id: string, card: string, owner: MapUnit['owner'], at: string, crew: string | null, turn: number): MapUnit => {
  const c = indexCatalog(s.catalog).unit(card);
  return {
    id,
    card,
    owner,
    side: owner,
    at,
    crew,
    endurance: c.endurance.full,
    damageCard: null,
    shakenUntil: 0,
    accuracyLoss: 0,
    defenseLoss: 0,
    weaponsLost: [],
    immobilized: false,
    bombsUsed: [],
    turnsLeft: c.turnsOfFlight ?? null,
    path: null,
    enteredTurn: turn,
    movedTurn: 0,
    attached: [],
    convoy: false,
  };
};

/** Applies a Damage card's effect for the unit's type (001/003 Damage Cards; the core's card data). */
function applyDamageCard(s: State, u: Mutable<MapUnit>, card: string): void {
  u.damageCard = card;
  u.endurance = Math.min(u.endurance, indexCatalog(s.catalog).unit(u.card).endurance.half);
  const e = indexCatalog(s.catalog).damage(card).effects[damageEdge(indexCatalog(s.catalog).unit(u.card).type)];
  if (e.kind === 'shaken') u.shakenUntil = s.turn + e.turns - 1;
  else if (e.kind === 'accuracyLoss') u.accuracyLoss += e.amount;
  else if (e.kind === 'defenseLoss') u.defenseLoss += e.amount;
  else if (e.kind === 'immobilized') u.immobilized = true;
  else if (e.kind === 'weaponLost') u.weaponsLost = [...u.weaponsLost, e.weapon];
  else if (e.kind === 'fuelLeak') u.turnsLeft = Math.min(u.turnsLeft ?? 1, 1);
}

/** Folds one event. Pure: the state given is never changed. */
export function evolve(s0: State, e: Event): State {
  const s: Mutable<State> = { ...s0 };
  const units = (): Record<string, Mutable<MapUnit>> => {
    if (s.units === s0.units) s.units = Object.fromEntries(Object.entries(s0.units).map(([k, v]) => [k, { ...v }]));
    return s.units as Record<string, Mutable<MapUnit>>;
  };
  const seat = (side: 'us' | 'de'): Mutable<SeatState> => {
    if (s.seats === s0.seats) s.seats = { us: { ...s0.seats.us }, de: { ...s0.seats.de } };
    return s.seats[side] as Mutable<SeatState>;
  };
  const remove = (id: string) => {
    const all = units();
    delete all[id];
  };
  switch (e.type) {
    case 'ReservesShuffled':
      seat(e.seat)[e.deck] = e.order;
      break;
    case 'CommandDeckShuffled':
      s.commandDeck = withOrder(s.commandDeck, e.order);
      break;
    case 'DamageDeckShuffled':
      s.damageDeck = withOrder(s.damageDeck, e.order);
      break;
    case 'CommandCardsRemoved':
      s.commandDeck = drawn(s.commandDeck, e.cards);
      break;
    case 'HandDealt': {
      const st = seat(e.seat);
      st.hand = [...st.hand, ...e.units];
      st.reserves = st.reserves.filter((c) => !e.units.includes(c));
      st.commands = [...st.commands, ...e.commands];
      s.commandDeck = drawn(s.commandDeck, e.commands);
      break;
    }
    case 'HandCounted':
    case 'SetupRolled':
    case 'OpportunityFireOffered':
      if (e.type === 'OpportunityFireOffered') {
        s.opfire = { id: e.window, seat: e.seat, mover: e.mover, shooters: e.shooters };
        s.opfireSeq = s0.opfireSeq + 1;
      }
      break;
    case 'UnitPlaced': {
      const u = newUnit(s, e.unit, e.card, e.owner, e.at, e.crew, 0) as Mutable<MapUnit>;
      u.attached = e.attached;
      s.commandDeck = drawn(s.commandDeck, e.attached);
      if (e.damageCard) {
        s.damageDeck = drawn(s.damageDeck, [e.damageCard]);
        applyDamageCard(s, u, e.damageCard);
        u.shakenUntil = 0;
        if (indexCatalog(s.catalog).damage(e.damageCard).effects.vehicle.name === 'Crew Casualty') u.crew = null;
      }
      units()[e.unit] = u;
      break;
    }
    case 'TurnBegan':
      s.started = true;
      s.turn = e.turn;
      s.attacks = [];
      s.lastAttack = null;
      s.opfired = [];
      s.sabotaged = [];
      break;
    case 'InitiativeRolled':
      s.initiative = e.winner;
      if (s0.seats.us.initiativeBonus || s0.seats.de.initiativeBonus) for (const side of ['us', 'de'] as const) seat(side).initiativeBonus = 0;
      break;
    case 'WeatherRolled':
      s.weatherClear = e.clear;
      break;
    case 'PhaseBegan':
      s.phase = e.phase;
      s.active = e.active;
      if (e.step) s.declStep = e.step;
      if (e.phase === 'draw') for (const side of ['us', 'de'] as const) seat(side).drawn = false;
      if (e.phase === 'movement') s.opfired = [];
      break;
    case 'CommandCardDiscarded': {
      const st = seat(e.seat);
      st.commands = st.commands.filter((c) => c !== e.card);
      s.commandDeck = discarded(s.commandDeck, [e.card]);
      break;
    }
    case 'UnitMoved': {
      const u = units()[e.unit]!;
      u.at = e.path[e.path.length - 1]!;
      u.movedTurn = s.turn;
      // 003 Commitment 8: a defensive Command card is cleared when its unit moves.
      const idx = indexCatalog(s.catalog);
      u.attached = u.attached.filter((c) => idx.command(c).effect.kind !== 'defense');
      break;
    }
    case 'ExitRolled':
      if (!e.passed) units()[e.unit]!.movedTurn = s.turn;
      break;
    case 'TileRemoved': {
      const t = { ...s.tiles };
      delete t[e.space];
      s.tiles = t;
      break;
    }
    case 'TileDestroyed':
      s.tiles = { ...s.tiles, [e.space]: { ...s.tiles[e.space]!, intact: false } };
      break;
    case 'UnitExited': {
      const u = s0.units[e.unit]!;
      remove(e.unit);
      if (e.reason === 'convoy') s.convoy = { ...s.convoy, arrived: s.convoy.arrived + 1 };
      else seat(u.side).exited += 1;
      break;
    }
    case 'UnitCommitted': {
      const st = seat(e.seat);
      st.hand = st.hand.filter((c) => c !== e.unit && c !== e.crewCard);
      units()[e.unit] = newUnit(s, e.unit, e.card, e.seat, e.at === 'rear' ? 'rear' : e.at.includes('-') ? 'air' : e.at, e.crew, s.turn);
      if (e.at.includes('-')) units()[e.unit]!.path = e.at;
      break;
    }
    case 'ConvoyEntered':
      for (const c of e.units) {
        const u = newUnit(s, c, 'us-rifle-squad', 'us', e.at, null, s.turn) as Mutable<MapUnit>;
        u.card = 'convoy';
        u.convoy = true;
        u.endurance = 1;
        units()[c] = u;
      }
      s.convoy = { ...s.convoy, entered: s.convoy.entered + e.units.length, pool: s.convoy.pool.filter((c) => !e.units.includes(c)) };
      s.cards = { ...s.cards, ...Object.fromEntries(e.units.map((c) => [c, { card: 'convoy', owner: 'us' as const }])) };
      break;
    case 'AircraftArrived': {
      const u = newUnit(s, e.unit, e.card, e.owner, 'air', e.crew, s.turn) as Mutable<MapUnit>;
      u.attached = e.attached;
      s.commandDeck = drawn(s.commandDeck, e.attached);
      units()[e.unit] = u;
      break;
    }
    case 'FlightPathDeclared':
      units()[e.unit]!.path = e.path;
      break;
    case 'AircraftReturned': {
      const u = s0.units[e.unit]!;
      remove(e.unit);
      const st = seat(u.owner);
      st.reserves = [...st.reserves, u.id, ...(u.crew ? [u.crew] : [])];
      s.commandDeck = discarded(s.commandDeck, u.attached);
      break;
    }
    case 'CrewBoarded': {
      const crewUnit = s0.units[e.crew]!;
      remove(e.crew);
      units()[e.unit]!.crew = crewUnit.id;
      break;
    }
    case 'OpportunityFirePassed':
      s.opfire = null;
      break;
    case 'OpportunityFireTaken':
      s.opfired = [...s0.opfired, `${e.shooter}>${e.mover}`];
      s.lastAttack = { from: e.shooter, to: e.mover };
      break;
    case 'AttackDeclared':
      s.attacks = [...s.attacks, e.attack];
      s.attackSeq = s0.attackSeq + 1;
      break;
    case 'AttackFired':
      s.lastAttack = { from: e.from, to: e.to };
      break;
    case 'AttackRolled':
      break;
    case 'HitResolved':
      if (Object.hasOwn(s.units, e.target)) units()[e.target]!.endurance = e.endurance;
      // A crew shot at inside its gun (003 Combat 4): its damage is kept for the turn.
      else if (Object.hasOwn(s.cards, e.target))
        s.crewWounds = { ...s.crewWounds, [e.target]: indexCatalog(s.catalog).unit(s.cards[e.target]!.card).endurance.full - e.endurance };
      break;
    case 'FeatureAttacked':
      break;
    case 'DamageCardDrawn': {
      s.damageDeck = drawn(s.damageDeck, [e.card]);
      const u = units()[e.unit]!;
      if (u.damageCard) s.damageDeck = discarded(s.damageDeck, [u.damageCard]);
      applyDamageCard(s, u, e.card);
      break;
    }
    case 'DamageDeckReshuffled':
      s.damageDeck = reshuffled(s.damageDeck, e.order);
      break;
    case 'CrewKilled':
      units()[e.unit]!.crew = null;
      if (e.by) seat(e.by).score += e.points ?? 0;
      break;
    case 'UnitDestroyed': {
      const u = s0.units[e.unit]!;
      remove(e.unit);
      if (u.damageCard) s.damageDeck = discarded(s.damageDeck, [u.damageCard]);
      s.commandDeck = discarded(s.commandDeck, u.attached);
      if (e.by) seat(e.by).score += e.points + e.crewPoints;
      if (u.crew && (e.crewFate === 'returned' || e.crewFate === 'damaged') && u.at !== 'rear' && u.at !== 'air') {
        const crew = newUnit(s, u.crew, s.cards[u.crew]!.card, u.side, u.at, null, s.turn) as Mutable<MapUnit>;
        crew.side = u.side;
        if (e.crewFate === 'damaged') crew.endurance = indexCatalog(s.catalog).unit(crew.card).endurance.half;
        units()[u.crew] = crew;
      }
      if (u.card === 'de-pantherturm-i' && Object.hasOwn(s.tiles, u.at)) s.tiles = { ...s.tiles, [u.at]: { ...s.tiles[u.at]!, intact: false } };
      break;
    }
    case 'BombDropped':
      units()[e.unit]!.bombsUsed = [...s0.units[e.unit]!.bombsUsed, e.weapon];
      break;
    case 'ConvoyDestroyed':
      remove(e.unit);
      s.convoy = { ...s.convoy, destroyed: s.convoy.destroyed + 1 };
      break;
    case 'AttackResolved':
    case 'AttackCancelled': {
      const id = e.attackId;
      s.attacks = s.attacks.map((a) => (a.id === id ? { ...a, status: e.type === 'AttackResolved' ? 'resolved' : 'cancelled' } : a));
      if (e.type === 'AttackResolved') {
        s.active = e.next;
        s.opfire = null;
      }
      break;
    }
    case 'CardDrawn': {
      const st = seat(e.seat);
      if (e.kind === 'command') {
        st.commands = [...st.commands, e.card];
        s.commandDeck = drawn(s.commandDeck, [e.card]);
      } else {
        st.hand = [...st.hand, e.card];
        if (st.reserves.includes(e.card)) st.reserves = st.reserves.filter((c) => c !== e.card);
        else st.support = st.support.filter((c) => c !== e.card);
      }
      break;
    }
    case 'DrawCounted':
      seat(e.seat).drawn = true;
      break;
    case 'CommandDeckReshuffled':
      s.commandDeck = afterDraw(s.commandDeck, { cards: [], reshuffle: e.order });
      break;
    case 'UnitDiscarded': {
      const st = seat(e.seat);
      st.hand = st.hand.filter((c) => c !== e.card);
      if (s.scenario.support) st.support = [...st.support, e.card];
      else st.reserves = [...st.reserves, e.card];
      break;
    }
    case 'UnitDiscardCounted':
      break;
    case 'CommandDiscarded': {
      const st = seat(e.seat);
      st.commands = st.commands.filter((c) => c !== e.card);
      s.commandDeck = discarded(s.commandDeck, [e.card]);
      break;
    }
    case 'CommandPlayed': {
      const st = seat(e.seat);
      st.commands = st.commands.filter((c) => c !== e.card);
      const u = units()[e.unit]!;
      u.attached = [...u.attached, e.card];
      break;
    }
    case 'CommandUsed':
    case 'UnitRepaired':
    case 'UnitSabotaged':
    case 'CaptureRolled':
    case 'UnitWithdrawn': {
      const st = seat(e.seat);
      st.commands = st.commands.filter((c) => c !== e.card);
      s.commandDeck = discarded(s.commandDeck, [e.card]);
      if (e.type === 'CommandUsed' && e.effect === 'initiative') st.initiativeBonus = e.amount;
      if (e.type === 'UnitSabotaged') s.sabotaged = [...s0.sabotaged, e.unit];
      if (e.type === 'UnitRepaired') {
        // Field Repairs: the Damage card and its effects go; Full Endurance.
        const u = units()[e.unit]!;
        if (u.damageCard) s.damageDeck = discarded(s.damageDeck, [u.damageCard]);
        Object.assign(u, { damageCard: null, shakenUntil: 0, accuracyLoss: 0, defenseLoss: 0, weaponsLost: [], immobilized: false });
        u.endurance = indexCatalog(s.catalog).unit(u.card).endurance.full;
      }
      if (e.type === 'UnitWithdrawn') {
        // Withdraw: the unit and its crew back to the hand; its Damage and Command cards leave it.
        const u = s0.units[e.unit]!;
        remove(e.unit);
        st.hand = [...st.hand, e.unit, ...(e.crew ? [e.crew] : [])];
        if (u.damageCard) s.damageDeck = discarded(s.damageDeck, [u.damageCard]);
        s.commandDeck = discarded(s.commandDeck, u.attached);
      }
      break;
    }
    case 'UnitCapturedKept': {
      // 003 Combat 12: the crew is captured and scored; the unit changes sides, crewless.
      const u = units()[e.unit]!;
      u.side = e.seat;
      u.crew = null;
      u.attached = [];
      s.commandDeck = discarded(s.commandDeck, s0.units[e.unit]!.attached);
      seat(e.seat).score += e.crewPoints;
      break;
    }
    case 'EntryPointChanged':
      s.usEntry = s0.usEntry.map((x) => (x === e.from ? e.to : x));
      s.entryChanged = true;
      break;
    case 'SmokeLaid': {
      const st = seat(e.seat);
      st.commands = st.commands.filter((c) => c !== e.card);
      s.commandDeck = discarded(s.commandDeck, [e.card]);
      s.smoke = { ...s.smoke, [e.space]: e.turns };
      break;
    }
    case 'TurnEnded': {
      // 003 Combat 10 and Ending the Turn: recovery, counters down, smoke lifts, one-turn cards leave.
      const idx = indexCatalog(s.catalog);
      for (const u of Object.values(units())) {
        const ended = u.attached.filter((c) => idx.command(c).duration === 'turn');
        if (ended.length) {
          u.attached = u.attached.filter((c) => !ended.includes(c));
          s.commandDeck = discarded(s.commandDeck, ended);
        }
        if (!u.convoy) u.endurance = recoveredEndurance(indexCatalog(s.catalog).unit(u.card), u.damageCard !== null);
        if (u.at === 'air') {
          u.turnsLeft = (u.turnsLeft ?? 1) - 1;
          u.path = null;
        }
      }
      s.smoke = Object.fromEntries(Object.entries(s.smoke).flatMap(([k, v]) => (v > 1 ? [[k, v - 1]] : [])));
      seat('us').overrun = e.overrun.us;
      seat('de').overrun = e.overrun.de;
      s.attacks = [];
      s.opfire = null;
      s.crewWounds = {};
      break;
    }
    case 'CommandPostExtended':
      s.cpDeadline = e.turn;
      break;
    case 'GameDecided':
      s.result = { winners: e.winners, reason: e.reason };
      s.phase = 'over';
      s.active = null;
      break;
    default: {
      const never: never = e;
      return never;
    }
  }
  return s;
}
