import { describe, expect, it } from 'vitest';
import { createLazyCatalog, loadAll } from '../../domain/kernel/index.js';
import { registry } from '../../domain/registry.js';
import { engineCatalog } from '../../functions/engine-catalog.js';
import { diceRace } from '../fixtures/dice-race.js';

describe('the Lambda handlers’ engine catalog', () => {
  it('lists the engines of domain/registry.ts, in its order, and loads each as the very engine the registry holds', async () => {
    expect(engineCatalog.ids()).toEqual(registry.ids());
    for (const id of registry.ids()) expect(await engineCatalog.load(id)).toBe(registry.get(id));
  });

  it('knows no other engine, not even an Object member', async () => {
    expect(await engineCatalog.load('chess')).toBeUndefined();
    expect(await engineCatalog.load('__proto__')).toBeUndefined();
    expect(await engineCatalog.load('constructor')).toBeUndefined();
  });
});

describe('createLazyCatalog', () => {
  it('imports an engine once, on its first load, however many loads wait for it', async () => {
    let imports = 0;
    const catalog = createLazyCatalog({ 'dice-race': async () => (imports++, diceRace) });
    expect(imports).toBe(0);
    const [a, b] = await Promise.all([catalog.load('dice-race'), catalog.load('dice-race')]);
    expect(await catalog.load('dice-race')).toBe(diceRace);
    expect([a, b, imports]).toEqual([diceRace, diceRace, 1]);
  });

  it('tries a failed import again on the next load', async () => {
    let attempts = 0;
    const catalog = createLazyCatalog({
      'dice-race': async () => {
        if (++attempts === 1) throw new Error('chunk not found');
        return diceRace;
      },
    });
    await expect(catalog.load('dice-race')).rejects.toThrow('chunk not found');
    expect(await catalog.load('dice-race')).toBe(diceRace);
  });

  it('refuses an engine listed under another id', async () => {
    const catalog = createLazyCatalog({ 'front-line': async () => diceRace });
    await expect(catalog.load('front-line')).rejects.toThrow(`the engine listed as front-line calls itself ${diceRace.id}`);
  });

  it('loadAll gives a registry of every engine', async () => {
    const all = await loadAll(engineCatalog);
    expect(all.ids()).toEqual(registry.ids());
    expect(all.get('spearpoint-1943')).toBe(registry.get('spearpoint-1943'));
  });
});
