import type { Pending } from '../kernel/engine.js';
import type { Seat } from '../kernel/visibility.js';
import type { Side } from '../frontline-general/data/schema.js';
import { checkStep, orderUses } from './orders.js';
import { commandCardsLeft } from './draw.js';
import { friendlyFireWindow } from './friendly-fire.js';
import { smallAssaults } from './target-declaration.js';
import { pickable, picksWanted } from './muster.js';
import { atLeast, cardEntry, other, SEATS, type Command, type State } from './model.js';
import {
  cardOf,
  closeAssaultProblem,
  commandOf,
  DRAWS_PER_TURN,
  HAND_LIMIT_COMMANDS,
  HAND_LIMIT_UNITS,
  isGroundType,
  isMobileArtillery,
  legalWeapons,
  MIN_CLOSE_ASSAULT,
  shotsOf,
} from './rules.js';

/**
 * Every command a seat may send now: the single source of truth for UIs, bots and the fuzz
 * test. Where a choice is combinatorial it is split into order steps; for a crewed unit it
 * offers the first matching crew in hand (decide accepts any matching crew).
 */
export function legalCommands(s: State, seatId: Seat): Command[] {
  if (s.result || (seatId !== 'us' && seatId !== 'de')) return [];
  const seat: Side = seatId;
  const me = s.seats[seat];
  const out: Command[] = [];
  const valid = (c: Command) => checkStep(s, seat, c).ok;

  switch (s.phase) {
    case 'muster': {
      if (me.handReady) return [];
      const ids = [...new Set(pickable(s, seat).map((u) => cardEntry(s, u)!.card))];
      if (!atLeast(s, 3)) return [...ids.map((card): Command => ({ type: 'PickStartingUnit', card })), { type: 'AutoPickHand' }];
      // Version 3: picks are steps of a sealed order; SealOrder once the hand is full, AutoPickHand fills the rest.
      for (const card of ids) if (valid({ type: 'PickStartingUnit', card })) out.push({ type: 'PickStartingUnit', card });
      if (me.order.filter((x) => x.kind === 'pick').length >= picksWanted(s, seat)) out.push({ type: 'SealOrder' });
      out.push({ type: 'AutoPickHand' });
      if (me.order.length) out.push({ type: 'ClearOrder' });
      return out;
    }
    case 'initiative': {
      // Version 3, after a tied Initiative roll: seal, with a card discarded for +1 on the re-roll or without.
      if (me.sealed) return [];
      out.push({ type: 'SealOrder' });
      for (const card of me.commands) out.push({ type: 'SealOrder', initiativeBoost: card });
      return distinct(s, seat, out);
    }
    case 'commitment':
    case 'declaration': {
      if (me.sealed) return [];
      const used = orderUses(s, me.order);
      const mine = Object.values(s.inPlay).filter((u) => u.controller === seat);
      const enemies = Object.values(s.inPlay).filter((u) => u.controller === other(seat));
      if (s.phase === 'commitment') {
        const crews = me.hand.filter((h) => !used.has(h) && cardOf(s, h).type === 'crew');
        const firstCrew = (kind: string) => crews.find((c) => cardOf(s, c).crewKind === kind);
        for (const unit of me.hand) {
          if (used.has(unit)) continue;
          const card = cardOf(s, unit);
          if (card.type === 'crew') continue;
          const crew = card.crew === 'none' ? undefined : firstCrew(card.crew);
          if (card.crew !== 'none' && crew === undefined) continue;
          const lines: ('front' | 'rear' | undefined)[] = card.line === 'either' ? ['front', 'rear'] : [undefined];
          for (const line of lines) {
            const commit: Command = { type: 'CommitUnit', unit, ...(crew ? { crew } : {}), ...(line ? { line } : {}) };
            if (valid(commit)) out.push(commit);
          }
        }
        for (const u of mine) {
          const card = cardOf(s, u.id);
          if (card.crew !== 'none' && u.crew === null) {
            const crew = firstCrew(card.crew);
            const replace: Command | null = crew ? { type: 'ReplaceCrew', crew, unit: u.id } : null;
            if (replace && valid(replace)) out.push(replace);
          }
          const move: Command = { type: 'MoveLine', unit: u.id, line: u.line === 'front' ? 'rear' : 'front' };
          if (isMobileArtillery(card) && valid(move)) out.push(move);
          if (u.crew !== null && isGroundType(card.type)) {
            for (const to of mine) {
              const move: Command = { type: 'MoveCrew', from: u.id, to: to.id };
              if (to.id !== u.id && to.crew === null && valid(move)) out.push(move);
            }
          }
        }
      } else {
        for (const u of mine) {
          if (used.has(`attacker:${u.id}`)) continue;
          for (const t of enemies) {
            const ws = legalWeapons(s, u.id, t.id);
            for (let i = 0; i < ws.length; i++) {
              out.push({ type: 'DeclareAttack', attacker: u.id, target: t.id, weapons: [ws[i]!] });
              for (let j = i + 1; j < ws.length; j++) out.push({ type: 'DeclareAttack', attacker: u.id, target: t.id, weapons: [ws[i]!, ws[j]!] });
            }
          }
        }
        // Close assaults: offered only while enough infantry could still join the group to reach three.
        for (const t of enemies) {
          const able = mine.filter((u) => closeAssaultProblem(s, u.id, t.id) === null);
          const joined = me.order.filter((x) => x.kind === 'closeAssault' && x.target === t.id).length;
          const free = able.filter((u) => !used.has(`attacker:${u.id}`));
          if (joined + free.length < MIN_CLOSE_ASSAULT) continue;
          for (const u of free) out.push({ type: 'JoinCloseAssault', attacker: u.id, target: t.id });
        }
      }
      for (const card of me.commands) {
        if (used.has(card) || commandOf(s, card).phase !== s.phase) continue;
        const candidates: (string | undefined)[] = [undefined, ...Object.keys(s.inPlay), ...me.order.flatMap((x) => (x.kind === 'commit' ? [x.unit] : []))];
        for (const target of candidates) {
          const c: Command = { type: 'PlayCommandCard', card, ...(target ? { target } : {}) };
          if (!valid(c)) continue;
          out.push(c);
          if (commandOf(s, card).effect.kind !== 'capture') continue;
          // A capture may keep the unit, and may discard another card for +1 to its roll.
          out.push({ ...c, keep: true });
          for (const boostWith of me.commands) {
            if (boostWith === card || used.has(boostWith)) continue;
            for (const keep of [false, true]) {
              const boosted: Command = { ...c, ...(keep ? { keep } : {}), boostWith };
              if (valid(boosted)) out.push(boosted);
            }
          }
        }
      }
      // Order steps first, then sealing, then the commands that make no progress, so a
      // client that always takes the first offer still plays the game forward.
      if (smallAssaults(me.order).length === 0) {
        out.push({ type: 'SealOrder' });
        if (s.phase === 'declaration') for (const card of me.commands) if (!used.has(card)) out.push({ type: 'SealOrder', initiativeBoost: card });
      }
      if (me.order.length) out.push({ type: 'ClearOrder' });
      // Versions 2 and 3 only: from version 4 the kernel's standing orders answer the friendly-fire window.
      if (s.phase === 'commitment' && !atLeast(s, 4)) out.push({ type: 'SetStandingOrders', friendlyFire: me.friendlyFire === 'ask' ? 'highest-cost' : 'ask' });
      return distinct(s, seat, out);
    }
    case 'combat': {
      if (s.friendlyFire) {
        if (s.friendlyFire.chooser !== seat) return [];
        for (const unit of s.friendlyFire.candidates) {
          out.push({ type: 'ChooseFriendlyFireVictim', unit });
          // From version 3 the chooser may discard a card for +1 on the hit's Intensity.
          if (atLeast(s, 3)) for (const boostWith of me.commands) out.push({ type: 'ChooseFriendlyFireVictim', unit, boostWith });
        }
        return distinct(s, seat, out);
      }
      if (s.chooser !== seat) return [];
      for (const a of s.attacks) {
        if (a.seat !== seat || a.status !== 'pending') continue;
        out.push({ type: 'ResolveAttack', attackId: a.id });
        const shots = shotsOf(s, a).length;
        for (const card of me.commands) {
          out.push({ type: 'ResolveAttack', attackId: a.id, boostWith: card, boostRoll: 'hit' });
          out.push({ type: 'ResolveAttack', attackId: a.id, boostWith: card, boostRoll: 'intensity' });
          // Later rolls of a multi-shot attack (2X-4X, two weapons, Fire Mission!).
          for (let shot = 2; shot <= shots; shot++) {
            out.push({ type: 'ResolveAttack', attackId: a.id, boostWith: card, boostRoll: 'hit', boostShot: shot });
            out.push({ type: 'ResolveAttack', attackId: a.id, boostWith: card, boostRoll: 'intensity', boostShot: shot });
          }
        }
      }
      return distinct(s, seat, out);
    }
    case 'draw': {
      if (me.drawDone) return [];
      if (me.drawsTaken < DRAWS_PER_TURN) {
        const commandsLeft = commandCardsLeft(s) > 0;
        if (commandsLeft) out.push({ type: 'DrawCard', from: 'command' });
        if (me.reserves.length > 0 && (me.drawsTaken > 0 || !commandsLeft)) out.push({ type: 'DrawCard', from: 'reserves' });
        for (const from of drawSequences(s, seat)) out.push({ type: 'DrawCards', from });
        return out;
      }
      if (me.hand.length > HAND_LIMIT_UNITS) for (const card of me.hand) out.push({ type: 'DiscardUnit', card });
      if (me.commands.length > HAND_LIMIT_COMMANDS) for (const card of me.commands) out.push({ type: 'DiscardCommand', card });
      return distinct(s, seat, out);
    }
    case 'over':
      return [];
  }
}

/** Who must act now, and what is asked of them. */
export function pending(s: State): Pending[] {
  if (s.result) return [];
  switch (s.phase) {
    case 'muster':
      return SEATS.filter((x) => !s.seats[x].handReady).map((seat) => ({
        seat,
        kind: 'sealed',
        prompt: 'Pick your starting hand of 4 units from your Reserves deck',
      }));
    case 'commitment':
      return SEATS.filter((x) => !s.seats[x].sealed).map((seat) => ({
        seat,
        kind: 'sealed',
        prompt: `Turn ${s.turn}: give your commitment order (units, crews, command cards), then seal it`,
      }));
    case 'declaration':
      return SEATS.filter((x) => !s.seats[x].sealed).map((seat) => ({
        seat,
        kind: 'sealed',
        prompt: `Turn ${s.turn}: declare one target per attacking unit, then seal`,
      }));
    case 'initiative':
      return SEATS.filter((x) => !s.seats[x].sealed).map((seat) => ({
        seat,
        kind: 'sealed',
        prompt: `Turn ${s.turn}: Initiative is tied; seal, discarding a Command card for +1 on the re-roll if you wish`,
      }));
    case 'combat':
      if (s.friendlyFire) {
        const window = friendlyFireWindow(s);
        return [
          {
            seat: s.friendlyFire.chooser,
            kind: 'reaction',
            prompt: 'Friendly fire: choose which enemy unit its own attack hits',
            ...(window ? { window } : {}),
          },
        ];
      }
      return s.chooser ? [{ seat: s.chooser, kind: 'move', prompt: 'Choose one of your declared attacks to resolve' }] : [];
    case 'draw':
      return SEATS.filter((x) => !s.seats[x].drawDone).map((seat) => ({
        seat,
        kind: 'move',
        prompt: 'Draw one Command card, then any two cards; discard down to 7 units and 5 commands',
      }));
    case 'over':
      return [];
  }
}

/**
 * Every way to take all the draws left this turn in one DrawCards move, judged from public
 * counts the way the draws themselves are (001 Draw Phase: a Command card first while any is
 * left). Only when two or more draws are left; one is a plain DrawCard. The two decks are
 * apart, so only how many cards come from each matters: one order per split, Command cards first.
 */
function drawSequences(s: State, seat: Side): ('command' | 'reserves')[][] {
  const me = s.seats[seat];
  const left = DRAWS_PER_TURN - me.drawsTaken;
  const out: ('command' | 'reserves')[][] = [];
  if (left < 2) return out;
  const walk = (seq: ('command' | 'reserves')[], commands: number, reserves: number, taken: number): void => {
    if (seq.length === left)
      return void (seq.indexOf('reserves') === -1 || !seq.slice(seq.indexOf('reserves')).includes('command') ? out.push(seq) : undefined);
    if (commands > 0) walk([...seq, 'command'], commands - 1, reserves, taken + 1);
    if (reserves > 0 && (taken > 0 || commands === 0)) walk([...seq, 'reserves'], commands, reserves - 1, taken + 1);
  };
  walk([], commandCardsLeft(s), me.reserves.length, me.drawsTaken);
  return out;
}

/**
 * Drops commands that mean the same as one listed before: identical copies of a card in the
 * seat's own hand (two Rifle Squads, two Hull Down cards) are interchangeable, so a choice is
 * listed once, with the first copy. What the other side may see is never the key: only the
 * seat's own hand and command cards are read.
 */
function distinct(s: State, seat: Side, commands: readonly Command[]): Command[] {
  const me = s.seats[seat];
  const seen = new Set<string>();
  const key = (x: unknown): unknown => {
    if (typeof x === 'string') {
      if (me.hand.includes(x)) return `unit:${cardEntry(s, x)!.card}`;
      if (me.commands.includes(x)) return `command:${commandOf(s, x).title}`;
      return x;
    }
    if (Array.isArray(x)) return x.map(key);
    if (x && typeof x === 'object') return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, key(v)]));
    return x;
  };
  return commands.filter((c) => {
    const k = JSON.stringify(key(c));
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
