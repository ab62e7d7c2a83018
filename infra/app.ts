/**
 * The CDK app: `npx cdk synth` / `npx cdk deploy -c mailFrom=... -c appUrl=...`.
 * No account or region lookups happen at synth time, so it synthesizes without AWS
 * credentials; the target account/region come from the CLI's environment at deploy time.
 */
import { App, Aspects, Tags } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { ensureWebBuild } from '../functions/local/web-client.js';
import { readConfig } from './config.js';
import { FieldpostStack } from './fieldpost-stack.js';

// The stack deploys web/dist (infra/web.ts): build the web client first if it is missing or stale.
await ensureWebBuild((line) => console.error(line));

const app = new App();
const config = readConfig((key) => app.node.tryGetContext(key));
const stackName = (app.node.tryGetContext('stackName') as string | undefined) ?? 'Fieldpost';

const account = process.env['CDK_DEFAULT_ACCOUNT'];
const region = process.env['CDK_DEFAULT_REGION'];
new FieldpostStack(app, stackName, {
  config,
  description: 'Fieldpost: event-sourced play-by-web wargames (table, API, projector, notifier)',
  ...(account && region ? { env: { account, region } } : {}),
});
Tags.of(app).add('project', 'fieldpost');

// cdk-nag: any unsuppressed AwsSolutions error fails `cdk synth` (and so CI).
Aspects.of(app).add(new AwsSolutionsChecks({ verbose: true }));
