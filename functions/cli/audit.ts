import { readFileSync } from 'node:fs';
import type { EngineRegistry, EventEnvelope } from '../../domain/kernel/index.js';
import { registry } from '../../domain/registry.js';
import { loadEngineModules, withEngines } from '../local/engine-modules.js';
import { auditEvents, describeReport, type ExportClaims } from './audit-report.js';

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

/** domain/registry.ts plus engines from --engines modules or FIELDPOST_ENGINES (comma-separated). */
export async function auditEngines(extraModules: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<EngineRegistry> {
  const fromEnv = (env['FIELDPOST_ENGINES'] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return withEngines(registry, await loadEngineModules([...extraModules, ...fromEnv]));
}

export async function auditFile(file: string, extraModules: readonly string[] = []): Promise<{ ok: boolean; text: string }> {
  const engines = await auditEngines(extraModules);
  const { events, claims } = readExportFile(file);
  const report = auditEvents(events, claims, (id) => engines.get(id));
  return { ok: report.ok, text: describeReport(file, report) };
}
