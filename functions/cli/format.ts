// The terminal's words for what the server sends, one module a subject under format/. The CLI,
// the web client (web/src/pages/game.tsx) and the tests read them through this index.
export { formatEngine, formatStandingOrders } from './format/engines.js';
export { describeEvent, formatEvent, lastTurn, ownerOf, sinceMyLastMove } from './format/events.js';
export { formatBoard, formatGame, readableJson, type CommandReply, type GameViewBody } from './format/game.js';
export { formatLegal, legalGroups, staleChoice } from './format/legal.js';
export { formatInbox, formatLobby } from './format/lists.js';
export { explainCommand, glossary } from './format/names.js';
export { formatSettings } from './format/settings.js';
