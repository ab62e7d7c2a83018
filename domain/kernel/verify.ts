import { canonicalJson } from './canonical.js';
import type { AnyEngine, Emitted } from './engine.js';
import { envelopeHash, GENESIS_HASH, type EventEnvelope } from './envelope.js';
import { foldEvent, type GameCreated, type GameState } from './game.js';
import { seededRng, seedCommitment } from './random.js';

export interface VerifyReport {
  readonly ok: boolean;
  readonly problems: readonly string[];
  readonly events: number;
  readonly draws: number;
  readonly finalHash?: string;
  readonly outcome?: unknown;
  readonly finalState?: GameState;
}

/**
 * Audits a finished game's exported log: the hash chain, the seed against its commitment,
 * every random draw (by re-running setup and every accepted command against the revealed
 * seed and comparing the events they produce with the ones stored), and the final fold.
 */
export function verifyLog(events: readonly EventEnvelope[], engines: (id: string) => AnyEngine | undefined): VerifyReport {
  const problems: string[] = [];
  const fail = (p: string, extra: Partial<VerifyReport> = {}): VerifyReport => ({ ok: false, problems: [...problems, p], events: events.length, draws: 0, ...extra });
  const first = events[0];
  if (!first || first.type !== 'Game.Created') return fail('the log must start with Game.Created');
  const created = first.data as GameCreated;
  const engine = engines(created.engine);
  if (!engine) return fail(`unknown engine ${created.engine}`);

  let prev = GENESIS_HASH;
  for (const [i, e] of events.entries()) {
    if (e.seq !== i + 1) return fail(`event ${i + 1} has seq ${e.seq}`);
    if (e.gameId !== first.gameId) return fail(`event ${e.seq} belongs to game ${e.gameId}`);
    if (e.prevHash !== prev) return fail(`event ${e.seq}: prevHash does not match the hash of event ${e.seq - 1}`);
    const { hash, ...rest } = e;
    if (envelopeHash(rest) !== hash) return fail(`event ${e.seq}: content does not match its hash`);
    prev = hash;
  }

  const last = events[events.length - 1]!;
  if (last.type !== 'Game.Ended') return fail('the game has not ended: its seed is still secret, so its draws cannot be checked yet');
  const seed = (last.data as { seed: string }).seed;
  if (seedCommitment(seed) !== created.commitment) return fail('the revealed seed does not match the commitment made in the first event');

  let state: GameState | undefined;
  let draws = 0;
  // Events not yet accounted for by a replayed decision: engine events must all be.
  let expected: { type: string; data: unknown; visibility: unknown }[] = [];
  const compare = (e: EventEnvelope): string | undefined => {
    const want = expected.shift();
    if (!want) return `event ${e.seq} (${e.type}) was not produced by any command or setup`;
    const got = { type: e.type, data: e.data, visibility: e.visibility };
    if (canonicalJson(got) !== canonicalJson(want)) return `event ${e.seq} (${e.type}) differs from what the rules and dice produce: expected ${canonicalJson(want).slice(0, 300)}`;
    return undefined;
  };
  const asExpected = (ems: readonly Emitted<{ type: string }>[]) =>
    ems.map(({ event: { type, ...data }, visibility }) => ({ type, data, visibility }));

  try {
    for (const e of events) {
      if (!e.type.includes('.')) {
        const p = compare(e);
        if (p) return fail(p);
      } else if (expected.length > 0 && e.type !== 'Game.Ended') {
        return fail(`event ${e.seq}: expected ${expected[0]!.type} from the previous decision, found ${e.type}`);
      }
      const before = state;
      state = foldEvent(engine, state, e);
      if (e.type === 'Game.Started' || e.type === 'Game.CommandAccepted') {
        const d = e.data as { rngFrom: number; rngTo: number; command?: unknown };
        const meta = before!.meta;
        if (d.rngFrom !== meta.rngCounter) return fail(`event ${e.seq}: draws start at ${d.rngFrom}, expected ${meta.rngCounter}`);
        const rng = seededRng({ seed, gameId: meta.gameId, entropy: state.meta.seats.map((s) => s.entropy), counter: d.rngFrom });
        const ctx = { rng, now: e.at };
        const r = e.type === 'Game.Started' ? engine.setup(before!.game, ctx) : engine.decide(before!.game, d.command, e.actor!, ctx);
        if (!r.ok) return fail(`event ${e.seq}: replaying it is refused by the rules: ${r.error.message}`);
        if (rng.counter !== d.rngTo) return fail(`event ${e.seq}: replay used draws ${d.rngFrom}..${rng.counter}, log says ..${d.rngTo}`);
        draws += d.rngTo - d.rngFrom;
        expected = asExpected(r.value);
      }
    }
  } catch (x) {
    return fail(`replay failed: ${(x as Error).message}`);
  }
  if (expected.length > 0) return fail(`the log stops before ${expected[0]!.type}`);
  const engineOutcome = state && engine.outcome(state.game);
  const logged = (last.data as { outcome: unknown }).outcome;
  const resigned = events.some((e) => e.type === 'Game.Resigned');
  if (!resigned && canonicalJson(engineOutcome) !== canonicalJson(logged)) return fail('the recorded outcome is not what the final position gives');
  return { ok: true, problems, events: events.length, draws, finalHash: last.hash, outcome: logged, ...(state ? { finalState: state } : {}) };
}
