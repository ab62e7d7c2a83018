import '../quiet-sdk.js';
import { parseArgs } from 'node:util';
import { registry } from '../../domain/registry.js';
import { loadEngineModules, withEngines } from '../local/engine-modules.js';
import { tableFromEnv } from '../environment.js';
import { rebuildReadModels } from './rebuild.js';

/**
 * `npm run rebuild-read-models -- [--table T] [--endpoint URL] [--target T2] [--engines M]`
 * Replays every game's events into the read models (inbox, lobby, summaries). Against the
 * local runtime's DynamoDB Local: --endpoint http://127.0.0.1:<port> (printed by npm start);
 * against AWS: TABLE_NAME and the usual AWS credentials.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      table: { type: 'string' },
      target: { type: 'string' },
      endpoint: { type: 'string' },
      engines: { type: 'string', multiple: true, default: [] },
    },
  });
  const env = { ...process.env, ...(values.table ? { TABLE_NAME: values.table } : {}), ...(values.endpoint ? { DYNAMODB_ENDPOINT: values.endpoint } : {}) };
  if (!env['TABLE_NAME']) env['TABLE_NAME'] = 'fieldpost';
  const { client, tableName } = tableFromEnv(env);
  const engines = withEngines(registry, await loadEngineModules(values.engines));
  const r = await rebuildReadModels({
    client,
    sourceTable: tableName,
    ...(values.target ? { targetTable: values.target } : {}),
    engines,
    log: (l) => console.error(l),
  });
  console.log(
    `Rebuilt the read models of ${r.games} game(s) into ${values.target ?? tableName}: ${r.written} written, ${r.keptNewer} already newer, ${r.removed} stale item(s) removed, ${r.failed.length} failed.`,
  );
  client.destroy();
  if (r.failed.length) process.exitCode = 1;
}

main().catch((e: unknown) => {
  console.error(`rebuild failed: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
