import { foldEvent, renderSvg, type EventEnvelope, type GameState, type Viewer } from '../../domain/kernel/index.js';
import { registry } from '../../domain/registry.js';
import { auditEvents, describeReport } from '../../functions/cli/audit-report.js';

/**
 * The auditor and the replay, in the browser: the same verifier code the terminal's `verify`
 * runs (domain/kernel/verify.ts), and the engines' own fold and scene for earlier positions.
 * Loaded only when a player asks for it: it carries every engine's rules.
 */

export interface ExportedLog {
  readonly gameId?: string;
  readonly version?: number;
  readonly finalHash?: string | null;
  readonly events: readonly EventEnvelope[];
}

export function auditExport(file: string, log: ExportedLog): { ok: boolean; text: string } {
  const report = auditEvents(log.events, log, (id) => registry.get(id));
  return { ok: report.ok, text: describeReport(file, report) };
}

/**
 * The positions of a game, one after each event: `at(k)` is the board (SVG) as `viewer` saw
 * it after the first k events (k from 1), folded by the engine from the log.
 */
export function replay(events: readonly EventEnvelope[], viewer: Viewer): { readonly length: number; at(k: number): string | undefined } {
  const first = events[0]?.data as { engine?: string } | undefined;
  const engine = first?.engine ? registry.get(first.engine) : undefined;
  if (!engine) throw new Error(`this page does not know the rules of ${first?.engine ?? 'this game'}`);
  const states: GameState[] = [];
  let state: GameState | undefined;
  for (const e of events) {
    state = foldEvent(engine, state, e);
    states.push(state);
  }
  return {
    length: states.length,
    at(k) {
      const s = states[k - 1];
      const scene = s && s.meta.status !== 'open' ? engine.scene?.(s.game, viewer) : undefined;
      return scene ? renderSvg(scene) : undefined;
    },
  };
}
