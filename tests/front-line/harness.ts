import { scriptedRng, seededRng, type Rng } from '../../domain/kernel/index.js';
import { frontLine } from '../../domain/front-line/engine.js';
import { optionsSchema, type Command, type Event, type State } from '../../domain/front-line/model.js';

/** Names Object.prototype answers to: they must never reach a plain-object lookup. */
export const HOSTILE = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'] as const;
const ID_FIELDS = ['unit', 'with', 'to', 'target', 'square', 'seat', 'kind', 'stack', 'die'] as const;

/** A fresh game's state for these options, every seat joined, setup run. */
export function fresh(options: unknown = {}): State {
  const o = optionsSchema().parse(options);
  return frontLine.initialState(o, frontLine.version);
}

/** Applies a command through decide and evolve, failing loudly when refused. */
export function play(s: State, seat: string, c: Command, rng: Rng = scriptedRng([])): { s: State; events: Event[] } {
  const r = frontLine.decide(s, c, seat, { rng, now: '2026-01-01T00:00:00.000Z' });
  if (!r.ok) throw new Error(`${seat} ${JSON.stringify(c)} refused: ${r.error.code} ${r.error.message}`);
  let next = s;
  const events: Event[] = [];
  for (const e of r.value) {
    next = frontLine.evolve(next, e.event);
    events.push(e.event);
  }
  return { s: next, events };
}

/** Every offered command again with a hostile id in each field it has: refused with a code, never thrown, never accepted. */
export function probeHostile(s: State, seat: string, legal: readonly Command[], pick: Rng): number {
  let probes = 0;
  for (const c of legal.slice(0, 6)) {
    for (const field of ID_FIELDS) {
      if (!(field in c)) continue;
      const hostile = { ...c, [field]: HOSTILE[pick.int(HOSTILE.length)] };
      const parsed = frontLine.commandSchema.safeParse(hostile);
      if (!parsed.success) continue;
      const r = frontLine.decide(s, parsed.data, seat, { rng: scriptedRng([1, 1, 1, 1]), now: '' });
      if (r.ok) throw new Error(`hostile ${JSON.stringify(hostile)} accepted`);
      if (!/^[a-z-]+\/[a-z-]+$/.test(r.error.code)) throw new Error(`hostile refused without a code: ${JSON.stringify(r.error)}`);
      probes++;
    }
  }
  // A hostile seat too.
  for (const h of HOSTILE) if (frontLine.legalCommands(s, h).length !== 0) throw new Error(`seat ${h} is offered commands`);
  return probes;
}

const boardOfSquare = (sq: string) => (sq.charCodeAt(0) - 65 < 10 ? 0 : 1);
const otherBoard = (s: State, unit: string, to: string) => boardOfSquare(s.units.find((u) => u.id === unit)!.sq!) !== boardOfSquare(to);

export interface Played {
  s: State;
  commands: number;
  types: Set<string>;
  probes: number;
  windows: number;
  /** Amphibious Moves that ended on the other battlefield (Allies). */
  crossed: number;
}

/**
 * Plays one random game to its end choosing only among legal commands: someone is always
 * pending until the outcome, every pending seat is offered something, every offered command is
 * accepted, no square ever holds two units, a state read back from JSON offers the same.
 */
export function randomGame(options: unknown, seed: string, maxCommands = 6000): Played {
  let s = fresh(options);
  const dice = seededRng({ seed, gameId: 'dice', entropy: [], counter: 0 });
  const pick = seededRng({ seed, gameId: 'pick', entropy: [], counter: 0 });
  const out: Played = { s, commands: 0, types: new Set(), probes: 0, windows: 0, crossed: 0 };
  for (;;) {
    if (frontLine.outcome(s)) break;
    const pending = frontLine.pending(s);
    if (pending.length === 0) throw new Error(`no one to act in phase ${s.phase}`);
    const p = pending[pick.int(pending.length)]!;
    if (p.window) out.windows++;
    const legal = frontLine.legalCommands(s, p.seat);
    if (legal.length === 0) throw new Error(`${p.seat} pending (${p.prompt}) but offered nothing`);
    if (out.commands % 7 === 0) out.probes += probeHostile(s, p.seat, legal, pick);
    // A snapshot (the state through JSON) must offer exactly the same commands.
    if (out.commands % 25 === 0 && JSON.stringify(frontLine.legalCommands(JSON.parse(JSON.stringify(s)) as State, p.seat)) !== JSON.stringify(legal))
      throw new Error('a state read back from JSON offers other commands');
    // Turns end now and then; set-up and answers are random.
    const endTurn = legal.find((c) => c.type === 'EndTurn');
    // In the Allies game, Send Support and sending a unit to the other battlefield are taken often enough to be exercised.
    const across = legal.filter((x) => x.type === 'SendSupport' || (x.type === 'AmphibiousMove' && otherBoard(s, x.unit, x.to)));
    const c =
      endTurn && pick.int(8) === 0 ? endTurn : across.length > 0 && pick.int(4) === 0 ? across[pick.int(across.length)]! : legal[pick.int(legal.length)]!;
    const step = play(s, p.seat, c, dice);
    s = step.s;
    out.types.add(c.type);
    for (const e of step.events) if (e.type === 'UnitMoved' && boardOfSquare(e.from) !== boardOfSquare(e.to)) out.crossed++;
    const squares = s.units.flatMap((u) => (u.sq ? [u.sq] : []));
    if (new Set(squares).size !== squares.length) throw new Error(`two units share a square after ${JSON.stringify(c)}`);
    if (++out.commands > maxCommands) throw new Error(`no end in ${maxCommands} commands`);
  }
  out.s = s;
  return out;
}
