import { canonicalJson } from './canonical.js';
import { sha256Hex } from './sha256.js';
import type { Seat, Visibility } from './visibility.js';

/** The stored form of every event: numbered, attributed, hash-chained. */
export interface EventEnvelope {
  readonly gameId: string;
  /** 1-based position in the game's stream; the game's version is its last seq. */
  readonly seq: number;
  readonly type: string;
  readonly data: unknown;
  readonly visibility: Visibility;
  /** The seat that caused it, or null for the platform (creation, joins by non-seated players). */
  readonly actor: Seat | null;
  /** The player id that sent the request that produced it. */
  readonly player: string | null;
  readonly commandId: string;
  /** ISO-8601, from the clock port at decision time. */
  readonly at: string;
  readonly prevHash: string;
  readonly hash: string;
}

/** An event decided but not yet numbered or chained. */
export interface NewEvent {
  readonly type: string;
  readonly data: unknown;
  readonly visibility: Visibility;
  readonly actor: Seat | null;
}

export const GENESIS_HASH = '0'.repeat(64);

export function envelopeHash(e: Omit<EventEnvelope, 'hash'>): string {
  const { gameId, seq, type, data, visibility, actor, player, commandId, at, prevHash } = e;
  return sha256Hex(prevHash + canonicalJson({ gameId, seq, type, data, visibility, actor, player, commandId, at }));
}

/** Numbers and chains new events after the stream head `{version, hash}`. */
export function chain(
  head: { readonly version: number; readonly hash: string },
  events: readonly NewEvent[],
  meta: { readonly gameId: string; readonly commandId: string; readonly at: string; readonly player: string | null },
): EventEnvelope[] {
  const out: EventEnvelope[] = [];
  let prevHash = head.hash;
  let seq = head.version;
  for (const ev of events) {
    seq += 1;
    const partial = { gameId: meta.gameId, seq, type: ev.type, data: ev.data, visibility: ev.visibility, actor: ev.actor, player: meta.player, commandId: meta.commandId, at: meta.at, prevHash };
    const hash = envelopeHash(partial);
    out.push({ ...partial, hash });
    prevHash = hash;
  }
  return out;
}
