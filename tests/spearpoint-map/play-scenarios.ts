import '../../functions/quiet-sdk.js';
import { seededRng, verifyLog, type EventEnvelope } from '../../domain/kernel/index.js';
import { registry } from '../../domain/registry.js';
import { startLocalRuntime } from '../../functions/local/runtime.js';
import { cid, http } from '../http/support.js';

/**
 * `npm run play-map-scenarios` (not part of `npm test`): every scenario GET /v1/engines lists for
 * spearpoint-1943-map is played over HTTP on the local runtime (DynamoDB Local) to its own end:
 * `maxTurns` is set to the option's largest value (60), far beyond every scenario's own length,
 * so the game ends by the scenario's victory condition unless that limit is reached (printed).
 * Each seat chooses, seeded, only among the legalCommands the server lists; each export is verified.
 * One line per scenario.
 */
type Command = { type: string; [k: string]: unknown };
const ENGINE = 'spearpoint-1943-map';
const MAX_TURNS = 60;

const rt = await startLocalRuntime({ memory: true, engines: registry, log: () => {} });
let failures = 0;
try {
  const api = http(rt.url);
  const token = {} as Record<'us' | 'de', string>;
  for (const [seat, player] of [
    ['us', 'alice'],
    ['de', 'bob'],
  ] as const)
    token[seat] = (await api.post('/local/token', undefined, { player })).body.token as string;
  const engines = (await api.get('/v1/engines', token.us)).body.engines as { id: string; scenarios?: { choices: { id: string }[] } }[];
  const scenarios = engines.find((e) => e.id === ENGINE)!.scenarios!.choices.map((c) => c.id);
  for (const scenario of scenarios) {
    const started = Date.now();
    try {
      const line = await playToEnd(api, token, scenario);
      console.log(`${scenario.padEnd(18)} ${line} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    } catch (e) {
      failures++;
      console.log(`${scenario.padEnd(18)} FAILED: ${(e as Error).message}`);
    }
  }
} finally {
  await rt.stop();
}
process.exitCode = failures ? 1 : 0;

async function playToEnd(api: ReturnType<typeof http>, token: Record<'us' | 'de', string>, scenario: string): Promise<string> {
  const created = await api.post('/v1/games', token.us, { engine: ENGINE, options: { scenario, maxTurns: MAX_TURNS }, seat: 'us', commandId: cid('create') });
  if (created.status !== 201) throw new Error(`create: ${created.status} ${JSON.stringify(created.body)}`);
  const gameId = created.body.gameId as string;
  const joined = await api.post(`/v1/games/${gameId}/join`, token.de, { commandId: cid('join') });
  if (joined.status !== 200) throw new Error(`join: ${joined.status}`);
  const pick = seededRng({ seed: 'a7'.repeat(32), gameId: scenario, entropy: [], counter: 0 });
  const sent = { us: 0, de: 0 };
  for (;;) {
    const v = await api.get(`/v1/games/${gameId}`, token.us);
    if (v.body.summary.status === 'ended') break;
    const seat = (v.body.pending as { seat: 'us' | 'de' }[])[0]!.seat;
    const mine = seat === 'us' ? v : await api.get(`/v1/games/${gameId}`, token.de);
    const legal = mine.body.legalCommands as Command[];
    if (!legal.length) throw new Error(`no legal command for the pending seat ${seat}, version ${mine.body.summary.version}`);
    const busy = legal.filter((c) => c.type !== 'Done');
    const command = busy.length && pick.int(4) ? busy[pick.int(busy.length)]! : legal[pick.int(legal.length)]!;
    const res = await api.post(`/v1/games/${gameId}/commands`, token[seat], { commandId: cid(seat), command, expectedVersion: mine.body.summary.version });
    if (res.status !== 200) throw new Error(`listed ${JSON.stringify(command)} refused: ${res.status} ${JSON.stringify(res.body)}`);
    sent[seat]++;
  }
  const ex = await api.get(`/v1/games/${gameId}/export`, token.us);
  const events = ex.body.events as EventEnvelope[];
  const report = verifyLog(events, registry.get);
  if (!report.ok) throw new Error(`export does not verify: ${JSON.stringify(report.problems).slice(0, 300)}`);
  const outcome = report.outcome as { winners: string[]; reason: string } | undefined;
  const turns = events.filter((e) => e.type === 'TurnBegan').length;
  const capped = outcome?.reason.includes('turn limit') ?? false;
  return `ended after ${turns} turns, ${events.length} events, commands us ${sent.us} / de ${sent.de}; winners ${outcome?.winners.join(',') || 'none'}: ${outcome?.reason}${capped ? ' [Fieldpost turn limit]' : ''}; export verifies`;
}
