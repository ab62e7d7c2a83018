import { deckCounts } from '../kernel/deck.js';
import type { Viewer } from '../kernel/visibility.js';
import { indexCatalog } from '../frontline-general/data/catalog.js';
import type { Side, Weapon } from '../frontline-general/data/schema.js';
import { pending } from './legal.js';
import { atLeast, cardEntry, SEATS, type State, type UnitInPlay } from './model.js';
import { cardOf, damageEdge, effectiveDefense } from './rules.js';

/**
 * What one viewer may see. A seat sees its own hand, command cards and unsealed order; both
 * battle areas; counts of the other side's hand and of every deck; scores, phase and who must
 * act. A spectator sees only the public part. The auditor (after the end) sees the deck orders.
 */
/** A weapon as a card prints it, in one line: "75mm M3 Gun: inf 11, veh 10; DI 7". */
export function weaponLine(w: Weapon): string {
  const vals = (['infantry', 'vehicle', 'aircraft'] as const)
    .filter((k) => w.attack[k] !== undefined)
    .map((k) => `${k.slice(0, 3)} ${w.attack[k]}${k === 'vehicle' && w.bullets ? '*' : ''}`);
  return `${w.name}: ${vals.join(', ')}; DI ${w.damageIndex}${w.rateOfFire > 1 ? `; ${w.rateOfFire}X` : ''}${w.bullets ? '; bullets' : ''}${w.bombs ? '; bombs' : ''}`;
}

export function view(s: State, viewer: Viewer) {
  const idx = indexCatalog(s.catalog);
  const auditor = viewer.kind === 'auditor';
  const sees = (seat: Side) => auditor || (viewer.kind === 'seat' && viewer.seat === seat);
  const unitView = (u: UnitInPlay) => {
    const card = cardOf(s, u.id);
    const damage = u.damageCard ? idx.damage(u.damageCard) : null;
    return {
      id: u.id,
      card: card.id,
      title: card.title,
      type: card.type,
      cost: card.cost,
      line: u.line,
      crew: u.crew ? { id: u.crew, card: cardEntry(s, u.crew)!.card } : null,
      needsCrew: card.crew !== 'none' && u.crew === null,
      endurance: u.endurance,
      full: card.endurance.full,
      half: card.endurance.half,
      defense: effectiveDefense(s, u.id),
      damage: damage ? { card: damage.id, title: damage.title, effect: damage.effects[damageEdge(card.type)].name } : null,
      ...(u.turnsLeft !== null ? { turnsOfFlightLeft: u.turnsLeft, bombsUsed: u.bombsUsed } : {}),
      shaken: u.shakenUntil >= s.turn,
      immobilized: u.immobilized,
      weapons: card.weapons.map(weaponLine),
      weaponsLost: u.weaponsLost,
      commandCards: s.effects.filter((e) => e.unit === u.id).map((e) => ({ card: e.card, title: e.title })),
      capturedFrom: cardEntry(s, u.id)!.owner !== u.controller ? cardEntry(s, u.id)!.owner : undefined,
    };
  };
  const battle = (seat: Side) => {
    const mine = Object.values(s.inPlay)
      .filter((u) => u.controller === seat)
      .sort((a, b) => (a.id < b.id ? -1 : 1));
    return {
      front: mine.filter((u) => u.line === 'front').map(unitView),
      rear: mine.filter((u) => u.line === 'rear').map(unitView),
      air: mine.filter((u) => u.line === 'air').map(unitView),
    };
  };
  const seatView = (seat: Side) => {
    const x = s.seats[seat];
    const own = sees(seat);
    return {
      score: x.score,
      overrunTurns: x.overrun,
      handCount: x.hand.length,
      commandCount: x.commands.length,
      reservesCount: x.reserves.length,
      handReady: x.handReady,
      sealed: x.sealed,
      drawsTaken: x.drawsTaken,
      drawDone: x.drawDone,
      ...(own
        ? {
            hand: x.hand.map((id) => {
              const c = cardOf(s, id);
              return {
                id,
                card: c.id,
                title: c.title,
                type: c.type,
                cost: c.cost,
                crew: c.crew,
                line: c.line,
                defense: c.defense,
                endurance: c.endurance,
                weapons: c.weapons.map(weaponLine),
              };
            }),
            commands: x.commands.map((id) => ({ id, title: idx.command(id).title, text: idx.command(id).text })),
            order: x.order,
            // Versions 2 and 3 only; from version 4 a seat's standing orders are the kernel's (GET /v1/games/{id} standingOrders).
            ...(atLeast(s, 4) ? {} : { standingOrders: { friendlyFire: x.friendlyFire } }),
            heldBoosts: x.heldBoosts,
          }
        : {}),
      ...(auditor ? { reservesOrder: x.reserves } : {}),
    };
  };
  return {
    turn: s.turn,
    phase: s.phase,
    pending: pending(s),
    situation: { id: s.situation.id, title: s.situation.title, objectives: s.situation.objectives, winConditions: s.situation.winConditions },
    maxTurns: s.maxTurns,
    seats: Object.fromEntries(SEATS.map((seat) => [seat, seatView(seat)])),
    battleArea: Object.fromEntries(SEATS.map((seat) => [seat, battle(seat)])),
    initiative: s.initiative,
    // Tied Initiative rolls this turn (rules version 3: the re-roll waits for each side's +1 choice).
    initiativeTies: s.initiativeTies,
    chooser: s.chooser,
    attacks: s.attacks,
    friendlyFire: s.friendlyFire,
    sideEffects: s.effects.filter((e) => e.unit === null).map((e) => ({ seat: e.seat, card: e.card, title: e.title })),
    // What anyone may know of the decks: how many cards each pile holds, and the face-up discards.
    decks: { command: deckCounts(s.commandDeck), damage: deckCounts(s.damageDeck) },
    commandDeckCount: deckCounts(s.commandDeck).draw,
    commandDiscard: s.commandDeck.discard,
    damageDeckCount: deckCounts(s.damageDeck).draw,
    damageDiscard: s.damageDeck.discard,
    removed: s.removed,
    result: s.result,
    ...(auditor ? { commandDeckOrder: s.commandDeck.draw, damageDeckOrder: s.damageDeck.draw } : {}),
  };
}
