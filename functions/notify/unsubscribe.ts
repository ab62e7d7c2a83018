import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { NoticeKind } from './decide.js';

/**
 * One-click unsubscribe (RFC 8058) for notification mail. Each mail carries
 *   List-Unsubscribe: <https://api/v1/unsubscribe?player=P&kind=K&token=T>
 *   List-Unsubscribe-Post: List-Unsubscribe=One-Click
 * and a POST to that URL, with no sign-in, stops mailing that kind of notice to that player.
 * The token is HMAC-SHA256 over the player and the kind with a key kept in the player's own
 * settings item (made on first use, never shown), so it cannot be guessed or made for another
 * player or another kind, and dropping the key revokes every link. A GET changes nothing
 * (mail scanners open links), as RFC 8058 requires.
 */
export const UNSUBSCRIBE_PATH = '/v1/unsubscribe';

/** Every notification mail is machine-made (RFC 3834): auto-responders must not answer it. */
export const AUTO_SUBMITTED_HEADERS: Readonly<Record<string, string>> = { 'Auto-Submitted': 'auto-generated' };

export const newUnsubscribeKey = (): string => randomBytes(32).toString('hex');

export function unsubscribeToken(key: string, player: string, kind: NoticeKind): string {
  return createHmac('sha256', Buffer.from(key, 'hex')).update(`fieldpost-unsubscribe\n${player}\n${kind}`).digest('base64url');
}

export function unsubscribeTokenOk(key: string | undefined, player: string, kind: NoticeKind, token: string): boolean {
  if (!key) return false;
  const want = Buffer.from(unsubscribeToken(key, player, kind));
  const got = Buffer.from(token);
  return got.length === want.length && timingSafeEqual(got, want);
}

export function unsubscribeUrl(apiUrl: string, player: string, kind: NoticeKind, key: string): string {
  const q = new URLSearchParams({ player, kind, token: unsubscribeToken(key, player, kind) });
  return `${apiUrl.replace(/\/+$/, '')}${UNSUBSCRIBE_PATH}?${q.toString()}`;
}

/** The headers of a notice mail: one-click unsubscribe from this kind of notice, and machine-made. */
export function noticeMailHeaders(url: string): Record<string, string> {
  return { 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click', ...AUTO_SUBMITTED_HEADERS };
}
