import { verifyLog, type AnyEngine, type EventEnvelope, type VerifyReport } from '../../domain/kernel/index.js';

/**
 * An exported log's audit, pure (no files, no node:*), so the terminal (audit.ts) and the web
 * client run the same checks: the verifier over the events, and the export's own claims.
 */

/** What the API's export object says about its events besides listing them. */
export interface ExportClaims {
  readonly gameId?: unknown;
  readonly version?: unknown;
  readonly finalHash?: unknown;
}

/** The export's stated game, version and final hash must be those of its events: a receipt is checked against them. */
function claimProblems(events: readonly EventEnvelope[], claims: ExportClaims): string[] {
  const last = events[events.length - 1];
  const problems: string[] = [];
  if ('gameId' in claims && claims.gameId !== events[0]?.gameId)
    problems.push(`the export names game ${String(claims.gameId)}, but its events belong to ${events[0]?.gameId ?? 'no game'}`);
  if ('version' in claims && claims.version !== (last?.seq ?? 0))
    problems.push(`the export states version ${String(claims.version)}, but its events end at ${last?.seq ?? 0}`);
  if ('finalHash' in claims && claims.finalHash !== (last?.hash ?? null))
    problems.push(`the export states final hash ${String(claims.finalHash)}, but its last event hashes to ${last?.hash ?? 'nothing'}`);
  return problems;
}

/** The verifier's report, failed also when the export's stated game, version or final hash are not its events'. */
export function auditEvents(events: readonly EventEnvelope[], claims: ExportClaims, engines: (id: string) => AnyEngine | undefined): VerifyReport {
  const verified = verifyLog(events, engines);
  const stated = claimProblems(events, claims);
  return stated.length ? { ...verified, ok: false, problems: [...stated, ...verified.problems] } : verified;
}

export function describeReport(file: string, r: VerifyReport): string {
  if (!r.ok) {
    const hint = r.problems.some((p) => p.startsWith('unknown engine'))
      ? ['  This verifier knows the engines in domain/registry.ts; for another one pass --engines <module.ts> (or FIELDPOST_ENGINES).']
      : [];
    return [`FAILED: ${file} does not verify.`, ...r.problems.map((p) => `  - ${p}`), ...hint].join('\n');
  }
  const o = r.outcome as { winners?: string[]; reason?: string } | undefined;
  return [
    `OK: ${file} verifies.`,
    `  ${r.events} events; the hash chain is intact from the first event to the last.`,
    `  The revealed seed matches the commitment published when the game was created.`,
    `  ${r.draws} random draws recomputed from the seed and the seats' entropy; every event re-derived by the rules.`,
    `  Final hash: ${r.finalHash}`,
    o ? `  Outcome: ${o.winners?.length ? `won by ${o.winners.join(', ')}` : 'no winner'}${o.reason ? ` (${o.reason})` : ''}` : '',
  ]
    .filter(Boolean)
    .join('\n');
}
