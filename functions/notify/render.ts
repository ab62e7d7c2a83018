import { listing as listWords, sideAndPlayer, sideName, withSideNames } from '../app/names.js';
import type { Notice } from './decide.js';
import { clockInWords } from '../app/clocks.js';

/**
 * The words of a notice, shared by email, JSON webhooks and chat payloads: which game, who
 * the opponents are, what is asked, the deadline, a link, and the event hash as a receipt
 * (the player can check it against the last event of the game's log).
 */
export interface Rendered {
  readonly subject: string;
  /** One line, for chat channels and the JSON payload's `text`. */
  readonly headline: string;
  readonly link: string;
  readonly opponents: string;
  /** The recipient's partners in a team game, in words ('' without). */
  readonly partners: string;
  readonly asked: readonly string[];
  readonly deadline: string | undefined;
  readonly receipt: string;
  readonly text: string;
  readonly html: string;
}

export const gameLink = (appUrl: string, gameId: string) => `${appUrl.replace(/\/+$/, '')}/games/${encodeURIComponent(gameId)}`;

const who = (o: { name: string; player: string | null }) => (o.player === null ? `${o.name} (open seat)` : `${o.player} (${o.name})`);

const listing = (xs: readonly string[]) => listWords(xs, 'nobody yet');
const endSeats = (n: Notice) => [
  ...n.seats.map((id, i) => ({ id, name: n.sides?.[i] ?? n.asked.find((a) => a.seat === id)?.name ?? id, player: n.player })),
  ...n.opponents.map((o) => ({ id: o.seat, name: o.name, player: o.player })),
  ...(n.partners ?? []).map((o) => ({ id: o.seat, name: o.name, player: o.player })),
];

const kindNote = { move: '', sealed: ' (a sealed order: nobody sees it until all have submitted)', reaction: " (a reaction on another seat's turn)" } as const;

/** A tournament notice's link: the game it is about, or the tournament itself. */
const tournamentLink = (appUrl: string, tournamentId: string) => `${appUrl.replace(/\/+$/, '')}/v1/tournaments/${encodeURIComponent(tournamentId)}`;

export function renderNotice(n: Notice, appUrl: string): Rendered {
  const link = n.kind === 'tournament' && n.gameId === '' && n.tournament ? tournamentLink(appUrl, n.tournament.tournamentId) : gameLink(appUrl, n.gameId);
  const opponents = listing(n.opponents.map(who));
  const partners = n.partners?.length ? listWords(n.partners.map(who), '') : '';
  const withPartners = partners ? `, with your partner${n.partners!.length > 1 ? 's' : ''} ${partners}` : '';
  const game = `${n.title} (game ${n.gameId})`;
  const asked = n.asked.map((a) => `${a.name}: ${a.prompt}${kindNote[a.kind]}`);
  const deadlines = n.asked
    .map((a) => a.deadline)
    .filter((d): d is string => d !== undefined)
    .sort();
  const deadline = deadlines[0];
  const receipt = `version ${n.version}, event hash ${n.hash}`;
  let subject: string;
  let headline: string;
  switch (n.kind) {
    case 'turn':
      subject = `Your move in ${n.title} against ${opponents}`;
      headline = `${n.player}: it is your move in ${game} against ${opponents}${withPartners}.`;
      break;
    case 'started':
      subject = n.asked.length ? `${n.title} has started: your move against ${opponents}` : `${n.title} has started against ${opponents}`;
      headline = `${n.player}: ${game} has started against ${opponents}${withPartners}; ${n.asked.length ? 'it is your move.' : 'it is not your move yet.'}`;
      break;
    case 'ended': {
      const r = n.outcome?.result;
      const verdict = r === 'won' ? 'you won' : r === 'lost' ? 'you lost' : r === 'cancelled' ? 'cancelled' : 'a draw';
      subject = `${n.title} is over: ${verdict}`;
      headline = `${n.player}: ${game} against ${opponents} is over (${verdict}: ${n.outcome ? withSideNames(n.outcome.reason, endSeats(n)) : 'ended'}).`;
      break;
    }
    case 'reminder': {
      const gone = n.reminder?.level === '24h' ? 'a day of your time is left' : `${n.reminder?.level ?? 'most'} of your time is gone`;
      subject = `Reminder: ${gone} in ${n.title} against ${opponents}`;
      headline = `${n.player}: ${gone} for your move in ${game} against ${opponents}${withPartners}; move by ${n.reminder?.deadline ?? deadline ?? 'the deadline'} or lose on time.`;
      break;
    }
    case 'invited':
      subject = `${n.invitedBy ?? 'Someone'} invited you to ${n.title}`;
      headline = `${n.player}: ${n.invitedBy ?? 'someone'} reserved a seat for you in ${game}; join it to play against ${opponents}.`;
      break;
    case 'tournament':
      subject = `${n.tournament?.name ?? 'Tournament'}: ${n.tournament?.about === 'paired' ? `round ${n.tournament.round ?? ''} paired` : (n.tournament?.about ?? 'news')}`;
      headline = `${n.player}: ${n.tournament?.text ?? ''}`;
      break;
  }
  // Seats are named by side ("United States"), never by id ("us").
  const seats = endSeats(n);
  const lines = [
    `Hello ${n.player},`,
    '',
    headline.slice(n.player.length + 2),
    ...(n.seats.length ? [`You play ${listing(n.seats.map((id) => sideName(seats, id)))}.`] : []),
  ];
  if (asked.length) lines.push('', 'What is asked:', ...asked.map((a) => `  - ${a}`), '', deadline ? `Deadline: ${deadline}` : 'Deadline: none set.');
  if (n.clocks?.length) lines.push('', 'Clocks:', ...n.clocks.map((c) => `  - ${sideAndPlayer(seats, c.seat)}: ${clockInWords(c)}`));
  if (n.kind === 'ended' && n.outcome) {
    lines.push(
      '',
      `Winners: ${n.outcome.winners.length ? listing(n.outcome.winners.map((w) => sideAndPlayer(seats, w))) : 'none'}. ${withSideNames(n.outcome.reason, seats)}.`,
    );
    if (n.outcome.score)
      lines.push(
        `Score: ${Object.entries(n.outcome.score)
          .map(([s, v]) => `${sideName(seats, s)} ${v}`)
          .join(', ')}.`,
      );
  }
  lines.push(
    '',
    `Open the game: ${link}`,
    '',
    `Receipt: ${receipt}. The game's log ends with this hash at this version; an exported log can be verified against it.`,
  );
  const text = lines.join('\n') + '\n';
  const html = `<!doctype html><html><body style="font-family:sans-serif">${lines
    .map((l) => (l === '' ? '<br>' : `<div>${escapeHtml(l).replace(escapeHtml(link), `<a href="${escapeHtml(link)}">${escapeHtml(link)}</a>`)}</div>`))
    .join('')}</body></html>`;
  return { subject, headline, link, opponents, partners, asked, deadline, receipt, text, html };
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/**
 * Where a verification mail's link goes: a page of the app at APP_URL (locally, the runtime's
 * own /verify-email page) that shows a Confirm button; opening it changes nothing (see
 * functions/notify/email-verification.ts for why).
 */
export const verifyLink = (appUrl: string, token: string) => `${appUrl.replace(/\/+$/, '')}/verify-email?token=${encodeURIComponent(token)}`;

/** The mail that asks the owner of an address to confirm it before any notice is sent there. */
export function renderVerificationMail(v: { player: string; email: string; link: string; token: string; expiresAt: string }): {
  subject: string;
  text: string;
  html: string;
} {
  const subject = 'Confirm your email address for Fieldpost';
  const lines = [
    `Hello ${v.player},`,
    '',
    `Someone signed in as ${v.player} asked Fieldpost to send game notices (your move, game started or over, invitations) to ${v.email}.`,
    'Nothing is sent here until the address is confirmed. To confirm it, open this link while signed in as that player and press Confirm:',
    '',
    v.link,
    '',
    `Or confirm with the code below, from the terminal client (npm run cli -- verify-email <code>) or as {"token": "<code>"} to POST /v1/me/email/verify. It works once, until ${v.expiresAt}:`,
    '',
    v.token,
    '',
    'If this was not you, ignore this mail: without confirmation this address receives nothing more.',
  ];
  const text = lines.join('\n') + '\n';
  const html = `<!doctype html><html><body style="font-family:sans-serif">${lines
    .map((l) => (l === '' ? '<br>' : l === v.link ? `<div><a href="${escapeHtml(v.link)}">${escapeHtml(v.link)}</a></div>` : `<div>${escapeHtml(l)}</div>`))
    .join('')}</body></html>`;
  return { subject, text, html };
}
