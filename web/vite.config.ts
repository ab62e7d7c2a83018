import { defineConfig } from 'vite';

/**
 * The web client: static files built into web/dist, served by `npm start` at / and by
 * CloudFront in AWS. Preact's JSX runtime; the game page, settings and the auditor are
 * split into their own chunks so the first page stays small (tests/web/bundle-size.test.ts).
 */
export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  publicDir: false,
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    reportCompressedSize: false,
  },
});
