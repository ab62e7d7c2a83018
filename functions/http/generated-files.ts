import { readFileSync, writeFileSync } from 'node:fs';

/** A file npm run api-types makes: written, or (check) an error when it is not what it would write now. */
export function writeOrCheck(file: string, source: string, check: boolean): void {
  if (!check) writeFileSync(file, source);
  else if (readFileSync(file, 'utf8') !== source) throw new Error(`${file} is stale: run npm run api-types`);
}
