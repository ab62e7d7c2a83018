import { parseArgs } from 'node:util';
import { auditFile } from './audit.js';

/**
 * `npm run verify -- <exported log> [--engines MODULE]`: recomputes the hash chain, the seed
 * commitment, every die and shuffle, and the final position. Exit 1 when anything is off.
 */
async function main(): Promise<number> {
  const { values, positionals } = parseArgs({ options: { engines: { type: 'string', multiple: true, default: [] } }, allowPositionals: true });
  if (positionals.length === 0) {
    console.error('usage: npm run verify -- <exported-log.json> [...] [--engines path/to/engine-module.ts]');
    return 2;
  }
  let ok = true;
  for (const file of positionals) {
    try {
      const r = await auditFile(file, values.engines);
      console.log(r.text);
      ok &&= r.ok;
    } catch (e) {
      console.log(`FAILED: ${(e as Error).message}`);
      ok = false;
    }
  }
  return ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e instanceof Error ? e.message : String(e));
    process.exit(1);
  },
);
