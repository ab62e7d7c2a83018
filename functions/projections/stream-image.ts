import * as z from 'zod';
import { REMINDER_LEVELS, type GameSummary } from '../../domain/kernel/index.js';
import { commandEnds, HEAD_PREFIX, summaryBefore, summaryOfItem } from '../store/head-items.js';

/**
 * DynamoDB stream records as both Lambda (aws-lambda's DynamoDBRecord) and the local
 * poller (@aws-sdk/client-dynamodb-streams' _Record) deliver them: images in the wire
 * AttributeValue form ({S: ...}, {N: ...}, {M: ...}). Typed loosely so either fits.
 */

export interface StreamRecordLike {
  readonly eventID?: string | undefined;
  readonly eventName?: string | undefined;
  readonly dynamodb?:
    | {
        readonly Keys?: Readonly<Record<string, unknown>> | undefined;
        readonly NewImage?: Readonly<Record<string, unknown>> | undefined;
        readonly OldImage?: Readonly<Record<string, unknown>> | undefined;
        readonly SequenceNumber?: string | undefined;
      }
    | undefined;
}

/** One wire AttributeValue to plain JS: numbers as numbers, sets as arrays, binary as base64. */
export function fromWire(v: unknown): unknown {
  if (v === null || typeof v !== 'object') throw new Error(`not an AttributeValue: ${JSON.stringify(v)}`);
  const a = v as Record<string, unknown>;
  if ('S' in a) return a['S'];
  if ('N' in a) return Number(a['N']);
  if ('BOOL' in a) return a['BOOL'];
  if ('NULL' in a) return null;
  if ('M' in a) return fromWireImage(a['M'] as Record<string, unknown>);
  if ('L' in a) return (a['L'] as unknown[]).map(fromWire);
  if ('SS' in a) return [...(a['SS'] as string[])];
  if ('NS' in a) return (a['NS'] as string[]).map(Number);
  if ('B' in a) return Buffer.from(a['B'] as Uint8Array | string).toString('base64');
  if ('BS' in a) return (a['BS'] as (Uint8Array | string)[]).map((b) => Buffer.from(b).toString('base64'));
  throw new Error(`unknown AttributeValue shape: ${Object.keys(a).join(',')}`);
}

export function fromWireImage(image: Readonly<Record<string, unknown>>): Record<string, unknown> {
  // fromEntries defines own keys: a map key such as "__proto__" stays a key, never a prototype.
  return Object.fromEntries(Object.entries(image).map(([k, v]) => [k, fromWire(v)]));
}

const seatSchema = z.object({ id: z.string(), name: z.string(), side: z.string().optional(), player: z.string().nullable(), joined: z.boolean() });
const pendingSchema = z.looseObject({ seat: z.string(), kind: z.enum(['move', 'sealed', 'reaction']), prompt: z.string(), player: z.string().nullable() });
const outcomeSchema = z.object({ winners: z.array(z.string()), reason: z.string(), score: z.record(z.string(), z.number()).optional() });

/** The kernel's GameSummary as stored on HEAD; a record that does not match is a bad record. */
export const gameSummarySchema = z.object({
  gameId: z.string().min(1),
  engine: z.string(),
  title: z.string(),
  status: z.enum(['open', 'active', 'ended']),
  version: z.number().int().min(1),
  hash: z.string(),
  createdBy: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  seats: z.array(seatSchema),
  timeLimitHours: z.number().optional(),
  windowShare: z.number().optional(),
  pending: z.array(pendingSchema),
  timeControl: z.looseObject({ kind: z.enum(['per-move', 'bank']), days: z.number() }).optional(),
  weekendsOff: z.literal(true).optional(),
  rated: z.literal(true).optional(),
  banks: z.array(z.object({ seat: z.string(), ms: z.number() })).optional(),
  wakeAt: z.string().optional(),
  reminders: z.array(z.object({ seat: z.string(), level: z.enum(REMINDER_LEVELS), seq: z.number().int(), deadline: z.string().optional() })).optional(),
  outcome: outcomeSchema.optional(),
});

/** What a HEAD stream record says: the summary before and after one append. */
export interface HeadChange {
  readonly gameId: string;
  readonly old: GameSummary | undefined;
  readonly next: GameSummary;
  /** The record's sequence number: the itemIdentifier for partial batch failures. */
  readonly sequence: string;
}

/** A game's HEAD (the tip and older layouts), or one of its HEAD# items (the append layout: a new one per command). */
export const isHeadRecord = (r: StreamRecordLike): boolean => {
  const keys = r.dynamodb?.Keys as Record<string, { S?: string }> | undefined;
  const sk = keys?.['sk']?.S ?? '';
  return (sk === 'HEAD' || sk.startsWith(HEAD_PREFIX)) && (keys?.['pk']?.S ?? '').startsWith('GAME#');
};

/** Reads a HEAD record; undefined for records that carry no new head (REMOVE). Throws on a malformed summary. */
export function headChange(r: StreamRecordLike): HeadChange | undefined {
  const img = r.dynamodb;
  if (!img?.NewImage) return undefined;
  const pk = (img.Keys as Record<string, { S?: string }> | undefined)?.['pk']?.S ?? '';
  if (((img.Keys as Record<string, { S?: string }> | undefined)?.['sk']?.S ?? '').startsWith(HEAD_PREFIX))
    return appendedHead(img.NewImage, pk, img.SequenceNumber ?? r.eventID ?? '');
  const next = parseSummary(summaryOf(fromWireImage(img.NewImage), pk));
  const oldRaw = img.OldImage ? summaryOf(fromWireImage(img.OldImage), pk) : undefined;
  const old = oldRaw === undefined ? undefined : parseSummary(oldRaw);
  return { gameId: next.gameId, old, next, sequence: img.SequenceNumber ?? r.eventID ?? '' };
}

/**
 * A HEAD# item's summaries before and after its command (store/head-items.ts): only the item's
 * head attributes are converted, and its command record is read for its two ends.
 */
function appendedHead(image: Readonly<Record<string, unknown>>, pk: string, sequence: string): HeadChange {
  const picked = Object.fromEntries(['engine', 'status', 'wakeAt'].filter((k) => image[k] !== undefined).map((k) => [k, image[k]]));
  const item = fromWireImage(picked);
  // Binary arrives as bytes (the SDK, the local poller) or base64 (a Lambda event).
  const b = (image['ev'] as { B?: Uint8Array | string } | undefined)?.B;
  if (b === undefined) throw new Error('HEAD# item without its command record');
  const ends = commandEnds(typeof b === 'string' ? Buffer.from(b, 'base64') : b);
  const next = parseSummary(summaryOfItem(pk.slice('GAME#'.length), item, ends));
  const old = summaryBefore(next, ends);
  return { gameId: next.gameId, old: old && parseSummary(old), next, sequence };
}

/**
 * A HEAD image's summary, whole: the tip layout stores it without what HEAD already holds (the id
 * in pk; version, hash, engine, status, updatedAt as HEAD's own attributes), older HEADs in full.
 */
function summaryOf(image: Record<string, unknown>, pk: string): unknown {
  const stored = image['summary'];
  if (stored === undefined || stored === null || typeof stored !== 'object') return stored;
  const top = Object.fromEntries(['version', 'hash', 'engine', 'status', 'updatedAt'].filter((k) => image[k] !== undefined).map((k) => [k, image[k]]));
  return { gameId: image['gameId'] ?? pk.slice('GAME#'.length), ...top, ...stored };
}

export function parseSummary(raw: unknown): GameSummary {
  const r = gameSummarySchema.safeParse(raw);
  if (!r.success)
    throw new Error(
      `HEAD summary is malformed: ${r.error.issues
        .slice(0, 3)
        .map((i) => `${i.path.join('.')}: ${i.message}`)
        .join('; ')}`,
    );
  return r.data as GameSummary;
}
