/**
 * THE BUILT-IN CATALOG IS REPRESENTATIVE AND REPLACEABLE.
 * Rulebook 001 names the cards but does not print them; units.ts and cards.ts hold
 * Fieldpost's stand-in values (consistent with every figure the rulebooks give). A club
 * replaces the whole catalog with its own printed values by passing a catalog file to
 * loadCatalog, or as the `catalog` game option; a bad file is refused with one error per
 * problem naming the card and the field.
 */
import { err, ok, type Result } from '../../kernel/result.js';
import type * as z from 'zod';
import {
  catalogSchema,
  type Catalog,
  type CommandCard,
  type DamageCard,
  type UnitCard,
  type Weapon,
  type commandCardSchema,
  type damageCardSchema,
  type unitCardSchema,
} from './schema.js';
import { COMMAND_CARDS, DAMAGE_CARDS, DAMAGE_CARDS_V2 } from './cards.js';
import { DE_UNITS, US_UNITS } from './units.js';

export interface CatalogError {
  /** The card's id, or its position ("units[3]") when it has no usable id. */
  readonly card: string;
  /** The field within the card, dotted ("weapons.0.attack"), or '' for the whole card. */
  readonly field: string;
  readonly message: string;
}

const LISTS = ['units', 'commandCards', 'damageCards'] as const;

function cardName(json: unknown, list: string, index: number): string {
  const entry = (json as Record<string, unknown[] | undefined> | null)?.[list]?.[index] as { id?: unknown } | undefined;
  return typeof entry?.id === 'string' && entry.id.length > 0 ? entry.id : `${list}[${index}]`;
}

/** Validates a club's catalog file; every problem names the card and field it is in. */
export function loadCatalog(json: unknown): Result<Catalog, CatalogError[]> {
  const parsed = catalogSchema().safeParse(json);
  if (!parsed.success) return err(schemaErrors(json, parsed.error.issues));
  const errors = crossErrors(parsed.data);
  return errors.length ? err(errors) : ok(parsed.data);
}

function schemaErrors(json: unknown, issues: readonly { readonly path: readonly PropertyKey[]; readonly message: string }[]): CatalogError[] {
  return issues.map((i) => {
    const [list, index, ...rest] = i.path;
    if (typeof list === 'string' && (LISTS as readonly string[]).includes(list) && typeof index === 'number') {
      return { card: cardName(json, list, index), field: rest.map(String).join('.'), message: i.message };
    }
    return { card: '(catalog)', field: i.path.map(String).join('.'), message: i.message };
  });
}

/** What the schema cannot see card by card: ids used twice, crews no card provides, bombs misused. */
function crossErrors(c: Catalog): CatalogError[] {
  const errors: CatalogError[] = [];
  const seen = new Set<string>();
  for (const card of [...c.units, ...c.commandCards, ...c.damageCards]) {
    if (seen.has(card.id)) errors.push({ card: card.id, field: 'id', message: 'this id is used by more than one card' });
    seen.add(card.id);
  }
  for (const u of c.units) {
    if (u.crew !== 'none' && !c.units.some((k) => k.side === u.side && k.type === 'crew' && k.crewKind === u.crew)) {
      errors.push({ card: u.id, field: 'crew', message: `needs a ${u.crew} crew, but the ${u.side} side has no such crew card` });
    }
    u.weapons.forEach((w, i) => {
      if (w.bombs && w.attack.aircraft !== undefined)
        errors.push({ card: u.id, field: `weapons.${i}.attack.aircraft`, message: 'bombs cannot attack aircraft' });
      if (w.bombs && u.type !== 'aircraft') errors.push({ card: u.id, field: `weapons.${i}.bombs`, message: 'only aircraft carry bombs' });
    });
  }
  return errors;
}

/*
 * The built-in catalog is not validated at load: zod's whole-catalog check took about 20 ms, the
 * largest single cost of a first Spearpoint command on a fresh server (issue 16). Its lists are
 * typed literals; below they get what loadCatalog's parse adds (each default filled, each
 * object's keys in the schema's order, so the stored catalog is the same bytes).
 * tests/spearpoint/catalog.test.ts holds both catalogs byte for byte to loadCatalog of the same
 * lists, which also proves them valid. A club's catalog is always validated (loadCatalog).
 */
type UnitInput = z.input<ReturnType<typeof unitCardSchema>>;
type CommandInput = z.input<ReturnType<typeof commandCardSchema>>;
type DamageInput = z.input<ReturnType<typeof damageCardSchema>>;
type WeaponInput = NonNullable<UnitInput['weapons']>[number];

/** `{ key: value }` only when value is set: an optional field the input left out stays out. */
const given = <K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } => (value === undefined ? {} : ({ [key]: value } as { [P in K]: V }));

const weapon = (w: WeaponInput): Weapon => ({
  name: w.name,
  attack: { ...given('infantry', w.attack.infantry), ...given('vehicle', w.attack.vehicle), ...given('aircraft', w.attack.aircraft) },
  damageIndex: w.damageIndex,
  rateOfFire: w.rateOfFire ?? 1,
  bullets: w.bullets ?? false,
  bombs: w.bombs ?? false,
});

const unitCard = (u: UnitInput): UnitCard => ({
  id: u.id,
  side: u.side,
  title: u.title,
  type: u.type,
  cost: u.cost,
  defense: u.defense,
  endurance: { full: u.endurance.full, half: u.endurance.half },
  crew: u.crew ?? 'none',
  ...given('crewKind', u.crewKind),
  line: u.line,
  ...given('turnsOfFlight', u.turnsOfFlight),
  weapons: (u.weapons ?? []).map(weapon),
});

const commandCard = (c: CommandInput): CommandCard => {
  const { kind, ...amount } = c.effect;
  return {
    id: c.id,
    title: c.title,
    appliesTo: [...c.appliesTo],
    phase: c.phase,
    duration: c.duration,
    effect: { kind, ...amount } as CommandCard['effect'],
    text: c.text,
  };
};

const damageEffect = (e: DamageInput['effects']['infantry']): DamageCard['effects']['infantry'] => {
  const { kind, name, ...rest } = e;
  return { kind, name, ...rest } as DamageCard['effects']['infantry'];
};

const damageCard = (d: DamageInput): DamageCard => ({
  id: d.id,
  title: d.title,
  effects: {
    infantry: damageEffect(d.effects.infantry),
    vehicle: damageEffect(d.effects.vehicle),
    artillery: damageEffect(d.effects.artillery),
    aircraft: damageEffect(d.effects.aircraft),
  },
});

const UNITS: readonly UnitCard[] = [...US_UNITS, ...DE_UNITS].map(unitCard);
const COMMANDS: readonly CommandCard[] = COMMAND_CARDS.map(commandCard);

export const BUILT_IN_CATALOG: Catalog = {
  name: 'Fieldpost representative catalog (not the printed cards)',
  units: UNITS,
  commandCards: COMMANDS,
  damageCards: DAMAGE_CARDS.map(damageCard),
};

/** The built-in catalog of rules version 2 (its Crew Casualty edges killed the crew of a surviving unit); its games still replay with it. */
export const BUILT_IN_CATALOG_V2: Catalog = {
  name: 'Fieldpost representative catalog, rules version 2 (not the printed cards)',
  units: UNITS,
  commandCards: COMMANDS,
  damageCards: DAMAGE_CARDS_V2.map(damageCard),
};

/** Lookups by id, built once per catalog. */
export interface CatalogIndex {
  readonly catalog: Catalog;
  unit(id: string): UnitCard;
  command(id: string): CommandCard;
  damage(id: string): DamageCard;
  hasUnit(id: string): boolean;
}

const indexes = new WeakMap<Catalog, CatalogIndex>();

export function indexCatalog(catalog: Catalog): CatalogIndex {
  const cached = indexes.get(catalog);
  if (cached) return cached;
  const units = new Map(catalog.units.map((u) => [u.id, u]));
  const commands = new Map(catalog.commandCards.map((c) => [c.id, c]));
  const damages = new Map(catalog.damageCards.map((d) => [d.id, d]));
  const get = <T>(m: Map<string, T>, id: string, what: string): T => {
    const v = m.get(id);
    if (!v) throw new Error(`unknown ${what} ${id}`);
    return v;
  };
  const idx: CatalogIndex = {
    catalog,
    unit: (id) => get(units, id, 'unit card'),
    command: (id) => get(commands, id, 'command card'),
    damage: (id) => get(damages, id, 'damage card'),
    hasUnit: (id) => units.has(id),
  };
  indexes.set(catalog, idx);
  return idx;
}
