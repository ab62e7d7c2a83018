import { parseArgs } from 'node:util';
import { ApiError } from './client.js';
import { loadConfig, resolveUrl } from './config.js';
import { maskDashWords } from './args.js';
import { CLUB_HELP, ClubUsageError } from './tournament.js';
import { NOTICE_KINDS } from '../notify/decide.js';
import { REMINDER_LEVELS } from '../../domain/kernel/index.js';
import { accountCommands } from './commands/account.js';
import { clubCommands } from './commands/clubs.js';
import { out, UsageError, type Commands } from './commands/context.js';
import { gameCommands } from './commands/games.js';
import { playCommands } from './commands/play.js';
import { recordCommands } from './commands/records.js';

const HELP = `Fieldpost terminal client.  npm run cli -- <command> [args] [--url URL]

  login <player>                      get a local token (npm start serves /local/token) and remember it
  whoami                              who you are signed in as, and where
  engines                             the game systems this server plays: seats, sides,
                                      scenarios, options and the standing orders they offer
  create <engine> [--options JSON] [--seat S] [--reserve seat=player ...] [--entropy X]
         [--time per-move:DAYS | bank:DAYS+DAYS] [--weekends-off] [--window-share F] [--rated]
                                      (--seat: you take that seat at once; --rated: a two-player
                                      game that counts for both players' ratings; --time: days per move,
                                      or a bank plus an increment a move, e.g. bank:30+3; a seat
                                      whose time runs out loses; --weekends-off: clocks rest on
                                      Saturdays and Sundays; --window-share: the share of a move's
                                      time a question on another's turn stays open)
  join <gameId> [--seat S] [--entropy X]   (entropy: your randomness mixed into every die;
                                      random by default)
  games                               your games, "YOUR MOVE" first: whom you play, what is asked, until when
  lobby                               open games with free seats
  show <gameId> [--seat S] [--json]   the board as you see it, what changed since your last move,
                                      the last turn, who must act, your legal commands (--json:
                                      the raw view)
  board <gameId> [--seat S]           just the board, as text
  legal <gameId> [--seat S]           your legal commands, numbered
  play <gameId> <n> [--seat S]        send the n-th command of the list you last saw (refused if
                                      the game has moved on and the n-th command changed); a step
                                      of a sealed order goes into your private draft instead
  draft <gameId> [--clear] [--seat S] the order you are drafting: kept on this computer, sent
                                      whole when you seal it, so the other side learns nothing
  do <gameId> '<command JSON>' [--seat S] [--expect VERSION]   (alias: send; with a draft on this
                                      computer, the seal carries it and other order commands are refused)
  events <gameId> [--after N] [--limit N] [--seat S]
  standing <gameId> [--set JSON | --clear] [--seat S]   your standing orders: answers the
                                      server gives for you when a question is put to you, e.g.
                                      --set '[{"topic":"intercept","rule":"never"}]'
  lapse <gameId> <windowId> [--seat S]   take the default answer of a question whose time ran out
  resign <gameId> [--seat S]
  cancel <gameId>                     withdraw a game you created that has not started
  claim <gameId> [--seat S]           win on time: the others let the game's time limit pass
  export <gameId> [file] [--limit N]  the full log of a finished game (stdout without file); a
                                      log too long for one response is read in pages of N events
  verify <file> [--engines MODULE]    audit an exported log
  settings                            your notification channels: email, webhooks, which notices are mailed
  settings email <address|none>       mail your notices there (a code is mailed to confirm it: verify-email)
  settings add-webhook <url> [--format json|discord|slack] [--secret S]
                                      post notices there (a JSON receiver gets a signing secret, shown once)
  settings remove-webhook <id>        stop posting to that webhook
  settings mail <${NOTICE_KINDS.join('|')}> on|off   which notices are mailed
  settings reminder <${REMINDER_LEVELS.join('|')}> on|off   which reminders are sent (half, 80% of your move time gone, a day left)
  settings digest <hour> [--tz Zone]  one mail a day at that hour (UTC unless --tz) listing your games on move, instead of each "your move"
  settings digest off                 back to one mail per move
  verify-email <code>                 confirm your notification email with the code mailed to it
  vacation [on [days] | off]          your yearly leave (30 days unless the server says otherwise):
                                      your clocks stop in every game until it ends or you are back
  clock +<N>h | +<N>d                 move a local server's clock forward (npm start only): deadlines
                                      that pass are run at once
${CLUB_HELP}

Server: --url, else $FIELDPOST_URL, else the last login (default http://127.0.0.1:3000).
Token: $FIELDPOST_TOKEN (e.g. a Cognito ID token for a deployed server), else the saved login.
Tokens live in $FIELDPOST_HOME or ~/.fieldpost. Commands are retried with the same commandId.`;

/** Every command by its word; each group lives in functions/cli/commands/. */
const commands: Commands = {
  async help() {
    out(HELP);
  },
  ...accountCommands,
  ...gameCommands,
  ...playCommands,
  ...recordCommands,
  ...clubCommands,
};
commands['send'] = commands['do']!;

async function main(argv: string[]): Promise<number> {
  let parsed;
  const masked = maskDashWords(argv);
  try {
    parsed = parseArgs({
      args: masked.args,
      allowPositionals: true,
      options: {
        url: { type: 'string' },
        options: { type: 'string' },
        seat: { type: 'string' },
        reserve: { type: 'string', multiple: true },
        entropy: { type: 'string' },
        after: { type: 'string' },
        limit: { type: 'string' },
        expect: { type: 'string' },
        engines: { type: 'string', multiple: true },
        json: { type: 'boolean' },
        clear: { type: 'boolean' },
        'time-limit': { type: 'string' },
        'window-share': { type: 'string' },
        time: { type: 'string' },
        'weekends-off': { type: 'boolean' },
        set: { type: 'string' },
        format: { type: 'string' },
        secret: { type: 'string' },
        tz: { type: 'string' },
        description: { type: 'string' },
        code: { type: 'string' },
        role: { type: 'string' },
        club: { type: 'string' },
        rounds: { type: 'string' },
        cycles: { type: 'string' },
        data: { type: 'string' },
        unrated: { type: 'boolean' },
        rated: { type: 'boolean' },
        max: { type: 'string' },
        starts: { type: 'string' },
        status: { type: 'string' },
        vacation: { type: 'string' },
        reason: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (e) {
    console.error(`${(e as Error).message}\n\n${HELP}`);
    return 2;
  }
  parsed = {
    positionals: parsed.positionals.map(masked.unmask),
    values: Object.fromEntries(Object.entries(parsed.values).map(([k, v]) => [k, masked.unmask(v)])) as typeof parsed.values,
  };
  const [name = 'help', ...args] = parsed.positionals;
  const cmd = parsed.values.help ? commands['help'] : Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!cmd) {
    console.error(`unknown command "${name}"\n\n${HELP}`);
    return 2;
  }
  try {
    const config = loadConfig();
    await cmd({ args, flags: parsed.values, config, url: resolveUrl(parsed.values.url, config) });
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (e) {
    if (e instanceof UsageError || e instanceof ClubUsageError) {
      console.error(e.message);
      return 2;
    }
    if (e instanceof ApiError) {
      const hint = e.status === 401 ? `\n  Sign in again:  npm run cli -- login <player>${parsed.values.url ? ` --url ${parsed.values.url}` : ''}` : '';
      console.error(`${e.status ? `Refused (${e.status} ${e.code})` : 'Failed'}: ${e.message}${e.rule ? `\n  Rule: ${e.rule}` : ''}${hint}`);
      return 1;
    }
    console.error(e instanceof Error ? e.message : String(e));
    return 1;
  }
}

void main(process.argv.slice(2)).then((code) => process.exit(code));
