import { InvokeCommand, type LambdaClient } from '@aws-sdk/client-lambda';
import type { Notice } from './decide.js';
import { pictureRequestOf } from './board-picture.js';

type Log = (msg: string, data: Record<string, unknown>) => void;

/**
 * The "your move" mail's picture in AWS: the notifier asks the picture function for it. The
 * notifier posts to URLs players choose, so it may not read game partitions (their seeds and
 * hidden events); the picture function may read them and posts nowhere, and answers only the
 * recipient's own view as a PNG. Any failure leaves the mail without a picture, logged.
 */
export function boardPictureViaLambda(
  client: Pick<LambdaClient, 'send'>,
  functionName: string,
  log: Log = (msg, data) => console.error(JSON.stringify({ level: 'error', msg, ...data })),
): (notice: Notice) => Promise<Uint8Array | undefined> {
  return async (n) => {
    try {
      const out = await client.send(new InvokeCommand({ FunctionName: functionName, Payload: new TextEncoder().encode(JSON.stringify(pictureRequestOf(n))) }));
      if (out.FunctionError) throw new Error(`picture function failed: ${out.FunctionError}`);
      const reply = JSON.parse(new TextDecoder().decode(out.Payload ?? new Uint8Array())) as { png?: unknown };
      return typeof reply.png === 'string' ? new Uint8Array(Buffer.from(reply.png, 'base64')) : undefined;
    } catch (e) {
      log('board picture failed', { gameId: n.gameId, player: n.player, error: (e as Error).message });
      return undefined;
    }
  };
}
