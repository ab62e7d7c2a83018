import { describe, expect, it } from 'vitest';
import { registry } from '../../domain/registry.js';
import { buildOpenApi } from '../../functions/http/openapi.js';
import { createRouter, OPENAPI_PATH, routeTable } from '../../functions/http/router.js';
import { routeModules } from '../../functions/http/routes/index.js';
import { lazyRouteModules } from '../../functions/http/routes/lazy.js';
import { defineRoute, type LazyRouteModule, type RouteModule } from '../../functions/http/types.js';
import { apiEvent, offlineApiDeps } from './support.js';

const deps = offlineApiDeps();
const fail = () => {
  throw new Error('not called: a public route or none');
};

describe('the route modules the Lambda function imports on first use (routes/lazy.ts)', () => {
  it('are the modules of routes/index.ts, in the same order, each serving only paths under its prefixes', async () => {
    const loaded = await Promise.all(lazyRouteModules.map((m) => m.load()));
    expect(loaded).toEqual(routeModules);
    for (const [i, m] of lazyRouteModules.entries())
      for (const r of loaded[i]!(deps))
        expect(
          m.prefixes.some((p) => r.path === p || r.path.startsWith(`${p}/`)),
          r.path,
        ).toBe(true);
    const prefixes = lazyRouteModules.flatMap((m) => m.prefixes);
    for (const p of prefixes) expect(prefixes.filter((q) => q === p || q.startsWith(`${p}/`) || p.startsWith(`${q}/`))).toEqual([p]);
  });

  it('serve the same OpenAPI document as the modules loaded at once', async () => {
    const router = createRouter(lazyRouteModules, deps, { authenticate: fail });
    const r = await router(apiEvent('GET', OPENAPI_PATH));
    expect(r.statusCode).toBe(200);
    expect(JSON.parse(r.body!)).toEqual(JSON.parse(JSON.stringify(buildOpenApi(routeTable(routeModules, deps), registry))));
  });

  it('are imported by the first request they may serve, once, and not by a request for another path', async () => {
    const loads: string[] = [];
    const module = (name: string, path: string): LazyRouteModule => ({
      prefixes: [path],
      load: async () => {
        loads.push(name);
        const m: RouteModule = () => [
          defineRoute({ method: 'GET', path, summary: name, auth: 'none', responses: {}, handle: async () => ({ status: 200, body: { name } }) }),
        ];
        return m;
      },
    });
    const router = createRouter([module('a', '/v1/a'), module('b', '/v1/b')], deps, { authenticate: fail, logError: () => {} });
    expect(loads).toEqual([]);
    expect(JSON.parse((await router(apiEvent('GET', '/v1/a'))).body!)).toEqual({ name: 'a' });
    await router(apiEvent('GET', '/v1/a'));
    expect(loads).toEqual(['a']);
    expect((await router(apiEvent('GET', '/v1/nothing'))).statusCode).toBe(404);
    expect((await router(apiEvent('POST', '/v1/b'))).statusCode).toBe(405);
    expect(loads).toEqual(['a', 'b']);
  });

  it('a module whose import failed is imported again by the next request', async () => {
    let attempts = 0;
    const flaky: LazyRouteModule = {
      prefixes: ['/v1/x'],
      load: async () => {
        attempts += 1;
        if (attempts === 1) throw new Error('chunk not readable');
        return () => [defineRoute({ method: 'GET', path: '/v1/x', summary: 'x', auth: 'none', responses: {}, handle: async () => ({ status: 204 }) })];
      },
    };
    const router = createRouter([flaky], deps, { authenticate: fail, logError: () => {} });
    expect((await router(apiEvent('GET', '/v1/x'))).statusCode).toBe(500);
    expect((await router(apiEvent('GET', '/v1/x'))).statusCode).toBe(204);
  });
});
