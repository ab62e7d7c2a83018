import {
  chain,
  decideCancel,
  decideCreate,
  decideJoin,
  decidePlay,
  foldAll,
  seedCommitment,
  type AnyEngine,
  type EventEnvelope,
  type GameState,
  type NewEvent,
  type Result,
  type RuleViolation,
} from '../../domain/kernel/index.js';

/** An in-memory game log for kernel tests: decide, chain, fold, like the service does. */
export class MemoryGame {
  events: EventEnvelope[] = [];
  state: GameState | undefined;
  private n = 0;
  constructor(
    readonly engine: AnyEngine,
    readonly seed: string,
    readonly gameId = 'g1',
  ) {}

  /** Chains a decision's events onto the log, at `at` (default: a second after the last). */
  append(r: Result<NewEvent[], RuleViolation>, player: string | null, at?: string): Result<EventEnvelope[], RuleViolation> {
    if (!r.ok) return r;
    const head = this.state ? { version: this.state.meta.version, hash: this.state.meta.hash } : { version: 0, hash: '0'.repeat(64) };
    ++this.n;
    const env = chain(head, r.value, {
      gameId: this.gameId,
      commandId: `c${this.n}`,
      at: at ?? `2026-01-01T00:00:${String(this.n % 60).padStart(2, '0')}.000Z`,
      player,
    });
    this.events.push(...env);
    this.state = foldAll(this.engine, env, this.state);
    return { ok: true, value: env };
  }
  create(options: unknown, createdBy = 'alice') {
    return this.append(decideCreate(this.engine, { gameId: this.gameId, options, createdBy, commitment: seedCommitment(this.seed) }), createdBy);
  }
  join(player: string, seat?: string, entropy?: string) {
    return this.append(decideJoin(this.engine, this.state!, { player, ...(seat ? { seat } : {}), ...(entropy ? { entropy } : {}) }, this.seed), player);
  }
  cancel(player: string) {
    return this.append(decideCancel(this.state!, { player }, this.seed), player);
  }
  play(player: string, command: unknown, draft?: unknown[]) {
    return this.append(
      decidePlay(this.engine, this.state!, { player, command, now: '2026-01-01T00:00:00.000Z', ...(draft ? { draft } : {}) }, this.seed),
      player,
    );
  }
}
