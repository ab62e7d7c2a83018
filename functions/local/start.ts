import '../quiet-sdk.js';
import { parseArgs } from 'node:util';
import { registry } from '../../domain/registry.js';
import { loadEngineModules, withEngines } from './engine-modules.js';
import { defaultExtensions, startLocalRuntime } from './runtime.js';
import { deadlinesExtension } from './deadlines.js';
import { notificationsExtension } from './stream-poller.js';
import { ensureWebBuild, WEB_DIST } from './web-client.js';

/**
 * `npm start [-- --memory] [--port N] [--data DIR] [--engines path/to/engine.ts]`
 * Brings up DynamoDB Local, the table and the API on 127.0.0.1; Ctrl-C stops all of it.
 */
const USAGE = `usage: npm start -- [--memory] [--port N] [--data DIR] [--engines MODULE ...]
  --memory      throwaway DynamoDB in memory (default: files under ./.data, games survive a restart)
  --port N      HTTP port (default 3000; 0 picks a free one)
  --data DIR    data folder (default ./.data)
  --engines M   also serve the game engines exported by module M (e.g. tests/fixtures/dice-race.ts)`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      memory: { type: 'boolean', default: false },
      port: { type: 'string', default: process.env['PORT'] ?? '3000' },
      data: { type: 'string' },
      engines: { type: 'string', multiple: true, default: [] },
      help: { type: 'boolean', short: 'h', default: false },
    },
    allowPositionals: false,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be a port number, not ${values.port}`);
  const engines = withEngines(registry, await loadEngineModules(values.engines));

  console.log(
    values.memory ? 'Starting DynamoDB Local in memory (nothing is kept)...' : `Starting DynamoDB Local with data in ${values.data ?? '.data'}/dynamodb ...`,
  );
  await ensureWebBuild((line) => console.log(line));
  const rt = await startLocalRuntime({
    port,
    memory: values.memory,
    engines,
    // The stream poller (projector + notifier) and the mail sink: npm start only, so API tests
    // that count table items see no read models appear behind their back.
    extensions: [...defaultExtensions, notificationsExtension, deadlinesExtension()],
    ...(values.data ? { dataDir: values.data } : {}),
    webRoot: WEB_DIST,
    log: (line) => console.log(line),
  });

  // One Ctrl-C reaches this process more than once: the terminal signals the whole job and npm
  // forwards the signal it got as well. Repeats within a moment are that same keypress; a later
  // one means the user is impatient, so exit at once (and take the JVM down with us).
  const DUPLICATE_WINDOW_MS = 3000;
  let stoppingSince: number | undefined;
  let toldStillStopping = false;
  const stop = (signal: string) => {
    if (stoppingSince !== undefined) {
      if (Date.now() - stoppingSince < DUPLICATE_WINDOW_MS) {
        if (!toldStillStopping) console.log('Still stopping... (Ctrl-C again in a few seconds forces an exit)');
        toldStillStopping = true;
        return;
      }
      console.log('Forced exit.');
      if (rt.dynamoPid) {
        try {
          process.kill(rt.dynamoPid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
      process.exit(1);
    }
    stoppingSince = Date.now();
    console.log(`\n${signal}: stopping the API and DynamoDB Local...`);
    rt.stop().then(
      () => {
        console.log('Stopped.');
        process.exit(0);
      },
      (e: unknown) => {
        console.error(e);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));

  const ids = engines.ids();
  console.log(`
Web client:     ${rt.url}/   (play in the browser: sign in with any player name)
Fieldpost API:  ${rt.url}   (health: ${rt.url}/v1/health)
DynamoDB Local: ${rt.endpoint}   table "${rt.tableName}"${rt.dynamoPid ? `   (java pid ${rt.dynamoPid})` : ''}
Game engines:   ${ids.length ? ids.join(', ') : 'none registered yet (add one in domain/registry.ts, or --engines tests/fixtures/dice-race.ts)'}

Get a token for a player (local only):
  curl -s -X POST ${rt.url}/local/token -H 'content-type: application/json' -d '{"player":"alice"}'
or use the terminal client:
  npm run cli -- login alice --url ${rt.url}
  npm run cli -- create ${ids[0] ?? '<engine>'}

Ctrl-C stops everything.`);
}

main().catch((e: unknown) => {
  console.error(`npm start failed: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
