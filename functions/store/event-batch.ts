import { hash } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { envelopeHash, type EventEnvelope } from '../../domain/kernel/index.js';
import { toHex } from '../../domain/kernel/sha256.js';
import type { CommandRecord } from '../ports.js';

/**
 * How the tip and append layouts store events: one compressed record per command (its events
 * share the game, the command, the time and the player, and each event's prevHash is the hash
 * before it), so a command's events cost little more than their data. Only the last event's hash
 * is stored (`t`): every other hash is recomputed from the event when the record is read, and the
 * last one recomputed must equal `t`, so a damaged event is caught on every read. Storing each
 * event's hash took about 150 of a command item's 865 bytes and pushed many items past DynamoDB's
 * 1 KB write unit (issue 16: 1.60 write units a Spearpoint command, 1.39 without). Records
 * written before (no `t`) keep a hash per event, read as stored; the load checks that each item
 * follows the one before, and the verifier (and decodeCommand's caller, when asked) recomputes
 * every hash.
 */
type StoredEvent = readonly [string, unknown, EventEnvelope['visibility'], EventEnvelope['actor'], string?];
type StoredEventWithHash = readonly [string, unknown, EventEnvelope['visibility'], EventEnvelope['actor'], string, string?];
interface StoredCommand {
  /** commandId, at, player, first seq, prevHash of the first event */
  readonly c: string;
  readonly a: string;
  readonly p: string | null;
  readonly s: number;
  readonly h: string;
  /** The last event's hash; absent in records written before, whose events carry each its own. */
  readonly t?: string;
  /** [type, data, visibility, actor, salt?] per event; in a record without `t`, [type, data, visibility, actor, hash, salt?] */
  readonly e: readonly (StoredEvent | StoredEventWithHash)[];
}

/**
 * One command's events (consecutive, all from that command) as one compressed record. `beside`:
 * more members compressed with them (the append layout's head, store/head-items.ts), which
 * decodeCommand passes over.
 */
export function encodeCommand(events: readonly EventEnvelope[], beside?: Readonly<Record<string, unknown>>): Uint8Array {
  const first = events[0]!;
  const stored: StoredCommand = {
    ...beside,
    c: first.commandId,
    a: first.at,
    p: first.player,
    s: first.seq,
    h: first.prevHash,
    t: events[events.length - 1]!.hash,
    e: events.map((ev) => (ev.salt !== undefined ? [ev.type, ev.data, ev.visibility, ev.actor, ev.salt] : [ev.type, ev.data, ev.visibility, ev.actor])),
  };
  return new Uint8Array(deflateRawSync(JSON.stringify(stored)));
}

/**
 * The events of one encoded command, in the envelope's field order, each with its hash (a damaged
 * record throws). With `check`, a record written with a hash per event has every one recomputed
 * and compared too; a record that stores the last hash only is always checked.
 */
export function decodeCommand(gameId: string, bytes: Uint8Array, check = false): EventEnvelope[] {
  const stored = JSON.parse(inflateRawSync(bytes).toString('utf8')) as StoredCommand;
  const hashPerEvent = stored.t === undefined;
  const out: EventEnvelope[] = [];
  let prevHash = stored.h;
  stored.e.forEach((event, i) => {
    const [type, data, visibility, actor] = event;
    const storedHash = hashPerEvent ? (event as StoredEventWithHash)[4] : undefined;
    const salt = hashPerEvent ? (event as StoredEventWithHash)[5] : (event as StoredEvent)[4];
    const partial = {
      gameId,
      seq: stored.s + i,
      type,
      data,
      visibility,
      actor,
      player: stored.p,
      commandId: stored.c,
      at: stored.a,
      ...(salt !== undefined ? { salt } : {}),
      prevHash,
    };
    if (check && storedHash !== undefined && envelopeHash(partial) !== storedHash)
      throw new Error(`game ${gameId}: stored event ${partial.seq} does not match its hash`);
    prevHash = storedHash ?? envelopeHash(partial);
    out.push({ ...partial, hash: prevHash });
  });
  // A record that stores the last hash only: the chain recomputed from its first prevHash must end there.
  if (!hashPerEvent && prevHash !== stored.t)
    throw new Error(`game ${gameId}: stored events ${stored.s} to ${stored.s + stored.e.length - 1} do not match their hash`);
  return out;
}

/**
 * A short, fixed-size key for a commandId (the first 5 bytes of its SHA-256, hex): the head
 * remembers the newest commands by key, so 50 of them take 500 bytes whatever the ids. A key
 * that matches is confirmed against the events themselves wherever the events are at hand.
 */
export const commandKey = (commandId: string): string => hash('sha256', commandId, 'hex').slice(0, 10);

/** Per command: key (5 bytes), first seq (uint24: 16 million events), event count less one (uint16). */
const ENTRY = 10;

/** The head's recent commands as one binary, newest first. */
export function encodeRecent(recent: Readonly<Record<string, CommandRecord>>): Uint8Array {
  const entries = Object.entries(recent);
  const buf = Buffer.alloc(entries.length * ENTRY);
  entries.forEach(([key, r], i) => {
    Buffer.from(key, 'hex').copy(buf, i * ENTRY, 0, 5);
    buf.writeUIntBE(r.from, i * ENTRY + 5, 3);
    buf.writeUInt16BE(Math.min(0xffff, r.to - r.from), i * ENTRY + 8);
  });
  return new Uint8Array(buf);
}

export function decodeRecent(bytes: Uint8Array | undefined): Record<string, CommandRecord> {
  const out: Record<string, CommandRecord> = {};
  if (!bytes) return out;
  for (let i = 0; i + ENTRY <= bytes.length; i += ENTRY) {
    const key = toHex(bytes.subarray(i, i + 5));
    const from = (bytes[i + 5]! << 16) | (bytes[i + 6]! << 8) | bytes[i + 7]!;
    out[key] = { from, to: from + ((bytes[i + 8]! << 8) | bytes[i + 9]!) };
  }
  return out;
}

/**
 * A stored recent list with one more command in front (its key and events), without unpacking
 * it: the list stays newest first, an older entry with the same key goes, and at most `limit` stay.
 */
export function prependRecent(bytes: Uint8Array, key: string, rec: CommandRecord, limit: number): Uint8Array {
  const first = encodeRecent({ [key]: rec });
  const out = new Uint8Array(bytes.length + ENTRY);
  out.set(first);
  let end = ENTRY;
  for (let i = 0; i + ENTRY <= bytes.length && end < limit * ENTRY; i += ENTRY) {
    if (bytes[i] === first[0] && bytes[i + 1] === first[1] && bytes[i + 2] === first[2] && bytes[i + 3] === first[3] && bytes[i + 4] === first[4]) continue;
    for (let j = 0; j < ENTRY; j++) out[end + j] = bytes[i + j]!;
    end += ENTRY;
  }
  return end === out.length ? out : out.slice(0, end);
}
