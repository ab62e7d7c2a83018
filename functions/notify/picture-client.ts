import { InvokeCommand, type LambdaClient } from '@aws-sdk/client-lambda';
import type { Notice } from './decide.js';
import { pictureRequestOf, type PictureRequest } from './board-picture.js';

type Log = (msg: string, data: Record<string, unknown>) => void;
const logError: Log = (msg, data) => console.error(JSON.stringify({ level: 'error', msg, ...data }));

/**
 * A player's board picture in AWS, from the picture function. The notifier and the digest post
 * to addresses players choose, so they may not read game partitions (their seeds and hidden
 * events); the picture function may read them and posts nowhere, and answers only the
 * player's own view as a PNG. Any failure answers undefined (a mail without a picture), logged.
 */
export function drawViaLambda(
  client: Pick<LambdaClient, 'send'>,
  functionName: string,
  log: Log = logError,
): (req: PictureRequest) => Promise<Uint8Array | undefined> {
  return async (req) => {
    try {
      const out = await client.send(new InvokeCommand({ FunctionName: functionName, Payload: new TextEncoder().encode(JSON.stringify(req)) }));
      if (out.FunctionError) throw new Error(`picture function failed: ${out.FunctionError}`);
      const reply = JSON.parse(new TextDecoder().decode(out.Payload ?? new Uint8Array())) as { png?: unknown };
      return typeof reply.png === 'string' ? new Uint8Array(Buffer.from(reply.png, 'base64')) : undefined;
    } catch (e) {
      log('board picture failed', { gameId: req.gameId, player: req.player, error: (e as Error).message });
      return undefined;
    }
  };
}

/** The "your move" mail's picture: the recipient's own seat's view. */
export function boardPictureViaLambda(
  client: Pick<LambdaClient, 'send'>,
  functionName: string,
  log: Log = logError,
): (notice: Notice) => Promise<Uint8Array | undefined> {
  const draw = drawViaLambda(client, functionName, log);
  return (n) => draw(pictureRequestOf(n));
}
