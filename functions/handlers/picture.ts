import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { engineCatalog } from '../engine-catalog.js';
import { createDynamoGameService } from '../app/adapters.js';
import { drawBoard, type PictureRequest } from '../notify/board-picture.js';

/**
 * Invoked by the notifier for a "your move" mail: the board as the recipient's seat sees it, as
 * a PNG (base64), or no picture. This function may read game partitions and posts nowhere; the
 * notifier, which posts to URLs players choose, never reads them (infra/fieldpost-stack.ts).
 * It needs resvg's WebAssembly and the DejaVu fonts beside its bundle (infra/handler-function.ts).
 */
/** A short non-empty string, as the notifier sends ids. */
const text = (v: unknown, max: number): v is string => typeof v === 'string' && v.length >= 1 && v.length <= max;

/**
 * The notifier's request, `{gameId, player, seat?}` and nothing else, or undefined. Checked by
 * hand, not with zod: the caller is our own notifier and the shape is three strings, while zod
 * at this function's cold start was about a third of it (issue 16).
 */
function pictureRequest(event: unknown): PictureRequest | undefined {
  if (typeof event !== 'object' || event === null || Array.isArray(event)) return undefined;
  const { gameId, player, seat, ...extra } = event as Record<string, unknown>;
  if (Object.keys(extra).length > 0 || !text(gameId, 100) || !text(player, 128) || (seat !== undefined && !text(seat, 32))) return undefined;
  return { gameId, player, ...(seat !== undefined ? { seat } : {}) };
}

export function createPictureHandler(draw: (req: PictureRequest) => Promise<Uint8Array | undefined>) {
  return async (event: unknown): Promise<{ png?: string; error?: string }> => {
    const req = pictureRequest(event);
    if (!req) return { error: 'not a picture request: {gameId, player, seat?}' };
    const png = await draw(req);
    return png ? { png: Buffer.from(png).toString('base64') } : {};
  };
}

let fromEnv: ReturnType<typeof createPictureHandler> | undefined;

export const handler = (event: unknown) => {
  if (!fromEnv) {
    const tableName = process.env['TABLE_NAME'];
    if (!tableName) throw new Error('TABLE_NAME is not set');
    const { service } = createDynamoGameService({ client: new DynamoDBClient({}), tableName, engines: engineCatalog });
    fromEnv = createPictureHandler(drawBoard(service));
  }
  return fromEnv(event);
};

/** The rasterizer, exported so the bundle test can prove it draws in Lambda's plain Node from the bundled files. */
export { svgToPng } from '../notify/png.js';
