/**
 * A form generated from an engine's options JSON Schema (GET /v1/engines): a number field for
 * an integer, a checkbox for a boolean, a list for an enum or for the scenario option, and a
 * JSON box for anything richer (a deck, a club's card catalog). Only fields the player filled
 * in are sent; the engine's defaults apply to the rest, and the server judges the whole.
 */

interface Prop {
  readonly type?: string;
  readonly enum?: readonly unknown[];
  readonly default?: unknown;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly description?: string;
}

export interface Scenarios {
  readonly option: string;
  readonly choices: readonly { readonly id: string; readonly title: string; readonly description: string }[];
}

export type FieldValues = Readonly<Record<string, string | boolean>>;

const props = (schema: unknown): [string, Prop][] => {
  const p = (schema as { properties?: Record<string, Prop> } | null)?.properties;
  return p ? Object.entries(p) : [];
};

const label = (name: string) => name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/^./, (c) => c.toUpperCase());

/** The options object from the form's values: numbers as numbers, JSON boxes parsed; a bad JSON box names its field. */
export function optionsFrom(schema: unknown, values: FieldValues): { options: Record<string, unknown> } | { error: string } {
  const options: Record<string, unknown> = {};
  for (const [name, p] of props(schema)) {
    const v = values[name];
    if (v === undefined || v === '') continue;
    if (p.type === 'boolean') options[name] = v === true;
    else if (p.type === 'integer' || p.type === 'number') options[name] = Number(v);
    else if (p.type === 'string' || p.enum) options[name] = v;
    else {
      try {
        options[name] = JSON.parse(String(v));
      } catch {
        return { error: `${label(name)} must be JSON` };
      }
    }
  }
  return { options };
}

export function SchemaForm(props_: { schema: unknown; scenarios?: Scenarios | undefined; values: FieldValues; onChange: (v: FieldValues) => void }) {
  const { schema, scenarios, values, onChange } = props_;
  const set = (name: string, v: string | boolean) => onChange({ ...values, [name]: v });
  return (
    <fieldset>
      <legend>Options</legend>
      {props(schema).map(([name, p]) => {
        const id = `opt-${name}`;
        if (scenarios && name === scenarios.option) {
          const chosen = scenarios.choices.find((c) => c.id === (values[name] || p.default));
          return (
            <div class="field" key={name}>
              <label for={id}>Scenario</label>
              <select id={id} value={String(values[name] ?? p.default ?? '')} onChange={(e) => set(name, e.currentTarget.value)}>
                {scenarios.choices.map((c) => (
                  <option value={c.id} key={c.id}>
                    {c.title}
                  </option>
                ))}
              </select>
              {chosen && <p class="hint">{chosen.description}</p>}
            </div>
          );
        }
        if (p.enum) {
          return (
            <div class="field" key={name}>
              <label for={id}>{label(name)}</label>
              <select id={id} value={String(values[name] ?? p.default ?? '')} onChange={(e) => set(name, e.currentTarget.value)}>
                {p.enum.map((o) => (
                  <option key={String(o)} value={String(o)}>
                    {String(o)}
                  </option>
                ))}
              </select>
            </div>
          );
        }
        if (p.type === 'boolean') {
          return (
            <div class="field" key={name}>
              <label>
                <input
                  type="checkbox"
                  checked={values[name] === true || (values[name] === undefined && p.default === true)}
                  onChange={(e) => set(name, e.currentTarget.checked)}
                />{' '}
                {label(name)}
              </label>
            </div>
          );
        }
        if (p.type === 'integer' || p.type === 'number' || p.type === 'string') {
          return (
            <div class="field" key={name}>
              <label for={id}>{label(name)}</label>
              {p.type === 'string' ? (
                <input id={id} type="text" value={String(values[name] ?? '')} onInput={(e) => set(name, e.currentTarget.value)} />
              ) : (
                <input
                  id={id}
                  type="number"
                  {...(p.minimum !== undefined ? { min: p.minimum } : {})}
                  {...(p.maximum !== undefined ? { max: p.maximum } : {})}
                  placeholder={p.default !== undefined ? `default ${String(p.default)}` : ''}
                  value={String(values[name] ?? '')}
                  onInput={(e) => set(name, e.currentTarget.value)}
                />
              )}
            </div>
          );
        }
        return (
          <div class="field" key={name}>
            <label for={id}>
              {label(name)} <span class="hint">(JSON, optional)</span>
            </label>
            <textarea id={id} rows={2} value={String(values[name] ?? '')} onInput={(e) => set(name, e.currentTarget.value)} />
          </div>
        );
      })}
    </fieldset>
  );
}
