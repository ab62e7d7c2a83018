import { REMINDER_LEVELS, type GameSummary } from '../../domain/kernel/index.js';
import { array, boolean, literal, looseObject, number, object, oneOf, record, string } from '../guards.js';
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

const seatSchema = object({ id: string(), name: string(), side: string().optional(), player: string().nullable(), joined: boolean() });
const pendingSchema = looseObject({ seat: string(), kind: oneOf(['move', 'sealed', 'reaction']), prompt: string(), player: string().nullable() });
const outcomeSchema = object({ winners: array(string()), reason: string(), score: record(number()).optional() });

/** The kernel's GameSummary as stored on HEAD; a record that does not match is a bad record. Checked without zod (functions/guards.ts). */
export const gameSummarySchema = object({
  gameId: string({ min: 1 }),
  engine: string(),
  title: string(),
  status: oneOf(['open', 'active', 'ended']),
  version: number({ int: true, min: 1 }),
  hash: string(),
  createdBy: string(),
  createdAt: string(),
  updatedAt: string(),
  seats: array(seatSchema),
  timeLimitHours: number().optional(),
  windowShare: number().optional(),
  pending: array(pendingSchema),
  timeControl: looseObject({ kind: oneOf(['per-move', 'bank']), days: number() }).optional(),
  weekendsOff: literal(true).optional(),
  rated: literal(true).optional(),
  banks: array(object({ seat: string(), ms: number() })).optional(),
  wakeAt: string().optional(),
  reminders: array(object({ seat: string(), level: oneOf(REMINDER_LEVELS), seq: number({ int: true }), deadline: string().optional() })).optional(),
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

/** A HEAD# item whose append changed nothing the read models show (store/head-items.ts isQuiet). */
export const isQuietRecord = (r: StreamRecordLike): boolean =>
  (r.dynamodb?.NewImage as Record<string, { BOOL?: boolean }> | undefined)?.['quiet']?.BOOL === true;

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
