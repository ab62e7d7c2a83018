// What a game system offers: an engine of GET /v1/engines, and a seat's standing orders.
import type { EngineDescription, StandingOrder } from '../../../domain/kernel/index.js';

/** One engine of GET /v1/engines, as a player choosing a game reads it. */
export function formatEngine(e: EngineDescription): string {
  const lines = [`${e.title}  (create ${e.id})`, `  seats: ${e.seats.join(' or ')}; sides: ${e.sides.map((x) => `${x.name} (${x.id})`).join(', ')}`];
  if (e.scenarios) {
    lines.push(`  scenarios (--options '{"${e.scenarios.option}":"<id>"}'):`);
    for (const c of e.scenarios.choices) lines.push(`    ${c.id}: ${c.title}. ${c.description}`);
  }
  if (e.standingOrders.length) {
    lines.push('  standing orders:');
    for (const o of e.standingOrders) lines.push(`    {"topic":"${o.topic}","rule":"${o.rule}"}: ${o.description}`);
  }
  if (e.drafts) lines.push('  sealed orders are drafted privately on your computer and sent whole when sealed');
  return lines.join('\n');
}

/** A seat's standing orders and the ones its game offers. */
export function formatStandingOrders(mine: readonly StandingOrder[], offered: EngineDescription['standingOrders'], gameId: string): string {
  if (offered.length === 0) return 'This game offers no standing orders.';
  const lines = [mine.length ? 'Your standing orders, tried in this order:' : 'You have no standing orders: every question waits for you.'];
  for (const [i, o] of mine.entries()) {
    const rule = offered.find((r) => r.topic === o.topic && r.rule === o.rule);
    lines.push(`  ${i + 1}. ${o.topic}/${o.rule}${o.params !== undefined ? ` ${JSON.stringify(o.params)}` : ''}: ${rule?.description ?? ''}`);
  }
  lines.push('', 'Offered:');
  for (const r of offered) lines.push(`  {"topic":"${r.topic}","rule":"${r.rule}"}: ${r.description}`);
  lines.push('', `Set them (the list replaces the old one):  npm run cli -- standing ${gameId} --set '[{"topic":"...","rule":"..."}]'`);
  lines.push(`Clear them:  npm run cli -- standing ${gameId} --clear`);
  return lines.join('\n');
}
