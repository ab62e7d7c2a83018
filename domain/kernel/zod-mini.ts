/**
 * zod's small build (zod/mini) with English messages, for the schemas the Lambdas build (the
 * HTTP edge's, built only to explain a refused request: functions/http/edge.ts; the time control,
 * clubs' and tournaments', on first use): about 13 KB against the classic build's 85 KB, and
 * cheaper to construct (issue 16). zod/mini sets no locale of its own, and the
 * classic build sets English only when its first schema is built, so the locale is set here, when
 * this module loads: the same messages whichever build a process loads first. That is this
 * module's side effect (package.json `sideEffects` names it, so a bundle keeps it); only `config`
 * and the locale are imported for it, so a bundle that builds no schema at its cold start carries
 * no more of zod than these. The engines keep the classic build, in the chunk a game's first
 * command loads.
 */
import { config } from 'zod/v4/core';
import en from 'zod/v4/locales/en.js';

config(en());

export * from 'zod/mini';
