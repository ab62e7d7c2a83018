import { readFileSync } from 'node:fs';
import { App, Aspects, Stack, type CfnElement } from 'aws-cdk-lib';
import type { IRole } from 'aws-cdk-lib/aws-iam';
import { Annotations, Template } from 'aws-cdk-lib/assertions';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import { AwsSolutionsChecks } from 'cdk-nag';
import { readConfig } from '../../infra/config.js';
import { FieldpostStack } from '../../infra/fieldpost-stack.js';

/** The context `cdk synth` sees: cdk.json's (feature flags and defaults) plus overrides. */
export function cdkJsonContext(): Record<string, unknown> {
  const json = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')) as { context: Record<string, unknown> };
  return json.context;
}

/** A stand-in for web/dist, so the stack synthesizes before the web client is built. */
export const webStandIn = s3deploy.Source.data('index.html', '<!doctype html><title>Fieldpost</title>');

/** Inline stand-ins for the bundles: the assertions are about the stack, not the handlers. */
export const inlineCode = (name: string): lambda.Code => lambda.Code.fromInline(`exports.handler = async () => { throw new Error('${name} placeholder'); };`);

export interface Synthesized {
  readonly stack: FieldpostStack;
  readonly template: Template;
  readonly annotations: Annotations;
}

export interface SynthOptions {
  /** Run the cdk-nag AwsSolutions pack (as infra/app.ts does). */
  readonly nag?: boolean;
  /** Report suppressed nag findings as info annotations (to check no suppression is stale). */
  readonly nagLogIgnores?: boolean;
  /**
   * Run aws-cdk-lib's built-in CloudFormation template validation (as `cdk synth` does).
   * Its engine takes seconds to start, so only the test that is about it turns it on.
   */
  readonly validate?: boolean;
}

export function synth(context: Record<string, unknown> = {}, opts: SynthOptions = {}): Synthesized {
  const app = new App({ context: { ...cdkJsonContext(), ...context }, builtinCloudFormationValidation: opts.validate ?? false });
  const config = readConfig((key) => app.node.tryGetContext(key));
  const stack = new FieldpostStack(app, 'Fieldpost', { config, lambdaCode: inlineCode, webSource: webStandIn });
  if (opts.nag) Aspects.of(app).add(new AwsSolutionsChecks({ verbose: true, logIgnores: opts.nagLogIgnores ?? false }));
  // Template.fromStack synthesizes the app, which runs the aspects and records annotations.
  const template = Template.fromStack(stack);
  return { stack, template, annotations: Annotations.fromStack(stack) };
}

export interface CfnResource {
  readonly Type: string;
  readonly Properties: Record<string, unknown>;
  readonly DeletionPolicy?: string;
  readonly Metadata?: Record<string, unknown>;
}

export function resourcesOf(template: Template, type: string): Record<string, CfnResource> {
  return template.findResources(type) as Record<string, CfnResource>;
}

export interface Statement {
  readonly Effect: string;
  readonly Action: string[];
  readonly Resource: unknown;
}

/** Every statement of every IAM policy attached to the role (actions normalised to arrays). */
export function policyStatementsOf(template: Template, role: IRole): Statement[] {
  const roleId = Stack.of(role).getLogicalId(role.node.defaultChild as CfnElement);
  return Object.values(resourcesOf(template, 'AWS::IAM::Policy'))
    .filter((p) => JSON.stringify(p.Properties['Roles']).includes(JSON.stringify({ Ref: roleId })))
    .flatMap((p) => (p.Properties['PolicyDocument'] as { Statement: { Effect: string; Action: string | string[]; Resource: unknown }[] }).Statement)
    .map((st) => ({ Effect: st.Effect, Action: Array.isArray(st.Action) ? st.Action : [st.Action], Resource: st.Resource }));
}

/**
 * Evaluates a Lambda event filter pattern against a record, for the subset of the pattern
 * language the stack uses (nested objects, exact strings, {prefix}, {exists}); anything else throws
 * so a test can never pass by not understanding the filter.
 */
export function matchesStreamFilter(pattern: unknown, value: unknown): boolean {
  if (Array.isArray(pattern)) {
    return pattern.some((rule: unknown) => {
      if (typeof rule === 'string') return value === rule;
      if (rule && typeof rule === 'object' && Object.keys(rule).length === 1 && 'prefix' in rule) {
        return typeof value === 'string' && value.startsWith(String((rule as { prefix: unknown }).prefix));
      }
      // Exists matching (leaf nodes): whether the field is there at all.
      if (rule && typeof rule === 'object' && Object.keys(rule).length === 1 && 'exists' in rule) {
        return (value !== undefined) === (rule as { exists: unknown }).exists;
      }
      throw new Error(`unsupported filter rule ${JSON.stringify(rule)}`);
    });
  }
  if (pattern && typeof pattern === 'object') {
    // A field under a missing object is missing too: only `exists: false` matches it.
    const fields = value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
    if (value !== undefined && (value === null || typeof value !== 'object')) return false;
    return Object.entries(pattern).every(([k, sub]) => matchesStreamFilter(sub, fields[k]));
  }
  throw new Error(`unsupported filter pattern ${JSON.stringify(pattern)}`);
}

/** Whether a stream mapping's filters (any of them: Lambda ORs a mapping's filters) pass a record. */
export function mappingPasses(mapping: { Properties: Record<string, unknown> }, record: unknown): boolean {
  const filters = (mapping.Properties['FilterCriteria'] as { Filters: { Pattern: string }[] }).Filters;
  return filters.some((f) => matchesStreamFilter(JSON.parse(f.Pattern) as unknown, record));
}
