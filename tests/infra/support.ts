import { readFileSync } from 'node:fs';
import { App, Aspects } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { AwsSolutionsChecks } from 'cdk-nag';
import { readConfig } from '../../infra/config.js';
import { FieldpostStack } from '../../infra/fieldpost-stack.js';

/** The context `cdk synth` sees: cdk.json's (feature flags and defaults) plus overrides. */
export function cdkJsonContext(): Record<string, unknown> {
  const json = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')) as { context: Record<string, unknown> };
  return json.context;
}

/** Inline stand-ins for the bundles: the assertions are about the stack, not the handlers. */
export const inlineCode = (name: string): lambda.Code =>
  lambda.Code.fromInline(`exports.handler = async () => { throw new Error('${name} placeholder'); };`);

export interface Synthesized {
  readonly stack: FieldpostStack;
  readonly template: Template;
  readonly annotations: Annotations;
}

export function synth(context: Record<string, unknown> = {}, opts: { nag?: boolean } = {}): Synthesized {
  const app = new App({ context: { ...cdkJsonContext(), ...context } });
  const config = readConfig((key) => app.node.tryGetContext(key));
  const stack = new FieldpostStack(app, 'Fieldpost', { config, lambdaCode: inlineCode });
  if (opts.nag) Aspects.of(app).add(new AwsSolutionsChecks({ verbose: true }));
  // Template.fromStack synthesizes the app, which runs the aspects and records annotations.
  const template = Template.fromStack(stack);
  return { stack, template, annotations: Annotations.fromStack(stack) };
}

export { Match };
