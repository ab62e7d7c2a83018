import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Clock } from '../ports.js';
import type { InboxModel } from '../projections/project.js';
import { ReadModelStore } from '../projections/read-model-store.js';
import type { PictureRequest } from './board-picture.js';
import { sendDigests } from './digest.js';
import type { Mailer } from './mailer.js';
import { DynamoDeliveryLog, DynamoDigestBook, DynamoSettingsStore } from './stores.js';

/** A digest lists at most this many games (the first inbox page of "your move", longest waiting first). */
const DIGEST_MAX_GAMES = 100;

/** The digest sweep over the table: subscribers, their settings and inbox, the delivery log. */
export function digestSweep(opts: {
  client: DynamoDBClient;
  tableName: string;
  mailer: Mailer;
  clock: Clock;
  appUrl: string;
  boardPicture?: (req: PictureRequest) => Promise<Uint8Array | undefined>;
  log?: (line: string) => void;
}): () => ReturnType<typeof sendDigests> {
  const models = new ReadModelStore(opts.client, opts.tableName);
  const yourMove = async (player: string): Promise<InboxModel[]> =>
    (await models.inboxPage(player, { limit: DIGEST_MAX_GAMES, yourMove: true, status: 'active' })).items.filter((g) => g.yourMove);
  const deps = {
    book: DynamoDigestBook.of(opts.client, opts.tableName),
    settings: new DynamoSettingsStore(opts.client, opts.tableName),
    deliveries: new DynamoDeliveryLog(opts.client, opts.tableName),
    yourMove,
    mailer: opts.mailer,
    clock: opts.clock,
    appUrl: opts.appUrl,
    ...(opts.boardPicture ? { boardPicture: opts.boardPicture } : {}),
    ...(opts.log ? { log: opts.log } : {}),
  };
  return () => sendDigests(deps);
}
