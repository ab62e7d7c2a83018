import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import * as z from '../../domain/kernel/zod-mini.js';
import { engineCatalog } from '../engine-catalog.js';
import { createDynamoGameService } from '../app/adapters.js';
import { drawBoard, type PictureRequest } from '../notify/board-picture.js';

/**
 * Invoked by the notifier for a "your move" mail: the board as the recipient's seat sees it, as
 * a PNG (base64), or no picture. This function may read game partitions and posts nowhere; the
 * notifier, which posts to URLs players choose, never reads them (infra/fieldpost-stack.ts).
 * It needs resvg's WebAssembly and the DejaVu fonts beside its bundle (infra/handler-function.ts).
 */
const requestSchema = z.strictObject({
  gameId: z.string().check(z.minLength(1), z.maxLength(100)),
  player: z.string().check(z.minLength(1), z.maxLength(128)),
  seat: z.optional(z.string().check(z.minLength(1), z.maxLength(32))),
});

export function createPictureHandler(draw: (req: PictureRequest) => Promise<Uint8Array | undefined>) {
  return async (event: unknown): Promise<{ png?: string; error?: string }> => {
    const req = requestSchema.safeParse(event);
    if (!req.success) return { error: 'not a picture request: {gameId, player, seat?}' };
    const { seat, ...rest } = req.data;
    const png = await draw({ ...rest, ...(seat !== undefined ? { seat } : {}) });
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
