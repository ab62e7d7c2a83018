import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkpointFiles } from './notices.js';

/**
 * The chaos run's stream checkpoints: the projector and the notices' consumer save theirs under the
 * same stream ARN and their own names. Kept in one file, each save replaced the other's, and after a
 * kill one of the two read the whole stream again from its beginning.
 */
const dir = mkdtempSync(join(tmpdir(), 'fieldpost-checkpoint-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('chaos run: stream checkpoints in the data folder', () => {
  it('keeps each consumer’s position apart, across a new store on the same folder (a restarted process)', async () => {
    const store = checkpointFiles(dir);
    await store.save('arn:stream projector', new Map([['shard-1', { sequence: '900' }]]));
    await store.save('arn:stream notices', new Map([['shard-1', { sequence: '400', finished: [['500', '600']] as const }]]));
    await store.save('arn:stream projector', new Map([['shard-1', { sequence: '1000' }]]));
    const again = checkpointFiles(dir);
    expect(await again.load('arn:stream projector')).toEqual(new Map([['shard-1', { sequence: '1000' }]]));
    expect(await again.load('arn:stream notices')).toEqual(new Map([['shard-1', { sequence: '400', finished: [['500', '600']] }]]));
    // A table made again has another stream: nothing of the old one applies.
    expect(await again.load('arn:other projector')).toEqual(new Map());
  });
});
