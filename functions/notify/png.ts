import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { constants, crc32, deflateSync } from 'node:zlib';
import { initWasm, Resvg, type ResvgRenderOptions } from '@resvg/resvg-wasm';
import { SCENE_FONT } from '../../domain/kernel/index.js';

/**
 * SVG → PNG for the "your move" mail (most mail clients show no inline SVG), with resvg, a
 * Rust SVG renderer compiled to WebAssembly: no native build, the same pixels on a laptop and
 * in Lambda on arm64. Fonts come from files we ship (DejaVu Sans, the scene's one family),
 * never from the system, so a picture never depends on what a machine has installed.
 *
 * Where the files are: an esbuild bundle has them beside it (infra/handler-function.ts copies
 * PICTURE_ASSETS next to index.mjs); run from source, they are in node_modules.
 */
export const PICTURE_ASSETS = ['@resvg/resvg-wasm/index_bg.wasm', 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf', 'dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'] as const;

/**
 * The widest picture a mail gets, in pixels: a wider SVG (a scene is 1000 wide) is scaled down
 * to it. A mail column is rarely wider, and every pixel costs render and encode time.
 */
export const MAIL_PICTURE_WIDTH = 800;

/** The file beside the bundle's index.mjs (this code runs from a chunk under it, chunks/), else from node_modules. */
function assetPath(spec: string): string {
  const beside = [`./${basename(spec)}`, `../${basename(spec)}`].map((p) => fileURLToPath(new URL(p, import.meta.url))).find((f) => existsSync(f));
  return beside ?? createRequire(import.meta.url).resolve(spec);
}

// resvg's WebAssembly module can be initialised once per process only, so the first call
// starts it (with the fonts read alongside, once) and every later call waits for the same
// promise. The options, font buffers included, are built once and reused by every render.
let loading: Promise<ResvgRenderOptions> | undefined;

function load(): Promise<ResvgRenderOptions> {
  loading ??= (async () => {
    const [wasm, ...fonts] = PICTURE_ASSETS.map((spec) => new Uint8Array(readFileSync(assetPath(spec))));
    await initWasm(wasm!);
    return { font: { fontBuffers: fonts, defaultFontFamily: SCENE_FONT, sansSerifFamily: SCENE_FONT } };
  })();
  return loading;
}

/** Resolves when the renderer is ready: lets a benchmark time rendering apart from start-up. */
export const pngReady = async (): Promise<void> => void (await load());

/** The width on the root <svg> element, when it is a plain number of pixels. */
function rootWidth(svg: string): number | undefined {
  const m = /<svg\b[^>]*?\swidth="(\d+(?:\.\d+)?)(?:px)?"/.exec(svg);
  return m ? Number(m[1]) : undefined;
}

/**
 * The PNG of an SVG document, at most `maxWidth` pixels wide (never scaled up). Rejects SVG
 * that is not well-formed XML (resvg parses it with roxmltree, a strict XML 1.0 parser),
 * which the tests use to check the renderer's output.
 */
export async function svgToPng(svg: string, { maxWidth = MAIL_PICTURE_WIDTH }: { maxWidth?: number } = {}): Promise<Uint8Array> {
  const options = await load();
  const width = rootWidth(svg);
  const resvg = new Resvg(svg, width !== undefined && width > maxWidth ? { ...options, fitTo: { mode: 'width', value: maxWidth } } : options);
  try {
    const image = resvg.render();
    try {
      // resvg's own asPng (a PNG encoder compiled to WebAssembly) takes longer than drawing
      // the picture; Node's zlib does the same job natively in a fraction of the time.
      return encodePng(image.pixels, image.width, image.height);
    } finally {
      image.free();
    }
  } finally {
    resvg.free();
  }
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  out.set(data, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/**
 * Premultiplied RGBA (how resvg hands its pixels over) to straight RGBA (what PNG holds), in
 * place. Only partly transparent pixels change, and a scene, drawn on an opaque white
 * background, has none: the loop then only reads each pixel's alpha.
 */
function unpremultiply(rgba: Uint8Array): void {
  // Four bytes at a time where the array allows it: alpha is the top byte of each little-endian word.
  const words = rgba.byteOffset % 4 === 0 && LITTLE_ENDIAN ? new Uint32Array(rgba.buffer, rgba.byteOffset, rgba.length >> 2) : undefined;
  for (let p = 0, i = 3; i < rgba.length; p++, i += 4) {
    if (words ? words[p]! >= 0xff000000 : rgba[i] === 255) continue;
    const a = rgba[i]!;
    if (a === 0) rgba[i - 3] = rgba[i - 2] = rgba[i - 1] = 0;
    else for (let k = i - 3; k < i; k++) rgba[k] = Math.min(255, Math.round((rgba[k]! * 255) / a));
  }
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * A PNG of premultiplied 8-bit RGBA pixels (the array is changed): no row filter, fast
 * deflate. A scene is mostly flat colour, which deflate compresses well without PNG's filters.
 */
export function encodePng(rgba: Uint8Array, width: number, height: number): Uint8Array {
  unpremultiply(rgba);
  const row = width * 4;
  const raw = Buffer.alloc((row + 1) * height); // each row: filter type 0, then the pixels
  for (let y = 0; y < height; y++) raw.set(rgba.subarray(y * row, (y + 1) * row), y * (row + 1) + 1);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // colour type: RGBA
  const data = deflateSync(raw, { level: 1, strategy: constants.Z_DEFAULT_STRATEGY });
  return new Uint8Array(Buffer.concat([SIGNATURE, chunk('IHDR', header), chunk('IDAT', data), chunk('IEND', new Uint8Array(0))]));
}
