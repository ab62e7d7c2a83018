// Who you are and how you are told: signing in, notification settings, the email check and your
// yearly vacation.
import { REMINDER_LEVELS } from '../../../domain/kernel/index.js';
import { NOTICE_KINDS } from '../../notify/decide.js';
import type { ApiClient } from '../client.js';
import { cliHome, saveConfig, type CliConfig } from '../config.js';
import { formatSettings } from '../format.js';
import { arg, client, loginFor, out, UsageError, type Commands } from './context.js';

type Settings = Parameters<typeof formatSettings>[0];

/** `settings mail|reminder <name> on|off`: the names switched off, with this one switched on or off. */
async function switchedOff(
  api: ApiClient,
  word: string,
  names: readonly string[],
  name: string | undefined,
  onOff: string | undefined,
  field: 'emailOff' | 'remindersOff',
): Promise<Record<string, string[]>> {
  if (!name || !names.includes(name) || (onOff !== 'on' && onOff !== 'off')) throw new UsageError(`settings ${word} <${names.join('|')}> on|off`);
  const current = await api.request<Settings>('GET', '/v1/me/settings');
  const off = new Set(current[field] ?? []);
  if (onOff === 'off') off.add(name);
  else off.delete(name);
  return { [field]: [...off] };
}

export const accountCommands: Commands = {
  async login(ctx) {
    const player = arg(ctx, 0, 'player');
    const r = await client(ctx, false).request<{ player: string; token: string; expiresAt: string }>('POST', '/local/token', { player });
    const config: CliConfig = {
      ...ctx.config,
      defaultUrl: ctx.url,
      servers: { ...ctx.config.servers, [ctx.url]: { player: r.player, token: r.token, expiresAt: r.expiresAt } },
    };
    saveConfig(config);
    out(`Signed in as ${r.player} at ${ctx.url} (token saved in ${cliHome()}, valid until ${r.expiresAt}).`);
  },

  async whoami(ctx) {
    const login = loginFor(ctx);
    if (!login) throw new UsageError(`not signed in at ${ctx.url}: run  npm run cli -- login <player>`);
    out(`${login.player} at ${ctx.url}${login.expiresAt ? ` (token valid until ${login.expiresAt})` : ''}`);
  },

  async settings(ctx) {
    const api = client(ctx);
    const [action, value] = [ctx.args[0], ctx.args[1]];
    let body: Record<string, unknown> | undefined;
    switch (action) {
      case undefined:
      case 'show':
        break;
      case 'email': {
        if (!value) throw new UsageError('settings email <address>  (or  settings email none  to stop mail)');
        body = { email: value === 'none' ? null : value };
        break;
      }
      case 'add-webhook': {
        if (!value) throw new UsageError('settings add-webhook <url> [--format json|discord|slack] [--secret S]');
        const format = ctx.flags.format ?? 'json';
        if (!['json', 'discord', 'slack'].includes(format)) throw new UsageError(`--format is json, discord or slack, not ${format}`);
        // A receiver checks each delivery's signature, so it needs the secret: the server makes
        // one (whsec_...) unless --secret gives one, and shows it in this reply only.
        const current = await api.request<Settings>('GET', '/v1/me/settings');
        body = {
          webhooks: [...current.webhooks.map((w) => ({ id: w.id })), { url: value, format, ...(ctx.flags.secret ? { secret: ctx.flags.secret } : {}) }],
        };
        break;
      }
      case 'remove-webhook': {
        if (!value) throw new UsageError('settings remove-webhook <id>  (the ids are in  npm run cli -- settings)');
        const current = await api.request<Settings>('GET', '/v1/me/settings');
        if (!current.webhooks.some((w) => w.id === value))
          throw new UsageError(`You have no webhook ${value}; yours: ${current.webhooks.map((w) => w.id).join(', ') || 'none'}`);
        body = { webhooks: current.webhooks.filter((w) => w.id !== value).map((w) => ({ id: w.id })) };
        break;
      }
      case 'mail':
        // settings mail <kind> on|off: which notices are mailed (the mails' unsubscribe link turns one off too).
        body = await switchedOff(api, 'mail', NOTICE_KINDS, value, ctx.args[2], 'emailOff');
        break;
      case 'reminder':
        // settings reminder <50%|80%|24h> on|off: which reminders are sent (by mail and webhook).
        body = await switchedOff(api, 'reminder', REMINDER_LEVELS, value, ctx.args[2], 'remindersOff');
        break;
      case 'digest': {
        // settings digest <hour> [--tz Zone] | off: one mail a day at that hour instead of each "your move".
        const usage = 'settings digest <hour 0-23> [--tz Europe/Paris] | off   (one mail a day listing your games on move; UTC unless --tz)';
        if (value === 'off') body = { digest: null };
        else if (value !== undefined && /^\d{1,2}$/.test(value) && Number(value) <= 23)
          body = { digest: { hour: Number(value), ...(ctx.flags.tz ? { timeZone: ctx.flags.tz } : {}) } };
        else throw new UsageError(usage);
        break;
      }
      default:
        throw new UsageError(
          'settings [show] | email <address|none> | add-webhook <url> [--format json|discord|slack] [--secret S] | remove-webhook <id> | mail <kind> on|off | reminder <level> on|off | digest <hour> [--tz Zone] | off',
        );
    }
    const r = body ? await api.request<Settings>('PUT', '/v1/me/settings', body) : await api.request<Settings>('GET', '/v1/me/settings');
    if (ctx.flags.json) return void out(JSON.stringify(r, null, 2));
    const secret = r.webhooks.find((w) => w.secret)?.secret;
    if (secret)
      out(`Webhook secret (shown only now; your receiver checks each delivery's webhook-signature with it, as Standard Webhooks says):\n  ${secret}\n`);
    out(formatSettings(r, loginFor(ctx)!.player));
  },

  async 'verify-email'(ctx) {
    const token = arg(ctx, 0, 'code');
    await client(ctx).request('POST', '/v1/me/email/verify', { token });
    out('Email address confirmed: game notices will be mailed to it.');
  },

  async vacation(ctx) {
    // vacation | vacation on [days] | vacation off: your yearly leave; your clocks stop in every game.
    const action = ctx.args[0];
    type Vacation = {
      allowanceDays: number;
      usedDays: number;
      leftDays: number;
      away: boolean;
      until?: string;
      games?: { gameId: string; recorded: boolean; reason?: string }[];
    };
    let r: Vacation;
    if (action === undefined || action === 'show') r = await client(ctx).request<Vacation>('GET', '/v1/me/vacation');
    else if (action === 'on') {
      const days = ctx.args[1] === undefined ? undefined : Number(ctx.args[1]);
      if (days !== undefined && !(days > 0)) throw new UsageError('vacation on [days]: days is a number above 0 (all you have left when left out)');
      r = await client(ctx).request<Vacation>('PUT', '/v1/me/vacation', { away: true, ...(days !== undefined ? { days } : {}) });
    } else if (action === 'off') r = await client(ctx).request<Vacation>('PUT', '/v1/me/vacation', { away: false });
    else throw new UsageError('vacation [on [days] | off]');
    if (ctx.flags.json) return void out(JSON.stringify(r, null, 2));
    const lines = [
      r.away ? `On vacation until ${r.until}: your clocks stand still in every game, and your opponents see it.` : 'Not on vacation: your clocks run.',
      `Allowance this year: ${r.allowanceDays} days, ${r.usedDays} used, ${r.leftDays} left.`,
    ];
    for (const g of r.games ?? []) lines.push(`  ${g.gameId}: ${g.recorded ? 'recorded' : `not recorded (${g.reason})`}`);
    out(lines.join('\n'));
  },
};
