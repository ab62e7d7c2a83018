import { afterEach, describe, expect, it, vi } from 'vitest';

/**
 * Issue 16: a first command on a fresh server loads its engine, and building zod schemas was the
 * largest part of that. An engine builds its options schema (and the catalogs', scenarios' and
 * tables' schemas under it) on first access, not when its module loads: a command or a view
 * never needs them, a game's creation and the engine listing do. Counted here by wrapping zod's
 * `object` in a fresh module graph.
 */
const built = { objects: 0 };
vi.mock('zod', async (importOriginal) => {
  const zod = await importOriginal<typeof import('zod')>();
  return { ...zod, object: (...args: Parameters<typeof zod.object>) => (built.objects++, zod.object(...args)) };
});

const ENGINES = [
  ['spearpoint-1943', async () => (await import('../../domain/spearpoint/engine.js')).spearpoint],
  ['spearpoint-1943-map', async () => (await import('../../domain/spearpoint-map/engine.js')).spearpointMap],
  ['front-line', async () => (await import('../../domain/front-line/engine.js')).frontLine],
  ['action-front', async () => (await import('../../domain/action-front/engine.js')).actionFront],
] as const;

afterEach(() => {
  vi.resetModules();
  built.objects = 0;
});

describe('schemas a command does not need are built on first use', () => {
  it.each(ENGINES)('%s builds its options schema when first asked for it, once', async (_id, load) => {
    const engine = await load();
    const atLoad = built.objects;
    const options = engine.optionsSchema;
    expect(built.objects).toBeGreaterThan(atLoad);
    const afterFirst = built.objects;
    expect(engine.optionsSchema).toBe(options);
    expect(built.objects).toBe(afterFirst);
  });

  it('the Frontline General catalog schema is built by the first club catalog validated, not by loading the built-in one', async () => {
    const { BUILT_IN_CATALOG, loadCatalog } = await import('../../domain/frontline-general/data/catalog.js');
    expect(BUILT_IN_CATALOG.units.length).toBeGreaterThan(0);
    expect(built.objects).toBe(0);
    expect(loadCatalog(BUILT_IN_CATALOG).ok).toBe(true);
    expect(built.objects).toBeGreaterThan(0);
  });
});
