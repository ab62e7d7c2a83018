/**
 * zod's small build (zod/mini) with English messages, for the schemas a Lambda loads at its cold
 * start (the HTTP edge, the clock, clubs and tournaments): about 13 KB against the classic
 * build's 85 KB, and cheaper to construct (issue 16). zod/mini sets no locale of its own, and the
 * classic build sets English only when its first schema is built, so the locale is set here:
 * the same messages whichever build a process loads first. The engines keep the classic build,
 * in the chunk a game's first command loads.
 */
import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';

z.config(en());

export * from 'zod/mini';
