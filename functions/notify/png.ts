import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { initWasm, Resvg } from '@resvg/resvg-wasm';
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

function assetPath(spec: string): string {
  const beside = fileURLToPath(new URL(basename(spec), import.meta.url));
  return existsSync(beside) ? beside : createRequire(import.meta.url).resolve(spec);
}

interface Loaded {
  readonly fonts: Uint8Array[];
}

// resvg's WebAssembly module can be initialised once per process only, so the first call
// starts it (with the fonts read alongside) and every later call waits for the same promise.
let loading: Promise<Loaded> | undefined;

function load(): Promise<Loaded> {
  loading ??= (async () => {
    const [wasm, ...fonts] = PICTURE_ASSETS.map((spec) => new Uint8Array(readFileSync(assetPath(spec))));
    await initWasm(wasm!);
    return { fonts };
  })();
  return loading;
}

/** Resolves when the renderer is ready: lets a benchmark time rendering apart from start-up. */
export const pngReady = async (): Promise<void> => void (await load());

/**
 * The PNG of an SVG document. Rejects SVG that is not well-formed XML (resvg parses it with
 * roxmltree, a strict XML 1.0 parser), which the tests use to check the renderer's output.
 */
export async function svgToPng(svg: string): Promise<Uint8Array> {
  const { fonts } = await load();
  const resvg = new Resvg(svg, { font: { fontBuffers: fonts, defaultFontFamily: SCENE_FONT, sansSerifFamily: SCENE_FONT } });
  try {
    const image = resvg.render();
    try {
      return image.asPng();
    } finally {
      image.free();
    }
  } finally {
    resvg.free();
  }
}
