import { canonicalJson } from './canonical.js';
import { fromHex, hmacSha256, sha256Hex, toHex, utf8 } from './sha256.js';
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
  /**
   * A secret blinding value on every event that is not public, covered by the hash. Without
   * it, a seat that sees a command's public events (commandId, time, player) and the head
   * hash could hash each candidate card or order until one matched a hidden event's hash.
   * Derived from the game's secret seed, so it is revealed with everything else at the end.
   */
  readonly salt?: string;
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

/** The head of a stream with no events yet. */
export const GENESIS = { version: 0, hash: GENESIS_HASH } as const;

export function envelopeHash(e: Omit<EventEnvelope, 'hash'>): string {
  const { gameId, seq, type, data, visibility, actor, player, commandId, at, salt, prevHash } = e;
  // canonicalJson drops an undefined salt, so public events hash exactly as before salts existed.
  return sha256Hex(prevHash + canonicalJson({ gameId, seq, type, data, visibility, actor, player, commandId, at, salt }));
}

/** The blinding value of a non-public event: HMAC-SHA256(seed, "salt#gameId#seq"), hex ('#' never occurs in a game id, so it never equals a dice draw's input). */
export const blindingSalt = (seedHex: string, gameId: string, seq: number): string => toHex(hmacSha256(fromHex(seedHex), utf8(`salt#${gameId}#${seq}`)));

/** Numbers and chains new events after the stream head `{version, hash}`. */
export function chain(
  head: { readonly version: number; readonly hash: string },
  events: readonly NewEvent[],
  meta: { readonly gameId: string; readonly commandId: string; readonly at: string; readonly player: string | null; readonly seed?: string },
): EventEnvelope[] {
  const out: EventEnvelope[] = [];
  let prevHash = head.hash;
  let seq = head.version;
  for (const ev of events) {
    seq += 1;
    const salt = meta.seed !== undefined && ev.visibility.to !== 'all' ? { salt: blindingSalt(meta.seed, meta.gameId, seq) } : {};
    const partial = {
      gameId: meta.gameId,
      seq,
      type: ev.type,
      data: ev.data,
      visibility: ev.visibility,
      actor: ev.actor,
      player: meta.player,
      commandId: meta.commandId,
      at: meta.at,
      ...salt,
      prevHash,
    };
    const hash = envelopeHash(partial);
    out.push({ ...partial, hash });
    prevHash = hash;
  }
  return out;
}
