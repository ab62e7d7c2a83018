import { Resvg } from '@resvg/resvg-wasm';
import { pngReady } from '../../functions/notify/png.js';

/**
 * Why `svg` is not a well-formed SVG document, or undefined when it is. resvg parses with
 * roxmltree, a strict XML 1.0 parser (bad entities, stray `<` or `&`, characters XML cannot
 * hold, unclosed or mismatched tags, repeated attributes are all refused), so the renderer's
 * output is checked by the same library that rasterizes it, without another dependency.
 */
export async function svgProblem(svg: string): Promise<string | undefined> {
  await pngReady();
  try {
    new Resvg(svg).free();
    return undefined;
  } catch (e) {
    return (e as Error).message ?? String(e);
  }
}

/** A PNG file starts with these eight bytes. */
export const isPng = (bytes: Uint8Array): boolean => Buffer.from(bytes.subarray(0, 8)).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
