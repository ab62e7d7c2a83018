import { webhookEventType, type Notice, type WebhookEventType } from './decide.js';
import type { Rendered } from './render.js';

export type WebhookFormat = 'json' | 'discord' | 'slack';

/** The JSON a plain webhook receives. Versioned so receivers can evolve with it. */
export interface JsonPayload {
  readonly id: string;
  readonly type: WebhookEventType;
  readonly apiVersion: 'fieldpost-webhook/1';
  readonly createdAt: string;
  readonly text: string;
  readonly player: string;
  readonly seats: readonly string[];
  /** The names of `seats` ("United States"), for text; `seats` are ids, for programs. */
  readonly sides: readonly string[];
  readonly asked: Notice['asked'];
  readonly opponents: Notice['opponents'];
  /** In team games: the other seats of the recipient's side. */
  readonly partners?: Notice['opponents'];
  readonly game: {
    readonly id: string;
    readonly title: string;
    readonly engine: string;
    readonly url: string;
    readonly version: number;
    readonly hash: string;
  };
  readonly invitedBy?: string;
  readonly outcome?: Notice['outcome'];
  /** Tournament notices: the tournament, the round, what happened and the same in words. */
  readonly tournament?: Notice['tournament'];
  /** game.reminder: how much of the move time is gone (50%, 80%, or 24h: a day left) and the deadline. */
  readonly reminder?: Notice['reminder'];
}

/** Slack mrkdwn treats &, < and > as markup. */
const slackEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
/** Discord markdown: neutralise formatting characters in player-chosen names. */
const discordEscape = (s: string) => s.replace(/([\\*_~`|>[\]()])/g, '\\$1');

export function webhookPayload(format: WebhookFormat, n: Notice, r: Rendered, deliveryId: string): unknown {
  switch (format) {
    case 'json': {
      const p: JsonPayload = {
        id: deliveryId,
        type: webhookEventType(n.kind),
        apiVersion: 'fieldpost-webhook/1',
        createdAt: n.at,
        text: r.headline,
        player: n.player,
        seats: n.seats,
        sides: n.sides ?? n.seats,
        asked: n.asked,
        opponents: n.opponents,
        ...(n.partners?.length ? { partners: n.partners } : {}),
        game: { id: n.gameId, title: n.title, engine: n.engine, url: r.link, version: n.version, hash: n.hash },
        ...(n.invitedBy !== undefined ? { invitedBy: n.invitedBy } : {}),
        ...(n.outcome ? { outcome: n.outcome } : {}),
        ...(n.tournament ? { tournament: n.tournament } : {}),
        ...(n.reminder ? { reminder: n.reminder } : {}),
      };
      return p;
    }
    case 'discord':
      // https://discord.com/developers/docs/resources/webhook#execute-webhook: content + embeds.
      // allowed_mentions.parse = [] so a player named "@everyone" pings nobody.
      return {
        username: 'Fieldpost',
        content: discordEscape(r.headline),
        allowed_mentions: { parse: [] },
        embeds: [
          {
            title: discordEscape(r.subject).slice(0, 256),
            url: r.link,
            description:
              [...r.asked.map((a) => `• ${discordEscape(a)}`), r.deadline ? `Deadline: ${r.deadline}` : ''].filter(Boolean).join('\n').slice(0, 4000) ||
              undefined,
            footer: { text: `Receipt: ${r.receipt}` },
            timestamp: n.at,
          },
        ],
      };
    case 'slack':
      // Slack incoming webhooks: text (fallback) + blocks.
      return {
        text: r.headline,
        blocks: [
          { type: 'section', text: { type: 'mrkdwn', text: `*${slackEscape(r.subject)}*\n${slackEscape(r.headline)}` } },
          ...(r.asked.length
            ? [
                {
                  type: 'section',
                  text: {
                    type: 'mrkdwn',
                    text: r.asked.map((a) => `• ${slackEscape(a)}`).join('\n') + (r.deadline ? `\nDeadline: ${slackEscape(r.deadline)}` : ''),
                  },
                },
              ]
            : []),
          { type: 'section', text: { type: 'mrkdwn', text: `<${r.link}|Open the game>` } },
          { type: 'context', elements: [{ type: 'mrkdwn', text: `Receipt: ${slackEscape(r.receipt)}` }] },
        ],
      };
  }
}
