import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { DynamoDeliveryLog, DynamoSettingsStore } from '../../notify/stores.js';
import { maskUrl, webhookUrlProblem } from '../../notify/webhook.js';
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

export function mergeSettings(current: NotificationSettings | undefined, body: z.infer<typeof settingsBody>, allowInsecure: boolean, newId: () => string = () => `wh_${randomBytes(8).toString('hex')}`): NotificationSettings {
  const email = body.email === undefined ? current?.email : (body.email ?? undefined);
  let webhooks = current?.webhooks ?? [];
  if (body.webhooks) {
    webhooks = body.webhooks.map((w, i) => {
      const existing = w.id === undefined ? undefined : current?.webhooks.find((x) => x.id === w.id);
      if (w.id !== undefined && !existing) throw new AppError(400, 'settings/unknown-webhook', `webhooks.${i}: there is no webhook ${w.id}; leave id out to add a new one`, RULE);
      const url = w.url ?? existing?.url;
      if (!url) throw new AppError(400, 'settings/webhook-url-required', `webhooks.${i}: a new webhook needs a url`, RULE);
      const problem = webhookUrlProblem(url, allowInsecure);
      if (problem) throw new AppError(400, 'settings/bad-webhook-url', `webhooks.${i}: the url ${problem}`, RULE);
      const format = w.format ?? existing?.format ?? 'json';
      // Chat services do not check signatures; a JSON receiver must, so it must know the secret.
      const secret = w.secret ?? existing?.secret ?? (format === 'json' ? undefined : randomBytes(24).toString('hex'));
      if (!secret) throw new AppError(400, 'settings/webhook-secret-required', `webhooks.${i}: a JSON webhook needs a secret of at least 16 characters to sign its deliveries`, RULE);
      return { id: existing?.id ?? newId(), url, secret, format };
    });
  }
  return { ...(email ? { email } : {}), webhooks };
}

/** GET/PUT /v1/me/settings (notification channels) and GET /v1/me/deliveries (what was sent, what failed). */
export const settingsRoutes: RouteModule = ({ dynamo }) => {
  const store = new DynamoSettingsStore(dynamo.client, dynamo.tableName);
  const deliveries = new DynamoDeliveryLog(dynamo.client, dynamo.tableName);
  // Plain-http receivers only off Lambda (the local runtime); a Lambda never posts to http.
  const allowInsecure = !process.env['AWS_LAMBDA_FUNCTION_NAME'] && process.env['AUTH_MODE'] !== 'cognito';
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
        const next = mergeSettings(await store.get(player), body, allowInsecure);
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
