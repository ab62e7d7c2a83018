import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { GameState } from '../../domain/kernel/index.js';
import type { Snapshot } from '../ports.js';

/**
 * Snapshots without their constant bulk (issue 16: the catalog stored once per game). A snapshot
 * leaves out the game's options and the engine's staticState values (a Spearpoint card catalog is
 * 33 KB of a 38 KB state) when they are large: each goes once into its own immutable item,
 * PART#<content hash>, in the game's partition, where the load's Query finds it beside SNAP and
 * HEAD (still one read). A server parses each part once and hands the same object to every load
 * of every game that stores it, so a load no longer unzips and parses the catalog, and the
 * catalog's index (built per catalog object) is built once.
 */
export const PART = 'PART#';
/** Values smaller than this stay in the snapshot: an item of their own would save nothing. */
const MIN_PART_BYTES = 1024;
/** Parsed parts a server keeps (each a catalog or the like, shared by every game that has it). */
const CACHED_PARTS = 64;
/** Where a left-out value goes back: the options, or a key of the engine's state. */
const OPTIONS = 'meta.options';
const GAME = 'game.';

const hashOf = (json: string): string => createHash('sha256').update(json, 'utf8').digest('hex').slice(0, 32);

export interface EncodedSnapshot {
  readonly item: Record<string, unknown>;
  /** The PART items this snapshot needs that the partition does not have yet (as far as the caller knows). */
  readonly parts: Record<string, unknown>[];
  /** Every part hash the snapshot refers to. */
  readonly refs: ReadonlySet<string>;
}

export class SnapshotCodec {
  /** hash -> parsed value, oldest first. */
  private readonly values = new Map<string, unknown>();
  /** value -> its hash, or '' when it is too small to be a part; values seen by this server only. */
  private readonly hashes = new WeakMap<object, string>();

  /** The SNAP item of `s` and the PART items it needs beyond `stored` (hashes the partition is known to hold). */
  encode(pk: string, gameId: string, s: Snapshot, stored: ReadonlySet<string>): EncodedSnapshot {
    const where: Record<string, string> = {};
    const parts: Record<string, unknown>[] = [];
    const refs = new Set<string>();
    const partOf = (value: unknown): string | undefined => {
      if (typeof value !== 'object' || value === null) return undefined;
      let hash = this.hashes.get(value);
      let json: string | undefined;
      if (hash === undefined) {
        json = JSON.stringify(value);
        hash = json.length < MIN_PART_BYTES ? '' : hashOf(json);
        this.hashes.set(value, hash);
      }
      if (hash === '') return undefined;
      if (!stored.has(hash) && !refs.has(hash))
        parts.push({ pk, sk: `${PART}${hash}`, gameId, value: new Uint8Array(gzipSync(json ?? JSON.stringify(value))) });
      refs.add(hash);
      return hash;
    };
    let meta = s.state.meta;
    const options = partOf(meta.options);
    if (options) {
      where[OPTIONS] = options;
      meta = { ...meta, options: null };
    }
    let game = s.state.game;
    if (typeof game === 'object' && game !== null && !Array.isArray(game)) {
      let out = game as Record<string, unknown>;
      for (const key of s.staticKeys ?? []) {
        if (!Object.hasOwn(out, key)) continue;
        const hash = partOf(out[key]);
        if (!hash) continue;
        where[`${GAME}${key}`] = hash;
        // In place (null), so the state's keys keep their order when the value comes back.
        out = { ...out, [key]: null };
      }
      game = out;
    }
    const item = {
      pk,
      sk: 'SNAP',
      gameId,
      version: s.version,
      engineVersion: s.engineVersion,
      kernelVersion: s.kernelVersion,
      state: new Uint8Array(gzipSync(JSON.stringify({ ...s.state, meta, game }))),
      ...(refs.size ? { parts: where } : {}),
    };
    return { item, parts, refs };
  }

  /**
   * The snapshot of a SNAP item, its parts found in `parts` (hash -> stored bytes) or already
   * parsed by this server. Undefined when it cannot be read, or a part is missing (a read that
   * saw the snapshot but not the part written with it) or does not match its hash.
   */
  decode(item: Record<string, unknown>, parts: ReadonlyMap<string, Uint8Array>): Snapshot | undefined {
    try {
      const state = JSON.parse(gunzipSync(item['state'] as Uint8Array).toString('utf8')) as { meta: Record<string, unknown>; game: Record<string, unknown> };
      for (const [path, hash] of Object.entries((item['parts'] as Record<string, string> | undefined) ?? {})) {
        if (path !== OPTIONS && !path.startsWith(GAME)) return undefined;
        const [into, key] = path === OPTIONS ? [state.meta, 'options'] : [state.game, path.slice(GAME.length)];
        const value = this.value(hash, parts);
        if (value === undefined || !Object.hasOwn(into, key)) return undefined;
        into[key] = value;
      }
      const kernelVersion = item['kernelVersion'] as number | undefined;
      return {
        version: item['version'] as number,
        engineVersion: item['engineVersion'] as number,
        ...(kernelVersion !== undefined ? { kernelVersion } : {}),
        state: state as unknown as GameState,
      };
    } catch {
      return undefined;
    }
  }

  private value(hash: string, parts: ReadonlyMap<string, Uint8Array>): unknown {
    if (this.values.has(hash)) {
      const v = this.values.get(hash);
      this.values.delete(hash);
      this.values.set(hash, v);
      return v;
    }
    const bytes = parts.get(hash);
    if (!bytes) return undefined;
    const json = gunzipSync(bytes).toString('utf8');
    if (hashOf(json) !== hash) return undefined;
    const v = JSON.parse(json) as unknown;
    this.values.set(hash, v);
    if (this.values.size > CACHED_PARTS) this.values.delete(this.values.keys().next().value!);
    if (typeof v === 'object' && v !== null) this.hashes.set(v, hash);
    return v;
  }
}
