import { renderSvg } from '../../domain/kernel/index.js';
import type { GameService } from '../app/game-service.js';
import type { Notice } from './decide.js';
import { svgToPng } from './png.js';

type Log = (msg: string, data: Record<string, unknown>) => void;
const logError: Log = (msg, data) => console.error(JSON.stringify({ level: 'error', msg, ...data }));

/** Whose picture of which game: a player's view from one of their seats. */
export interface PictureRequest {
  readonly gameId: string;
  readonly player: string;
  readonly seat?: string;
}

/** The picture a notice's recipient gets: their own seat's view. */
export const pictureRequestOf = (n: Notice): PictureRequest => ({
  gameId: n.gameId,
  player: n.player,
  ...(n.seats[0] !== undefined ? { seat: n.seats[0] } : {}),
});

/**
 * The board as a player's seat sees it now, read through the game service like any other view
 * (that seat only, never more), drawn as SVG and rasterized; undefined when the engine draws no
 * picture. Any failure answers undefined and is logged: a picture is a courtesy.
 */
export function drawBoard(service: Pick<GameService, 'view'>, log: Log = logError): (req: PictureRequest) => Promise<Uint8Array | undefined> {
  return async (req) => {
    try {
      const v = await service.view(req.player, req.gameId, req.seat !== undefined ? { seat: req.seat } : {});
      return v.scene ? await svgToPng(renderSvg(v.scene)) : undefined;
    } catch (e) {
      log('board picture failed', { gameId: req.gameId, player: req.player, error: (e as Error).message });
      return undefined;
    }
  };
}

/** The "your move" mail's picture, drawn in process (the local runtime, where one process runs everything). */
export function boardPictureFrom(service: Pick<GameService, 'view'>, log: Log = logError): (notice: Notice) => Promise<Uint8Array | undefined> {
  const draw = drawBoard(service, log);
  return (n) => draw(pictureRequestOf(n));
}
