// What the ids in a view stand for: a glossary found by shape (units, cards, attacks), and a
// command's ids explained with it.
import { isRecord, strs } from './text.js';

/** What a view says about one id: a title, and for a unit the weapon lines of its card. */
export interface Named {
  readonly title: string;
  readonly weapons?: readonly string[];
}

/** "75mm M3 Gun: inf 11, veh 10; DI 7" → "75mm M3 Gun". */
export const weaponName = (line: string) => line.split(':')[0]!.trim();

/**
 * Names for the ids a view mentions, found by shape so it works for any engine: objects with
 * an `id` (or a `card`) and a `title` (units, cards in hand, cards on units), and attacks
 * (`id`, `attackers`, `target`), named after their units. Legal commands name ids only; this
 * lets the client say "us-014 = M4A1 Sherman" next to them.
 */
export function glossary(view: unknown): Map<string, Named> {
  const names = new Map<string, Named>();
  const attacks: Record<string, unknown>[] = [];
  const walk = (x: unknown): void => {
    if (Array.isArray(x)) return x.forEach(walk);
    if (!isRecord(x)) return;
    const key = typeof x['id'] === 'string' ? x['id'] : typeof x['card'] === 'string' ? x['card'] : undefined;
    if (key !== undefined && typeof x['title'] === 'string' && !names.has(key)) {
      const weapons = strs(x['weapons']);
      names.set(key, { title: x['title'], ...(weapons ? { weapons } : {}) });
    }
    if (typeof x['id'] === 'string' && strs(x['attackers']) && typeof x['target'] === 'string') attacks.push(x);
    Object.values(x).forEach(walk);
  };
  walk(view);
  const unit = (id: string) => `${names.get(id)?.title ?? '?'} (${id})`;
  for (const a of attacks) {
    const by = strs(a['attackers'])!;
    const weapons = Array.isArray(a['weapons']) ? (a['weapons'] as unknown[]).filter((w): w is number => typeof w === 'number') : [];
    const lines = names.get(by[0] ?? '')?.weapons ?? [];
    const using = weapons.length && by.length === 1 ? ` with ${weapons.map((w) => (lines[w] ? weaponName(lines[w]) : `weapon ${w}`)).join(' + ')}` : '';
    const title = `${a['closeAssault'] === true ? 'close assault: ' : ''}${by.map(unit).join(' + ')} → ${unit(a['target'] as string)}${using}${a['status'] === 'pending' || a['status'] === undefined ? '' : ` [${String(a['status'])}]`}`;
    names.set(a['id'] as string, { title });
  }
  return names;
}

/** One line that names what a command's ids stand for, or '' when the view names none of them. */
export function explainCommand(command: unknown, names: ReadonlyMap<string, Named>): string {
  if (!isRecord(command)) return '';
  const parts: string[] = [];
  for (const [k, v] of Object.entries(command)) {
    if (k === 'type') continue;
    if (typeof v === 'string' && names.has(v)) parts.push(`${v} = ${names.get(v)!.title}`);
    if (k === 'weapons' && Array.isArray(v) && typeof command['attacker'] === 'string') {
      const lines = names.get(command['attacker'])?.weapons;
      if (lines) parts.push(`weapons: ${v.map((w) => (typeof w === 'number' && lines[w] ? weaponName(lines[w]) : String(w))).join(' + ')}`);
    }
  }
  return parts.join(' · ');
}
