import { inflateRawSync } from 'node:zlib';
import { canonicalJson } from '../../domain/kernel/canonical.js';
import type { GameSummary } from '../../domain/kernel/index.js';

/**
 * The append layout's items (functions/ports.ts): every command adds one immutable item,
 * HEAD#<its first event's seq>, holding its events and the game's head after them in one
 * compressed record (`ev`, store/event-batch.ts), written with PutItem on condition that the key
 * is new. Two commands decided on the same version write the same key, so exactly one lands: the
 * version in the sort key is the optimistic lock, and nothing is ever rewritten.
 *
 * The head's summary (`u` in the record) leaves out what the events already say (the last event's
 * seq, hash and time are the summary's version, hash and updatedAt, in the common case) and what
 * the item holds as attributes of its own (engine, status and wakeAt, which scans read); `w` holds
 * the values the summary had before this command where they differ (null: absent then), so a
 * stream consumer that reads only the new item has the summary before and after the append
 * (projections/stream-image.ts). Compressed with the events, the summary costs a third of its size
 * (it repeats the events' times and players): an ordinary item stays under DynamoDB's 1 KB write unit.
 */
export const HEAD_PREFIX = 'HEAD#';
export const headItemSk = (firstSeq: number): string => `${HEAD_PREFIX}${String(firstSeq).padStart(10, '0')}`;
export const HEAD_ITEMS_END = `${HEAD_PREFIX}9999999999`;
export const firstSeqOf = (sk: string): number => Number(sk.slice(HEAD_PREFIX.length));

/** Summary keys an item keeps as attributes of its own. */
const OWN = ['engine', 'status', 'wakeAt'] as const;

/** What an item's record says of its head: the events' two ends, the summary as stored (`u`) and what it was (`w`). */
export interface CommandEnds {
  readonly first: { readonly seq: number; readonly prevHash: string };
  readonly last: { readonly seq: number; readonly hash: string; readonly at: string };
  readonly u?: Readonly<Record<string, unknown>>;
  readonly w?: Readonly<Record<string, unknown>>;
}

/** The head of one item's record (store/event-batch.ts), without building its events. */
export function commandEnds(record: Uint8Array): CommandEnds {
  const r = JSON.parse(inflateRawSync(record).toString('utf8')) as {
    a: string;
    s: number;
    h: string;
    t?: string;
    e: readonly (readonly unknown[])[];
    u?: Record<string, unknown>;
    w?: Record<string, unknown>;
  };
  return {
    first: { seq: r.s, prevHash: r.h },
    // The last event's hash: the record's own (event-batch.ts), or in a record written before, the last event's.
    last: { seq: r.s + r.e.length - 1, hash: r.t ?? (r.e[r.e.length - 1]![4] as string), at: r.a },
    ...(r.u ? { u: r.u } : {}),
    ...(r.w ? { w: r.w } : {}),
  };
}

/**
 * An append no reader of the read models can tell from the one before (issue 16): the game runs,
 * its summary differs from the one before only in version, hash and time, some seat is asked to act
 * (an inbox entry's since-when is then no append's time) and no clock runs (a clock's time left is
 * counted from the append's time). Most moves within a turn are. Its item says so (`quiet`): the
 * projector and the scheduler are not invoked for it (infra STREAM_FILTER) and pass it by
 * (projections/stream.ts); the read models' projection leaves such an append as it was (tested).
 */
export function isQuiet(summary: GameSummary, before: GameSummary | undefined): boolean {
  if (!before || summary.status !== 'active' || summary.pending.length === 0) return false;
  if (summary.timeControl !== undefined || summary.timeLimitHours !== undefined) return false;
  const keys = new Set([...Object.keys(before), ...Object.keys(summary)]);
  for (const k of ['version', 'hash', 'updatedAt']) keys.delete(k);
  return [...keys].every((k) => same((before as unknown as Record<string, unknown>)[k], (summary as unknown as Record<string, unknown>)[k]));
}

/** The summary's values the command's events and the item's key already give. */
function derived(gameId: string, last: CommandEnds['last']): Partial<GameSummary> {
  return { gameId, version: last.seq, hash: last.hash, updatedAt: last.at };
}

/** Equal values, whatever order their keys come back in (DynamoDB keeps no map's order). */
const same = (a: unknown, b: unknown): boolean => a === b || canonicalJson(a) === canonicalJson(b);

/**
 * A new item's head: `attributes`, the item's own (engine, status, wakeAt, and `quiet` when
 * isQuiet), and `record`, what goes into its compressed record beside the events: the summary
 * without what is said elsewhere (`u`) and what changed (`w`).
 */
export function headOf(
  summary: GameSummary,
  last: CommandEnds['last'],
  before: GameSummary | undefined,
): { attributes: Record<string, unknown>; record: Record<string, unknown> } {
  const attributes = Object.fromEntries(OWN.filter((k) => summary[k] !== undefined).map((k) => [k, summary[k]]));
  const implied: Record<string, unknown> = { ...derived(summary.gameId, last), ...attributes };
  const compact = Object.fromEntries(Object.entries(summary).filter(([k, v]) => !(Object.hasOwn(implied, k) && same(implied[k], v))));
  const out: Record<string, unknown> = { u: compact };
  if (before) {
    const was: Record<string, unknown> = {};
    for (const k of new Set([...Object.keys(before), ...Object.keys(summary)])) {
      // The version and hash before are the first event's seq less one and its prevHash.
      if (k === 'version' || k === 'hash' || k === 'gameId') continue;
      const old = (before as unknown as Record<string, unknown>)[k];
      if (!same(old, (summary as unknown as Record<string, unknown>)[k])) was[k] = old ?? null;
    }
    out['w'] = was;
  }
  return { attributes: isQuiet(summary, before) ? { ...attributes, quiet: true } : attributes, record: out };
}

/** The summary an item states, whole (the inverse of headAttributes), from the item and its decoded events. */
export function summaryOfItem(gameId: string, item: Readonly<Record<string, unknown>>, { last, u }: CommandEnds): GameSummary {
  const own = Object.fromEntries(OWN.filter((k) => item[k] !== undefined).map((k) => [k, item[k]]));
  return { ...derived(gameId, last), ...own, ...u } as GameSummary;
}

/** The summary before the item's command, when the item says (every item but a game's first). */
export function summaryBefore(next: GameSummary, { first, w: was }: CommandEnds): GameSummary | undefined {
  if (!was) return undefined;
  const old: Record<string, unknown> = { ...next, version: first.seq - 1, hash: first.prevHash };
  for (const [k, v] of Object.entries(was)) {
    if (v === null) delete old[k];
    else old[k] = v;
  }
  return old as unknown as GameSummary;
}
