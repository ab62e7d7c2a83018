import { readFileSync } from 'node:fs';
import { verifyLog, type EngineRegistry, type EventEnvelope, type VerifyReport } from '../../domain/kernel/index.js';
import { registry } from '../../domain/registry.js';
import { loadEngineModules, withEngines } from '../local/engine-modules.js';

/** What the API's export object says about its events besides listing them. */
interface ExportClaims {
  readonly gameId?: unknown;
  readonly version?: unknown;
  readonly finalHash?: unknown;
}

function readExportFile(file: string): { events: EventEnvelope[]; claims: ExportClaims } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`${file} is not a JSON file: ${(e as Error).message}`, { cause: e });
  }
  const events = Array.isArray(parsed) ? parsed : (parsed as { events?: unknown } | null)?.events;
  if (!Array.isArray(events)) throw new Error(`${file} holds no event list (expected an export from GET /v1/games/{id}/export)`);
  return { events: events as EventEnvelope[], claims: Array.isArray(parsed) ? {} : (parsed as ExportClaims) };
}

/** The export's stated game, version and final hash must be those of its events: a receipt is checked against them. */
export function claimProblems(events: readonly EventEnvelope[], claims: ExportClaims): string[] {
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

/** domain/registry.ts plus engines from --engines modules or FIELDPOST_ENGINES (comma-separated). */
export async function auditEngines(extraModules: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<EngineRegistry> {
  const fromEnv = (env['FIELDPOST_ENGINES'] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return withEngines(registry, await loadEngineModules([...extraModules, ...fromEnv]));
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

export async function auditFile(file: string, extraModules: readonly string[] = []): Promise<{ ok: boolean; text: string }> {
  const engines = await auditEngines(extraModules);
  const { events, claims } = readExportFile(file);
  const verified = verifyLog(events, (id) => engines.get(id));
  const stated = claimProblems(events, claims);
  const report: VerifyReport = stated.length ? { ...verified, ok: false, problems: [...stated, ...verified.problems] } : verified;
  return { ok: report.ok, text: describeReport(file, report) };
}
