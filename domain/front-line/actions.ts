// Regular actions and Missions (002 p.2, p.4), paid from the chosen supply stack, and Send
// Support to an ally (002 p.E).
import type { Seat } from '../kernel/visibility.js';
import { citySquare, seatState, unitById } from './board.js';
import { BUILD_COST } from './data.js';
import { startAttack } from './attack.js';
import type { Flow } from './flow.js';
import { reserveUnit } from './legal.js';
import type { Command } from './model.js';
import { offerOpportunityFire } from './tasks.js';

/** An action paid with supply; `pay` is false for an ally's action already paid by Send Support. */
export function action(f: Flow, seat: Seat, c: Command, pay: boolean): void {
  const s = f.s;
  const st = seatState(s, seat)!;
  const spend = (n: number, unit: string | null) => f.emit({ type: 'SupplySpent', seat, n: pay ? n : 0, action: c.type, unit });
  switch (c.type) {
    case 'Move':
    case 'AmphibiousMove':
    case 'Paratroop': {
      spend(1, c.unit);
      const how = c.type === 'Move' ? 'move' : c.type === 'AmphibiousMove' ? 'amphibious' : 'paratroop';
      f.emit({ type: 'UnitMoved', unit: c.unit, from: unitById(s, c.unit)!.sq!, to: c.to, how });
      return offerOpportunityFire(f, c.unit, c.type);
    }
    case 'Regroup':
      spend(1, c.unit);
      f.emit({ type: 'UnitFlipped', unit: c.unit, active: true, why: 'Regroup' });
      return offerOpportunityFire(f, c.unit, 'Regroup');
    case 'Build': {
      const u = reserveUnit(s, st, c.kind)!;
      spend(BUILD_COST[c.kind], u.id);
      f.emit({ type: 'UnitBuilt', unit: u.id, square: citySquare(s, st.board, st.color, 'industry'), cost: BUILD_COST[c.kind] });
      return offerOpportunityFire(f, u.id, 'Build');
    }
    case 'Commission': {
      spend(1, null);
      f.emit({ type: 'LeadershipSet', seat, to: 'commissioned', task: 'Commission' });
      // Allies (002 p.2 "Ally too", RULINGS): a Commission also commissions the ally's Exhausted Leadership.
      for (const ally of f.s.seats)
        if (ally.color === st.color && ally.id !== seat && ally.leadership === 'exhausted')
          f.emit({ type: 'LeadershipSet', seat: ally.id, to: 'commissioned', task: 'Commission (ally)' });
      return;
    }
    case 'Attack':
      spend(1, c.unit);
      return startAttack(f, seat, c.unit, c.target, true);
    default:
      return;
  }
}

/** Send Support (002 p.E): one chit pays for an action the ally then takes. */
export function sendSupport(f: Flow, seat: Seat): void {
  const s = f.s;
  const st = seatState(s, seat)!;
  f.emit({ type: 'SupplySpent', seat, n: 1, action: 'SendSupport', unit: null });
  const ally = s.seats.find((x) => x.color === st.color && x.id !== seat)!;
  f.emit({ type: 'SupportSent', seat, to: ally.id });
  f.ask({ topic: 'send-support', seat: ally.id });
}
