import { renderSvg } from '../../domain/kernel/index.js';
import type { GameService } from '../app/game-service.js';
import type { Notice } from './decide.js';
import { svgToPng } from './png.js';

type Log = (msg: string, data: Record<string, unknown>) => void;

/**
 * The "your move" mail's picture: the game as the recipient's seat sees it now, read through
 * the game service like any other view (the player's own seat only, never more), drawn as SVG
 * and rasterized. Any failure leaves the mail without a picture, and is logged.
 */
export function boardPictureFrom(
  service: Pick<GameService, 'view'>,
  log: Log = (msg, data) => console.error(JSON.stringify({ level: 'error', msg, ...data })),
): (notice: Notice) => Promise<Uint8Array | undefined> {
  return async (n) => {
    try {
      const v = await service.view(n.player, n.gameId, n.seats[0] !== undefined ? { seat: n.seats[0] } : {});
      return v.scene ? await svgToPng(renderSvg(v.scene)) : undefined;
    } catch (e) {
      log('board picture failed', { gameId: n.gameId, player: n.player, error: (e as Error).message });
      return undefined;
    }
  };
}
