// Playing a game: what you see (show, board, events), your legal commands and sending one
// (legal, play, do), a sealed order's private draft, standing orders, and lapsed questions.
import { canonicalJson, type EngineDescription, type EventEnvelope } from '../../../domain/kernel/index.js';
import { ApiError, newCommandId } from '../client.js';
import { clearListing, loadDraft, loadListing, saveDraft, saveListing } from '../config.js';
import {
  explainCommand,
  formatBoard,
  formatEvent,
  formatGame,
  formatLegal,
  formatStandingOrders,
  glossary,
  staleChoice,
  type CommandReply,
  type GameViewBody,
} from '../format.js';
import { arg, client, gamePath, int, loginFor, out, parseJson, printResult, UsageError, type Commands, type Ctx } from './context.js';

const seatQuery = (seat?: string) => (seat ? `?seat=${encodeURIComponent(seat)}` : '');

async function send(ctx: Ctx, gameId: string, command: unknown, expectedVersion?: number, draft?: readonly unknown[]): Promise<void> {
  const body = {
    commandId: newCommandId(),
    command,
    ...(ctx.flags.seat ? { seat: ctx.flags.seat } : {}),
    ...(expectedVersion !== undefined ? { expectedVersion } : {}),
    ...(draft !== undefined ? { draft } : {}),
  };
  printResult(await client(ctx).request<CommandReply>('POST', gamePath(gameId, '/commands'), body), 'Sent');
}

const preview = (ctx: Ctx, gameId: string, steps: readonly unknown[]) =>
  client(ctx).request<GameViewBody>('POST', gamePath(gameId, '/preview'), { steps, ...(ctx.flags.seat ? { seat: ctx.flags.seat } : {}) });

/** The caller's view and legal commands, with their private draft (if any) tried on it by the server. */
async function legalOf(ctx: Ctx, gameId: string): Promise<GameViewBody> {
  const draft = loadDraft(ctx.url, gameId, ctx.flags.seat);
  if (draft) {
    let why: string;
    try {
      const v = await preview(ctx, gameId, draft.steps);
      if (v.drafting?.sealChoices.length) return v;
      why = 'you have no open order';
    } catch (e) {
      // The game moved on (the order was sealed elsewhere, the phase ended).
      if (!(e instanceof ApiError) || (e.status !== 400 && e.status !== 422)) throw e;
      why = e.message;
    }
    saveDraft(ctx.url, gameId, ctx.flags.seat, undefined);
    if (draft.steps.length) out(`Your draft no longer fits this game (${why}), so it was dropped. Its steps were:\n  ${JSON.stringify(draft.steps)}`);
  }
  return client(ctx).request<GameViewBody>('GET', gamePath(gameId, seatQuery(ctx.flags.seat)));
}

/** Events `show` reads back to find your last move and the last whole turn: a few turns of Spearpoint. */
const RECENT_EVENTS = 400;

/** The last RECENT_EVENTS events of the game that you may see. */
async function recentEvents(ctx: Ctx, gameId: string, version: number): Promise<EventEnvelope[]> {
  const q = new URLSearchParams({ after: String(Math.max(0, version - RECENT_EVENTS)), limit: String(RECENT_EVENTS) });
  if (ctx.flags.seat) q.set('seat', ctx.flags.seat);
  return (await client(ctx).request<{ events: EventEnvelope[] }>('GET', gamePath(gameId, `/events?${q}`))).events;
}

const listingOf = (ctx: Ctx, gameId: string, v: GameViewBody) => ({
  url: ctx.url,
  gameId,
  seat: v.seat,
  version: v.summary.version,
  commands: v.legalCommands,
  draft: v.drafting?.steps.length ?? 0,
});

/**
 * Remembers the numbered list a player has just been shown, so `play <n>` can tell when it went
 * stale. After "Nothing to do" the old list is forgotten: a number typed from it means nothing.
 */
function remember(ctx: Ctx, gameId: string, v: GameViewBody): void {
  if (v.legalCommands.length) saveListing(listingOf(ctx, gameId, v));
  else clearListing();
}

/** `play <n>` numbers refer to the list the player last saw; see staleChoice. */
function staleListing(ctx: Ctx, gameId: string, v: GameViewBody, n: number): string | undefined {
  return staleChoice(loadListing(), listingOf(ctx, gameId, v), n);
}

function describeDraft(steps: readonly unknown[], view: unknown): string[] {
  const names = glossary(view);
  return steps.map((c, i) => {
    const why = explainCommand(c, names);
    return `  ${i + 1}. ${JSON.stringify(c)}${why ? `\n     (${why})` : ''}`;
  });
}

export const playCommands: Commands = {
  async show(ctx) {
    const gameId = arg(ctx, 0, 'gameId');
    const v = await legalOf(ctx, gameId);
    remember(ctx, gameId, v);
    if (ctx.flags.json) return void out(JSON.stringify(v, null, 2));
    out(formatGame(v, loginFor(ctx)!.player, await recentEvents(ctx, gameId, v.summary.version)));
  },

  async board(ctx) {
    const gameId = arg(ctx, 0, 'gameId');
    out(formatBoard(await legalOf(ctx, gameId)));
  },

  async legal(ctx) {
    const gameId = arg(ctx, 0, 'gameId');
    const v = await legalOf(ctx, gameId);
    remember(ctx, gameId, v);
    if (v.legalCommands.length === 0) {
      out(v.summary.status === 'ended' ? 'The game is over.' : 'Nothing to do now: it is not your move.');
      return;
    }
    for (const line of formatLegal(v.legalCommands, v.view)) out(line);
    out(`Send one with:  npm run cli -- play ${gameId} <n>`);
    const d = v.drafting;
    if (d && d.stepChoices.length) {
      out(
        `Order steps go into your private draft${d.steps.length ? ` (now ${d.steps.length} step${d.steps.length === 1 ? '' : 's'}: npm run cli -- draft ${gameId})` : ''}; sealing sends it whole.`,
      );
    }
  },

  async play(ctx) {
    const gameId = arg(ctx, 0, 'gameId');
    const n = int(arg(ctx, 1, 'n'), '<n>')!;
    const v = await legalOf(ctx, gameId);
    const chosen = v.legalCommands[n - 1];
    const stale = staleListing(ctx, gameId, v, n);
    if (stale) throw new UsageError(stale);
    if (chosen === undefined)
      throw new UsageError(
        v.legalCommands.length ? `choose 1 to ${v.legalCommands.length}; see  npm run cli -- legal ${gameId}` : 'you have no legal command now',
      );
    const why = explainCommand(chosen, glossary(v.view));
    const drafting = v.drafting;
    if (drafting?.stepChoices.includes(n - 1)) {
      // A step of a sealed order: tried by the server, kept here, sent only with the seal.
      const after = await preview(ctx, gameId, [...drafting.steps, chosen]);
      // The server tidies the draft (a step that starts the order over drops the ones before it).
      const steps = after.drafting?.steps ?? [...drafting.steps, chosen];
      saveDraft(ctx.url, gameId, ctx.flags.seat, { steps });
      remember(ctx, gameId, after);
      out(`Drafted ${JSON.stringify(chosen)}${why ? `\n  (${why})` : ''}`);
      out(
        steps.length
          ? `Your draft has ${steps.length} step${steps.length === 1 ? '' : 's'}, kept on this computer: the other side learns nothing of it until you seal it.`
          : 'Your draft is empty: sealing now sends an empty order (it replaces any steps sent before).',
      );
      out(`See it with  npm run cli -- draft ${gameId};  next steps and the seal with  npm run cli -- legal ${gameId}`);
      return;
    }
    // A local draft, even an empty one, goes with the seal; with none, the seal is sent alone.
    const local = loadDraft(ctx.url, gameId, ctx.flags.seat);
    const draft = local && drafting?.sealChoices.includes(n - 1) ? drafting.steps : undefined;
    const withDraft =
      draft === undefined ? '' : draft.length ? ` with your draft of ${draft.length} step${draft.length === 1 ? '' : 's'}` : ' with your empty draft';
    out(`Playing ${JSON.stringify(chosen)}${withDraft}${why ? `\n  (${why})` : ''}`);
    // The choice was made on this version: if the game moved on meanwhile, refuse (409) rather than guess.
    await send(ctx, gameId, chosen, v.summary.version, draft);
    if (draft !== undefined) saveDraft(ctx.url, gameId, ctx.flags.seat, undefined);
  },

  async draft(ctx) {
    const gameId = arg(ctx, 0, 'gameId');
    if (ctx.flags.clear) {
      saveDraft(ctx.url, gameId, ctx.flags.seat, undefined);
      out('Draft dropped; nothing was ever sent.');
      return;
    }
    const v = await legalOf(ctx, gameId);
    const steps = v.drafting?.steps ?? [];
    if (!loadDraft(ctx.url, gameId, ctx.flags.seat)) {
      out(`No draft. Steps you choose with  npm run cli -- play ${gameId} <n>  collect here until you seal them.`);
      return;
    }
    if (!steps.length) {
      out(`Your draft is empty: sealing now sends an empty order. Drop it with  npm run cli -- draft ${gameId} --clear`);
      return;
    }
    out(`Your draft (on this computer only; sent whole when you seal it):`);
    for (const line of describeDraft(steps, v.view)) out(line);
    out(`Seal it with the SealOrder line of  npm run cli -- legal ${gameId};  start over with  npm run cli -- draft ${gameId} --clear`);
  },

  async do(ctx) {
    const gameId = arg(ctx, 0, 'gameId');
    const command = parseJson(arg(ctx, 1, 'command JSON'), 'the command');
    const expected = int(ctx.flags.expect, '--expect');
    if (loadDraft(ctx.url, gameId, ctx.flags.seat)) {
      // A private draft is waiting on this computer: a seal sent without it would seal an
      // order without its steps, and a step sent on its own would be replaced by the draft at
      // the seal. So the plain seal carries the draft (as play does), and anything else that
      // would leave the draft out is refused with the reason and the ways on.
      const v = await legalOf(ctx, gameId); // drops a draft that no longer fits, and says so
      const local = loadDraft(ctx.url, gameId, ctx.flags.seat);
      const d = v.drafting;
      if (local && d) {
        const same = (i: number) => canonicalJson(v.legalCommands[i]) === canonicalJson(command);
        const steps = d.steps.length;
        const draftWords = steps ? `your draft of ${steps} step${steps === 1 ? '' : 's'}` : 'your empty draft';
        if (d.sealChoices.some(same)) {
          out(`Sealing with ${draftWords} (kept on this computer until now): ${JSON.stringify(command)}`);
          await send(ctx, gameId, command, expected ?? v.summary.version, d.steps);
          saveDraft(ctx.url, gameId, ctx.flags.seat, undefined);
          return;
        }
        const type = (command as { type?: unknown } | null)?.type;
        const sealType = d.sealChoices.some((i) => (v.legalCommands[i] as { type?: unknown }).type === type);
        if (!d.stepChoices.some(same) && !sealType) {
          // Not part of the order (a standing order, say): sent as it is; the draft waits.
          process.stderr.write(
            `Note: ${draftWords} stays on this computer and is not part of this command (seal it with play, or drop it with  npm run cli -- draft ${gameId} --clear).\n`,
          );
          await send(ctx, gameId, command, expected);
          return;
        }
        const plainSeal = d.sealChoices.map((i) => v.legalCommands[i]).find((c) => Object.keys(c as object).length === 1);
        throw new UsageError(
          [
            `Not sent: you have ${draftWords} on this computer, and ${d.stepChoices.some(same) ? 'a step sent on its own would be replaced by it when you seal' : 'this command would leave it out'}.`,
            d.stepChoices.some(same)
              ? `Add the step to your draft with  npm run cli -- play ${gameId} <n>  (see  npm run cli -- legal ${gameId}).`
              : `Seal your draft with  npm run cli -- do ${gameId} '${JSON.stringify(plainSeal ?? { type: 'SealOrder' })}'  (or play the seal's number from  npm run cli -- legal ${gameId}).`,
            `See it with  npm run cli -- draft ${gameId};  drop it with  npm run cli -- draft ${gameId} --clear  and send this command again.`,
          ].join('\n'),
        );
      }
    }
    await send(ctx, gameId, command, expected);
  },

  async events(ctx) {
    const gameId = arg(ctx, 0, 'gameId');
    const q = new URLSearchParams();
    if (ctx.flags.after) q.set('after', String(int(ctx.flags.after, '--after')));
    if (ctx.flags.limit) q.set('limit', String(int(ctx.flags.limit, '--limit')));
    if (ctx.flags.seat) q.set('seat', ctx.flags.seat);
    const qs = q.toString();
    const r = await client(ctx).request<{ events: CommandReply['events']; version: number; next?: number; seats?: CommandReply['seats'] }>(
      'GET',
      gamePath(gameId, `/events${qs ? `?${qs}` : ''}`),
    );
    if (ctx.flags.json) {
      out(JSON.stringify(r, null, 2));
      return;
    }
    for (const e of r.events) out(formatEvent(e, r.seats));
    out(`(game version ${r.version}${r.next !== undefined ? `; more with --after ${r.next}` : ''})`);
  },

  async standing(ctx) {
    const gameId = arg(ctx, 0, 'gameId');
    const seat = ctx.flags.seat ? { seat: ctx.flags.seat } : {};
    if (ctx.flags.set !== undefined || ctx.flags.clear) {
      const orders = ctx.flags.clear ? [] : parseJson(ctx.flags.set!, '--set');
      const r = await client(ctx).request<CommandReply>('PUT', gamePath(gameId, '/standing-orders'), { commandId: newCommandId(), orders, ...seat });
      printResult(r, ctx.flags.clear ? 'Standing orders cleared' : 'Standing orders set');
      return;
    }
    const v = await client(ctx).request<GameViewBody & { standingOrders?: { topic: string; rule: string; params?: unknown }[] }>(
      'GET',
      gamePath(gameId, ctx.flags.seat ? `?seat=${encodeURIComponent(ctx.flags.seat)}` : ''),
    );
    const { engines } = await client(ctx).request<{ engines: EngineDescription[] }>('GET', '/v1/engines');
    const offered = engines.find((e) => e.id === v.summary.engine)?.standingOrders ?? [];
    out(formatStandingOrders(v.standingOrders ?? [], offered, gameId));
  },

  async lapse(ctx) {
    const gameId = arg(ctx, 0, 'gameId');
    const body = { commandId: newCommandId(), window: arg(ctx, 1, 'windowId'), ...(ctx.flags.seat ? { seat: ctx.flags.seat } : {}) };
    printResult(await client(ctx).request<CommandReply>('POST', gamePath(gameId, '/lapse'), body), 'Lapsed');
  },
};
