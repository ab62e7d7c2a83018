// The legal commands as choices: grouped by kind and by the unit, card or attack they are about,
// numbered for \`play <n>\`, and the check that a number still means what the player saw.
import { canonicalJson } from '../../../domain/kernel/index.js';
import type { Listing } from '../config.js';
import { glossary, weaponName } from './names.js';
import { compact, isRecord } from './text.js';

/**
 * What each kind of command does, in a line (Spearpoint's, and the test fixtures'). A kind not
 * listed is named from its type ("DeclareAttack" → "Declare attack").
 */
const KIND_HELP: Readonly<Record<string, string>> = {
  PickStartingUnit: 'Pick a starting unit: one unit of this card from your deck into your starting hand',
  AutoPickHand: 'Let the server pick the rest of your starting hand (units that need no crew first)',
  CommitUnit: 'Commit a unit from your hand to the battle area (a step of your sealed order)',
  ReplaceCrew: 'Put a crew from your hand on a crewless unit in play (order step)',
  MoveCrew: 'Move a crew from one of your ground units to another (order step)',
  MoveLine: 'Move mobile artillery to the other line (order step)',
  PlayCommandCard: 'Play a Command card; its text is under your commands in show (order step)',
  DeclareAttack: 'Declare an attack: your unit fires at a target with one or two of its weapons (order step)',
  JoinCloseAssault: 'Join a close assault on an armored target; three or more infantry are needed (order step)',
  ClearOrder: 'Start your order over: drop every step of it',
  SealOrder: 'Seal your order (your draft goes with it); nobody sees it until every side has sealed',
  ResolveAttack: 'Resolve one of your declared attacks now',
  ChooseFriendlyFireVictim: "Friendly fire: choose which of the attacker's own units is hit",
  SetStandingOrders: 'Games created before rules version 4: leave a standing order for friendly fire (newer games use  npm run cli -- standing)',
  DrawCard: 'Draw one card',
  DrawCards: 'Take several draws in one move, in this order',
  DiscardUnit: 'Over the hand limit: put this unit under your Reserves deck',
  DiscardCommand: 'Over the hand limit: discard this Command card',
  Roll: 'Roll the die',
  PlayCard: 'Play your card',
};
const kindHelp = (type: string) => KIND_HELP[type] ?? type.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/ ([A-Z])/g, (_m, c: string) => ` ${c.toLowerCase()}`);

/** The fields that say whose command it is (the unit, card or attack it is about), most telling first. */
const SUBJECT_FIELDS = ['unit', 'attacker', 'attackId', 'card', 'from'];

/**
 * How each view object looks apart from its id: two units whose view is the same in everything
 * but the id (two fresh Rifle Squads in hand) are interchangeable, and so are the commands that
 * differ only by which of them they name.
 */
function lookalikes(view: unknown): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (x: unknown): void => {
    if (Array.isArray(x)) return x.forEach(walk);
    if (!isRecord(x)) return;
    if (typeof x['id'] === 'string' && typeof x['title'] === 'string' && !out.has(x['id'])) {
      const { id: _id, ...rest } = x;
      out.set(x['id'], canonicalJson(rest));
    }
    Object.values(x).forEach(walk);
  };
  walk(view);
  return out;
}

interface Entry {
  readonly n: number;
  readonly command: Record<string, unknown>;
  /** For each field naming an id: the ids of the same-looking commands hidden behind this one. */
  readonly alts: Map<string, Set<string>>;
}

/** One line of choices: what they share ("→ Tiger (de-001)"), then each choice with its number. */
export interface LegalRow {
  readonly lead: string;
  readonly options: readonly { readonly n: number; readonly text: string }[];
}
/** The choices about one unit, card or attack (header), or of a kind with no subject (header ''). */
export interface LegalGroup {
  readonly header: string;
  /** The subject is the whole choice: nothing more to pick ("3. Rifle Squad (us-002)"). */
  readonly subjectOnly: boolean;
  readonly rows: readonly LegalRow[];
}
/** Every legal command of one type, with a line saying what it does. */
export interface LegalKind {
  readonly type: string;
  readonly help: string;
  readonly groups: readonly LegalGroup[];
}

/**
 * The legal commands grouped by kind (a line saying what it does) and by the unit, card or
 * attack they are about, with their numbers (1-based places in the list). Commands that differ
 * only by naming identical-looking units are listed once ("us-001 or us-002: identical"). The
 * terminal prints it (formatLegal); the web client draws it as buttons.
 */
export function legalGroups(commands: readonly unknown[], view: unknown): LegalKind[] {
  const names = glossary(view);
  const looks = lookalikes(view);
  const equivalence = (c: unknown) => canonicalJson(c).replace(/"([^"\\]+)"/g, (m, id: string) => (looks.has(id) ? JSON.stringify(`≈${looks.get(id)!}`) : m));
  const kept = new Map<string, Entry>();
  const entries: Entry[] = [];
  commands.forEach((c, i) => {
    const command = isRecord(c) ? c : { type: String(c) };
    const key = equivalence(command);
    const same = kept.get(key);
    if (same) {
      for (const [k, v] of Object.entries(command)) {
        if (typeof v === 'string' && v !== same.command[k] && looks.has(v)) same.alts.set(k, (same.alts.get(k) ?? new Set()).add(v));
      }
      return;
    }
    const entry: Entry = { n: i + 1, command, alts: new Map() };
    kept.set(key, entry);
    entries.push(entry);
  });

  const name = (e: Entry, k: string): string => {
    const id = e.command[k] as string;
    const alts = [...(e.alts.get(k) ?? [])];
    const ids = alts.length ? `${id} or ${alts.join(', ')}: identical` : id;
    const title = names.get(id)?.title;
    return title ? `${title} (${ids})` : ids;
  };
  const weaponsOf = (e: Entry, v: unknown[]) => {
    const lines = typeof e.command['attacker'] === 'string' ? (names.get(e.command['attacker'])?.weapons ?? []) : [];
    return v.map((w) => (typeof w === 'number' && lines[w] ? weaponName(lines[w]) : `weapon ${String(w)}`)).join(' + ');
  };
  const phrase = (e: Entry, k: string): string => {
    const v = e.command[k];
    const id = typeof v === 'string' && (names.has(v) || e.alts.has(k)) ? name(e, k) : undefined;
    switch (k) {
      case 'target':
        return `→ ${id ?? String(v)}`;
      case 'weapons':
        return Array.isArray(v) ? `with ${weaponsOf(e, v)}` : `weapons ${JSON.stringify(v)}`;
      case 'crew':
        return `crewed by ${id ?? String(v)}`;
      case 'line':
        return `on the ${String(v)} line`;
      case 'initiativeBoost':
        return `discarding ${id ?? String(v)} for +1 Initiative`;
      case 'boostWith':
        return `discarding ${id ?? String(v)} for +1${typeof e.command['boostRoll'] === 'string' ? ` to the ${e.command['boostRoll']} roll` : ''}`;
      case 'boostRoll':
        return '';
      case 'from':
        return Array.isArray(v) ? v.join(', then ') : `from ${id ?? String(v)}`;
      case 'to':
        return `to ${id ?? String(v)}`;
      case 'keep':
        return v === true ? 'keeping the unit if captured' : '';
      case 'friendlyFire':
        return v === 'highest-cost' ? "always hit the attacker's most expensive unit" : `friendly fire: ${String(v)}`;
      default:
        return `${k}: ${id ?? compact(v, 60)}`;
    }
  };

  const byKind = new Map<string, Map<string, { header: string; options: { n: number; parts: string[] }[] }>>();
  for (const e of entries) {
    const type = String(e.command['type'] ?? '?');
    const subjectKey = SUBJECT_FIELDS.find((k) => typeof e.command[k] === 'string');
    const header = subjectKey ? (subjectKey === 'from' ? '' : name(e, subjectKey)) : '';
    const parts = Object.keys(e.command)
      .filter((k) => k !== 'type' && (k !== subjectKey || subjectKey === 'from'))
      .map((k) => phrase(e, k))
      .filter(Boolean);
    const kind = byKind.get(type) ?? new Map();
    byKind.set(type, kind);
    const group = kind.get(header) ?? { header, options: [] };
    kind.set(header, group);
    group.options.push({ n: e.n, parts });
  }

  return [...byKind].map(([type, groups]) => ({
    type,
    help: kindHelp(type),
    groups: [...groups.values()].map((g): LegalGroup => {
      if (g.header && g.options.every((o) => o.parts.length === 0))
        return { header: g.header, subjectOnly: true, rows: [{ lead: '', options: g.options.map((o) => ({ n: o.n, text: g.header })) }] };
      // Options that share their first words (an attack's target) share a line.
      const rows = new Map<string, { n: number; text: string }[]>();
      for (const o of g.options) {
        const [first = '', ...rest] = o.parts;
        const lead = rest.length ? first : '';
        const text = (rest.length ? rest : [first]).join(', ') || (g.header ? 'as it is' : type);
        rows.set(lead, [...(rows.get(lead) ?? []), { n: o.n, text }]);
      }
      return { header: g.header, subjectOnly: false, rows: [...rows].map(([lead, options]) => ({ lead, options })) };
    }),
  }));
}

/**
 * The legal commands grouped by kind (a line saying what it does) and by the unit, card or
 * attack they are about, one line each, with the numbers `play <n>` takes. Commands that differ
 * only by naming identical-looking units are listed once ("us-001 or us-002: identical").
 */
export function formatLegal(commands: readonly unknown[], view: unknown): string[] {
  const num = (n: number) => `${n}.`;
  const lines: string[] = [];
  for (const kind of legalGroups(commands, view)) {
    lines.push(`${kind.help}:`);
    for (const g of kind.groups) {
      if (g.subjectOnly) {
        lines.push(`    ${g.rows[0]!.options.map((o) => num(o.n)).join(' ')} ${g.header}`);
        continue;
      }
      const pad = g.header ? '      ' : '    ';
      if (g.header) lines.push(`    ${g.header}`);
      for (const row of g.rows) lines.push(`${pad}${row.lead ? `${row.lead}: ` : ''}${row.options.map((o) => `${num(o.n)} ${o.text}`.trim()).join('   ')}`);
    }
  }
  return lines;
}

/**
 * `play <n>` means the n-th command of the list the player last saw (show or legal). If the
 * game has moved on since (their own earlier play, or the other seat) and the n-th command is
 * no longer the same, the reason to refuse: in Spearpoint every order step shortens the list,
 * and a number typed from an old listing would otherwise send something else.
 */
export function staleChoice(seen: Listing | undefined, now: Listing, n: number): string | undefined {
  if (!seen || seen.url !== now.url || seen.gameId !== now.gameId || seen.seat !== now.seat) return undefined;
  if (seen.version === now.version && (seen.draft ?? 0) === (now.draft ?? 0)) return undefined;
  const before = seen.commands[n - 1];
  const after = now.commands[n - 1];
  if (JSON.stringify(before) === JSON.stringify(after)) return undefined;
  return (
    (seen.version !== now.version
      ? `the game has moved on since you listed its commands (version ${seen.version} → ${now.version}): `
      : `your draft has changed since you listed the commands (${seen.draft ?? 0} → ${now.draft ?? 0} steps): `) +
    `${n} was ${JSON.stringify(before) ?? 'not listed'} and is now ${JSON.stringify(after) ?? 'not listed'}.\n` +
    `List them again with  npm run cli -- legal ${now.gameId}  (or send a command itself with  npm run cli -- do ${now.gameId} '<JSON>')`
  );
}
