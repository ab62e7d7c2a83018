import { createRegistry, scriptedRng, seededRng, verifyLog, type Rng } from '../../domain/kernel/index.js';
import { actionFront, type Command, type State } from '../../domain/action-front/index.js';
import { isLeader, troopsIn, typeOf } from '../../domain/action-front/rules.js';
import { MemoryGame } from '../kernel/play.js';

/** Names Object.prototype answers to: a player's id must never reach them. */
export const HOSTILE_IDS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'] as const;

/** The fields of each command that name a unit, mission or hex. */
const ID_FIELDS: Record<Command['type'], string[]> = {
  RegisterHexes: ['hexes'],
  ChooseForce: ['units'],
  PlaceUnit: ['unit', 'hex'],
  EndPlacement: [],
  IndirectFire: ['unit', 'hex'],
  CallFireSupport: ['mission', 'hex'],
  CallAirStrike: ['mission', 'hex', 'entry'],
  EndIndirectFire: [],
  Move: ['unit', 'to', 'carry'],
  Exit: ['unit'],
  Fire: ['unit', 'target'],
  Rally: ['leader', 'unit'],
  DigIn: ['leader', 'unit'],
  EndActions: [],
};

/** Each sampled legal command again with a hostile id in each id field: refused with a namespaced code, never a throw. */
export function probeHostile(s: State, seat: string, legal: readonly Command[], r: Rng): number {
  let probes = 0;
  for (let k = 0; k < Math.min(12, legal.length); k++) {
    const c = legal[r.int(legal.length)]!;
    for (const field of ID_FIELDS[c.type]) {
      const bad = HOSTILE_IDS[r.int(HOSTILE_IDS.length)]!;
      const hostile = { ...c, [field]: field === 'hexes' || field === 'units' ? [bad] : bad };
      const parsed = actionFront.commandSchema.safeParse(hostile);
      if (!parsed.success) continue;
      let res: ReturnType<typeof actionFront.decide>;
      try {
        res = actionFront.decide(s, parsed.data, seat, { rng: scriptedRng([], (x) => [...x]), now: '' });
      } catch (e) {
        throw new Error(`hostile ${JSON.stringify(hostile)} threw: ${(e as Error).message}`, { cause: e });
      }
      if (res.ok) throw new Error(`hostile ${JSON.stringify(hostile)} was accepted`);
      if (!/^[a-z-]+\/[a-z-]+$/.test(res.error.code)) throw new Error(`refused without a code: ${JSON.stringify(res.error)}`);
      probes++;
    }
  }
  return probes;
}

/** Stacking never broken: one troop unit per side per hex, but a transport with what it carries. */
export function stackingProblems(s: State): string[] {
  const out: string[] = [];
  for (const hex of new Set(s.units.filter((u) => u.status === 'map').map((u) => u.hex!)))
    for (const seat of ['allies', 'axis'] as const) {
      const troops = troopsIn(s, hex, seat);
      const carried = troops.length === 2 && troops.some((u) => typeOf(s, u).transport) && troops.some((u) => ['leg', 'towed'].includes(typeOf(s, u).class));
      if (troops.length > 1 && !carried) out.push(`${hex}: ${troops.map((u) => u.id).join(', ')}`);
    }
  for (const u of s.units)
    if (u.status === 'map' && isLeader(s, u) && troopsIn(s, u.hex!, u.owner === 'allies' ? 'axis' : 'allies').length && !troopsIn(s, u.hex!, u.owner).length)
      out.push(`${u.id} alone with the enemy`);
  return out;
}

export interface Played {
  game: MemoryGame;
  commands: number;
  probes: number;
  types: Set<string>;
}

/**
 * A random legal game to the end through the kernel (create, join, play, fold): a pending seat
 * at random, one of its legal commands at random (an End… command now and then, so phases do
 * not drag), invariants after every command, hostile ids every few. The log must verify.
 */
export function playRandom(options: unknown, seed: string, gameId: string, probeEvery = 3): Played {
  const game = new MemoryGame(actionFront, seed.repeat(64 / seed.length), gameId);
  const must = <T>(r: { ok: true; value: T } | { ok: false; error: unknown }): T => {
    if (!r.ok) throw new Error(JSON.stringify(r.error));
    return r.value;
  };
  must(game.create(options));
  must(game.join('alice', 'allies'));
  must(game.join('bob', 'axis'));
  const r = seededRng({ seed: seed.repeat(64 / seed.length), gameId: `chooser-${gameId}`, entropy: [], counter: 0 });
  const out: Played = { game, commands: 0, probes: 0, types: new Set() };
  while (game.state!.meta.status !== 'ended') {
    const s = game.state!.game as State;
    const pending = actionFront.pending(s);
    if (!pending.length) throw new Error(`no one to act in phase ${s.phase}`);
    const seat = pending[r.int(pending.length)]!.seat;
    const legal = actionFront.legalCommands(s, seat);
    if (!legal.length) throw new Error(`${seat} is pending in ${s.phase} with no legal command`);
    if (out.commands % probeEvery === 0) out.probes += probeHostile(s, seat, legal, r);
    const ends = legal.filter((c) => c.type.startsWith('End'));
    const c = ends.length && r.int(5) === 0 ? ends[0]! : legal[r.int(legal.length)]!;
    const res = game.play(seat === 'allies' ? 'alice' : 'bob', c);
    if (!res.ok) throw new Error(`listed ${JSON.stringify(c)} refused: ${JSON.stringify(res.error)}`);
    out.types.add(c.type);
    const problems = stackingProblems(game.state!.game as State);
    if (problems.length) throw new Error(`after ${JSON.stringify(c)}: ${problems.join('; ')}`);
    if (++out.commands > 3000) throw new Error('the game did not end in 3000 commands');
  }
  const report = verifyLog(game.events, createRegistry([actionFront]).get);
  if (!report.ok) throw new Error(`verify: ${report.problems.slice(0, 3).join('; ')}`);
  return out;
}
