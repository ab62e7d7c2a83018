import { describe, expect, it } from 'vitest';
import type { AnyEngine } from '../../domain/kernel/index.js';
import { spearpoint } from '../../domain/spearpoint/index.js';
import { formatLegal } from '../../functions/cli/format.js';
import { MemoryGame } from '../kernel/play.js';

/**
 * Issue 9: the legal list a new player reads. Spearpoint's Target Declaration offers every
 * attacker × target × weapons: listed one command a line with its JSON, that is a wall of
 * unexplained entries. Grouped by kind (a line saying what it does) and by unit, with options
 * that share a target on one line and identical-looking units listed once, it fits a screen.
 */
const engine = spearpoint as unknown as AnyEngine;

function declaration() {
  const g = new MemoryGame(engine, 'ab'.repeat(32), 'g');
  g.create({}, 'alice');
  g.join('alice', 'us');
  g.join('bob', 'de');
  g.play('alice', { type: 'AutoPickHand' });
  g.play('bob', { type: 'AutoPickHand' });
  for (const [player, seat] of [
    ['alice', 'us'],
    ['bob', 'de'],
  ] as const) {
    for (let i = 0; i < 6; i++) {
      const c = engine.legalCommands(g.state!.game, seat).find((x: { type: string }) => x.type === 'CommitUnit');
      if (!c) break;
      g.play(player, c);
    }
    g.play(player, { type: 'SealOrder' });
  }
  const legal = engine.legalCommands(g.state!.game, 'us') as { type: string; attacker?: string }[];
  return { legal, view: engine.view(g.state!.game, { kind: 'seat', seat: 'us' }) };
}

describe('the legal list, grouped', () => {
  it('says what each kind does, groups by unit, puts one target on one line, and lists identical units once', () => {
    const { legal, view } = declaration();
    expect(legal.length).toBeGreaterThan(40);
    const lines = formatLegal(legal, view);
    expect(lines.length).toBeLessThan(legal.length / 2);
    // A line per kind that says what it does.
    expect(lines).toContain('Declare an attack: your unit fires at a target with one or two of its weapons (order step):');
    expect(lines.some((l) => l.startsWith('Seal your order'))).toBe(true);
    // One line per attacker and target, its weapon choices numbered on it.
    expect(lines).toContainEqual(expect.stringMatching(/^ {6}→ \S.* \(de-\d+\): \d+\. with .+ {3}\d+\. with .+ \+ .+ {3}\d+\. with /));
    // Two Rifle Squads fresh in hand are interchangeable: one group names both, and no number is listed twice.
    const rifles = lines.filter((l) => /Rifle Squad \(us-/.test(l) && !l.includes('→'));
    expect(rifles).toEqual([expect.stringMatching(/^ {4}Rifle Squad \(us-00\d or us-00\d: identical\)$/)]);
    const numbers = lines.flatMap((l) => [...l.matchAll(/(?:^|\s)(\d+)\./g)].map((m) => Number(m[1])));
    expect(new Set(numbers).size).toBe(numbers.length);
    // Every command is listed, or one just like it on an identical unit.
    const shown = new Set(numbers);
    const riflesIds = new Set(
      legal.filter((c) => c.attacker && /Rifle Squad/.test(JSON.stringify(view)) && !shown.has(legal.indexOf(c) + 1)).map((c) => c.attacker),
    );
    for (const [i] of legal.entries()) if (!shown.has(i + 1)) expect(riflesIds.has(legal[i]!.attacker)).toBe(true);
    // No command JSON in the list: words a player reads.
    expect(lines.join('\n')).not.toMatch(/\{"type"/);
  });
});
