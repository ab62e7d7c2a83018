import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { DynamoDeliveryLog, DynamoSettingsStore } from '../../notify/stores.js';
import { checkResolved, checkWebhookUrl } from '../../notify/address-policy.js';
import { maskUrl, systemResolver, type Resolver } from '../../notify/webhook.js';
import { AppError, type NotificationSettings } from '../../ports.js';
import { defineRoute, type RouteModule } from '../types.js';

export const MAX_WEBHOOKS = 5;
const RULE = 'Fieldpost platform: notifications';

const webhookInput = z.strictObject({
  /** An existing webhook's id: fields left out keep their current value. */
  id: z.string().regex(/^wh_[0-9a-f]{16}$/).optional(),
  url: z.string().max(2048).optional(),
  /** Signing secret (16+ characters); required for a new JSON webhook, never shown again. */
  secret: z.string().min(16).max(256).optional(),
  format: z.enum(['json', 'discord', 'slack']).optional(),
});

export const settingsBody = z.strictObject({
  /** null removes the address; left out keeps it. */
  email: z.email().max(254).nullable().optional(),
  /** The complete list (replaces the current one); left out keeps it. */
  webhooks: z.array(webhookInput).max(MAX_WEBHOOKS).optional(),
});

type Webhook = NotificationSettings['webhooks'][number];

/** What the API shows of a webhook: never the secret, and the URL masked (chat URLs hold tokens). */
export const publicWebhook = (w: Webhook) => ({ id: w.id, url: maskUrl(w.url), format: w.format, secretHint: `…${w.secret.slice(-4)}` });
export const publicSettings = (s: NotificationSettings | undefined) => ({ email: s?.email ?? null, webhooks: (s?.webhooks ?? []).map(publicWebhook) });

/**
 * The settings after a PUT. Every webhook URL is checked against the address policy
 * (address-policy.ts): strict unless `allowPrivate` (the local runtime), so a deployed API
 * refuses http, credentials, localhost and private or reserved IP literals with a 400 that
 * names the reason, and nothing is written.
 */
export function mergeSettings(current: NotificationSettings | undefined, body: z.infer<typeof settingsBody>, allowPrivate: boolean, newId: () => string = () => `wh_${randomBytes(8).toString('hex')}`): NotificationSettings {
  const email = body.email === undefined ? current?.email : (body.email ?? undefined);
  let webhooks = current?.webhooks ?? [];
  if (body.webhooks) {
    webhooks = body.webhooks.map((w, i) => {
      const existing = w.id === undefined ? undefined : current?.webhooks.find((x) => x.id === w.id);
      if (w.id !== undefined && !existing) throw new AppError(400, 'settings/unknown-webhook', `webhooks.${i}: there is no webhook ${w.id}; leave id out to add a new one`, RULE);
      const url = w.url ?? existing?.url;
      if (!url) throw new AppError(400, 'settings/webhook-url-required', `webhooks.${i}: a new webhook needs a url`, RULE);
      const verdict = checkWebhookUrl(url, { allowPrivate });
      if (!verdict.ok) throw new AppError(400, 'settings/bad-webhook-url', `webhooks.${i}: the url ${verdict.reason}`, RULE);
      const format = w.format ?? existing?.format ?? 'json';
      // Chat services do not check signatures; a JSON receiver must, so it must know the secret.
      const secret = w.secret ?? existing?.secret ?? (format === 'json' ? undefined : randomBytes(24).toString('hex'));
      if (!secret) throw new AppError(400, 'settings/webhook-secret-required', `webhooks.${i}: a JSON webhook needs a secret of at least 16 characters to sign its deliveries`, RULE);
      return { id: existing?.id ?? newId(), url, secret, format };
    });
  }
  return { ...(email ? { email } : {}), webhooks };
}

/**
 * Save-time courtesy check of what the webhook host names resolve to, so a name pointing at
 * a private address is refused now rather than failing at its first delivery. It is not the
 * guard (DNS can change after saving; the notifier checks every delivery's addresses as it
 * connects): a name that does not resolve yet, or a slow resolver, is let through.
 */
export async function checkWebhookHosts(settings: NotificationSettings, resolve: Resolver, timeoutMs = 2000): Promise<void> {
  await Promise.all(
    settings.webhooks.map(async (w, i) => {
      const verdict = checkWebhookUrl(w.url);
      if (!verdict.ok || verdict.ip) return;
      const host = verdict.url.hostname;
      let timer: NodeJS.Timeout | undefined;
      const addresses = await Promise.race([resolve(host).catch(() => undefined), new Promise<undefined>((ok) => (timer = setTimeout(() => ok(undefined), timeoutMs)))]).finally(() => clearTimeout(timer));
      if (!addresses) return;
      const refusal = checkResolved(host, addresses.map((a) => a.address));
      if (refusal) throw new AppError(400, 'settings/bad-webhook-url', `webhooks.${i}: the url ${refusal.reason}`, RULE);
    }),
  );
}

export interface SettingsRouteOptions {
  /**
   * Local runtime only: webhooks may use plain http and point at private addresses (receivers
   * on 127.0.0.1). Default false: the deployed API accepts public https URLs only.
   */
  readonly allowPrivateWebhooks?: boolean;
  /** How host names are resolved for the save-time check (tests swap it). */
  readonly resolve?: Resolver;
}

/** GET/PUT /v1/me/settings (notification channels) and GET /v1/me/deliveries (what was sent, what failed). */
export const createSettingsRoutes = (opts: SettingsRouteOptions = {}): RouteModule => ({ dynamo }) => {
  const store = new DynamoSettingsStore(dynamo.client, dynamo.tableName);
  const deliveries = new DynamoDeliveryLog(dynamo.client, dynamo.tableName);
  const allowPrivate = opts.allowPrivateWebhooks === true;
  const resolve = opts.resolve ?? systemResolver;
  return [
    defineRoute({
      method: 'GET',
      path: '/v1/me/settings',
      auth: 'required',
      async handle({ player }) {
        return { status: 200, body: publicSettings(await store.get(player)) };
      },
    }),
    defineRoute({
      method: 'PUT',
      path: '/v1/me/settings',
      auth: 'required',
      body: settingsBody,
      async handle({ player, body }) {
        const next = mergeSettings(await store.get(player), body, allowPrivate);
        if (!allowPrivate && body.webhooks) await checkWebhookHosts(next, resolve);
        await store.put(player, next);
        return { status: 200, body: publicSettings(next) };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/me/deliveries',
      auth: 'required',
      query: z.strictObject({ limit: z.string().regex(/^\d{1,3}$/).transform(Number).pipe(z.number().int().min(1).max(100)).optional() }),
      async handle({ player, query }) {
        return { status: 200, body: { deliveries: await deliveries.list(player, query.limit ?? 50) } };
      },
    }),
  ];
};

/** The routes as deployed (strict webhook policy); the local runtime builds its own with createSettingsRoutes. */
export const settingsRoutes: RouteModule = createSettingsRoutes();
