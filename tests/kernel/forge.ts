import { envelopeHash, type EventEnvelope } from '../../domain/kernel/index.js';

/** Rebuilds the chain from `from` on, as a forger with the events in hand would. */
export function rehash(log: readonly (Omit<EventEnvelope, 'hash'> & { hash?: string })[], from = 0): EventEnvelope[] {
  const out: EventEnvelope[] = log.slice(0, from).map((e) => e as EventEnvelope);
  let prev = from === 0 ? '0'.repeat(64) : out[from - 1]!.hash;
  for (let i = from; i < log.length; i++) {
    const { hash: _h, ...rest } = { ...log[i]!, seq: i + 1, prevHash: prev };
    const hash = envelopeHash(rest);
    out.push({ ...rest, hash });
    prev = hash;
  }
  return out;
}

/** The log with one event changed and the chain rebuilt after it. */
export const forgeOne = (log: readonly EventEnvelope[], index: number, change: Partial<EventEnvelope>): EventEnvelope[] =>
  rehash(
    log.map((e, i) => (i === index ? { ...e, ...change } : e)),
    index,
  );
