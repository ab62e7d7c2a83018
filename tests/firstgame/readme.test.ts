import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_TYPES, type Notice } from '../../functions/notify/decide.js';
import { webhookPayload } from '../../functions/notify/payloads.js';
import { renderNotice } from '../../functions/notify/render.js';
import { ROOT } from '../support/run-script.js';

/**
 * Issue 9: the README promises what is sent. Its webhook section shows one example payload per
 * event type, and each has exactly the fields the server sends for that type; the two-terminal
 * walkthrough sets up notifications with the terminal client.
 */
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const section = readme.slice(readme.indexOf('### Webhook event types'), readme.indexOf('## Deploy to AWS'));

const base = {
  key: 'k',
  gameId: 'g',
  title: 'Spearpoint',
  engine: 'spearpoint-1943',
  player: 'bob',
  seats: ['de'],
  sides: ['Germany'],
  opponents: [{ seat: 'us', name: 'United States', player: 'alice' }],
  version: 3,
  hash: 'ab',
  at: '2026-11-24T09:00:00.000Z',
  asked: [],
};
const sent: Record<string, Notice> = {
  'game.turn': { ...base, kind: 'turn' },
  'game.started': { ...base, kind: 'started' },
  'game.ended': { ...base, kind: 'ended', outcome: { winners: ['us'], reason: 'r', result: 'lost', score: { us: 1, de: 0 } } },
  'game.invited': { ...base, kind: 'invited', invitedBy: 'alice' },
  'tournament.notice': {
    ...base,
    kind: 'tournament',
    tournament: {
      tournamentId: 't',
      name: 'Autumn Cup',
      round: 2,
      about: 'paired',
      text: 'round 2 of Autumn Cup, board 1: you play Germany against alice (United States) in game g.',
    },
  },
  'game.reminder': { ...base, kind: 'reminder', reminder: { level: '80%', deadline: '2026-11-27T09:00:00.000Z' } },
};

describe('the README and what is sent', () => {
  it('shows one example payload per webhook event type, with the fields the server sends', () => {
    const examples = [...section.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1]!) as { type: string });
    expect(examples.map((e) => e.type)).toEqual([...WEBHOOK_EVENT_TYPES]);
    for (const e of examples) {
      const real = webhookPayload('json', sent[e.type]!, renderNotice(sent[e.type]!, 'https://x'), 'dlv') as object;
      expect(Object.keys(e).sort(), e.type).toEqual(Object.keys(real).sort());
    }
    // The header names the same vocabulary, and no other list of types is kept in the README.
    expect(readme).not.toMatch(/game\.turn\|game\.started/);
    for (const t of WEBHOOK_EVENT_TYPES) expect(section).toContain(`\`${t}\``);
  });

  it('the two-terminal walkthrough sets up notifications with the settings command', () => {
    const walk = readme.slice(readme.indexOf('## Play Spearpoint 1943 from two terminals'), readme.indexOf('Options go in'));
    expect(walk).toMatch(/npm run cli -- settings email alice@example\.org/);
    expect(walk).toMatch(/npm run cli -- verify-email <code>/);
    expect(walk).toMatch(/npm run cli -- settings add-webhook \S+ --format (json|discord|slack)/);
    expect(walk.indexOf('settings email')).toBeLessThan(walk.indexOf('create spearpoint-1943'));
  });
});
