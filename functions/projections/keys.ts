import type { InboxModel, LobbyModel } from './project.js';

/**
 * The read models' keys: project.ts says what is in each item, read-model-store.ts writes and
 * reads them, and the fair limits (functions/http/limits.ts) count a player's games by them
 * without loading either.
 */

export const SUMMARY_SK = 'SUMMARY';
export const LOBBY_PK = 'LOBBY';
export const summaryPk = (gameId: string) => `SUMMARY#${gameId}`;
export const inboxPk = (player: string) => `INBOX#${player}`;
/** The sort key of the inbox and lobby items before issue 16 (each had a PAGE# twin): read only to clean them up. */
export const gameSk = (gameId: string) => `GAME#${gameId}`;

/**
 * ONE ITEM PER ENTRY. The inbox and lobby are listed in an order no GAME#<gameId> key has ("your
 * move" first, longest waiting first, then most recently changed; the lobby newest first). Each
 * entry's place in that order is its listing key:
 *   INBOX#<player>  PAGE#0#<since>#<gameId>                  your move, oldest first
 *                   PAGE#1#<updatedAt, digits 9-d>#<gameId>  the rest, newest change first
 *   LOBBY           PAGE#<createdAt, digits 9-d>#<gameId>    newest game first
 * A game over, and a lobby entry, keep their place for good, so their sort key is their listing
 * key: a page of them is one Query with Limit and ExclusiveStartKey; ties fall to the gameId. An
 * inbox entry of a game not yet over moves in the list at almost every turn, which as a sort key
 * would cost a delete and a put each time; it stays at ACTIVE#<gameId> instead (a put when it
 * changes), and a page reads them all (at most a player's seat limit) and merges them by listing
 * key with the PAGE# items (ReadModelStore.inboxPage). Where a game's entries are (their sort
 * keys, which move) is kept on its SUMMARY item (`entries`), which the projector reads anyway.
 * Tables written before kept a GAME#<gameId> item beside each PAGE# item, and a running game's
 * entry at its listing key: the projector moves a game's entries at its next change, the rebuild
 * sweeps the rest.
 */
export const PAGE_PREFIX = 'PAGE#';
export const ACTIVE_PREFIX = 'ACTIVE#';
/** Complementing every digit reverses the order of timestamps written in one format (ISO-8601). */
const descending = (t: string) => t.replace(/[0-9]/g, (d) => String(9 - Number(d)));
export const inboxPageSk = (i: Pick<InboxModel, 'yourMove' | 'since' | 'updatedAt' | 'gameId'>): string =>
  i.yourMove ? `${PAGE_PREFIX}0#${i.since}#${i.gameId}` : `${PAGE_PREFIX}1#${descending(i.updatedAt)}#${i.gameId}`;
export const lobbyPageSk = (l: Pick<LobbyModel, 'createdAt' | 'gameId'>): string => `${PAGE_PREFIX}${descending(l.createdAt)}#${l.gameId}`;
/** Where an inbox entry is stored: a game over at its listing key, any other at a key of its own. */
export const inboxEntrySk = (i: Pick<InboxModel, 'status' | 'yourMove' | 'since' | 'updatedAt' | 'gameId'>): string =>
  i.status === 'ended' ? inboxPageSk(i) : `${ACTIVE_PREFIX}${i.gameId}`;
