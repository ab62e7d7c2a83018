import { describe, expect, it } from 'vitest';
import { App, Aspects, Stack } from 'aws-cdk-lib';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { AwsSolutionsChecks } from 'cdk-nag';
import { BUCKET_DEPLOYMENT_WILDCARDS } from '../../infra/nag-suppressions.js';
import { synth, type Synthesized } from './support.js';

/** aws-cdk-lib's singleton that copies web/dist into the site bucket (its id is fixed by aws-cdk-lib). */
const DEPLOYMENT = '/Fieldpost/Custom::CDKBucketDeployment8693BB64968944B69AAFB0CC9EB8756C256MiB';

const NAG = Match.stringLikeRegexp('AwsSolutions-');

/** Every suppression in the template: resource path, rule id, reason, and which entries it covers. */
function suppressions(s: Synthesized): { resource: string; id: string; reason: string; appliesTo?: unknown[] }[] {
  const resources = s.template.toJSON()['Resources'] as Record<
    string,
    { Metadata?: { cdk_nag?: { rules_to_suppress?: { id: string; reason: string; applies_to?: unknown[] }[] } } }
  >;
  return Object.entries(resources).flatMap(([logicalId, r]) =>
    (r.Metadata?.cdk_nag?.rules_to_suppress ?? []).map((rule) => ({
      resource: logicalId,
      id: rule.id,
      reason: rule.reason,
      ...(rule.applies_to ? { appliesTo: rule.applies_to } : {}),
    })),
  );
}

function findings(s: Synthesized) {
  return {
    errors: s.annotations.findError('*', NAG).map((m) => `${m.id}: ${String(m.entry.data)}`),
    warnings: s.annotations.findWarning('*', NAG).map((m) => `${m.id}: ${String(m.entry.data)}`),
  };
}

/** "<rule> on <resource>" for every finding that fired but was suppressed. */
function suppressedFindings(s: Synthesized): string[] {
  return s.annotations
    .findInfo('*', Match.stringLikeRegexp('CdkNagSuppression'))
    .map((m) => {
      const rule = /(AwsSolutions-[A-Z0-9]+) was triggered but suppressed/.exec(String(m.entry.data))?.[1];
      return `${rule} on ${m.id}`;
    })
    .sort();
}

describe('cdk-nag AwsSolutions checks', () => {
  const defaults = synth({}, { nag: true, nagLogIgnores: true });

  it('find no unsuppressed errors and no warnings with the shipped defaults', () => {
    expect(findings(defaults)).toEqual({ errors: [], warnings: [] });
  });

  it('suppress exactly the accepted findings, each on its own resource', () => {
    expect(suppressedFindings(defaults)).toEqual(
      [
        'AwsSolutions-COG2 on /Fieldpost/Api/UserPool/Resource',
        'AwsSolutions-COG8 on /Fieldpost/Api/UserPool/Resource',
        'AwsSolutions-IAM5 on /Fieldpost/ProjectorHandler/Role/DefaultPolicy/Resource',
        // Twice: ListStreams' Resource::* and the schedule group's schedules.
        'AwsSolutions-IAM5 on /Fieldpost/SchedulerHandler/Role/DefaultPolicy/Resource',
        'AwsSolutions-IAM5 on /Fieldpost/SchedulerHandler/Role/DefaultPolicy/Resource',
        'AwsSolutions-L1 on /Fieldpost/DeadlineHandler/Function/Resource',
        'AwsSolutions-L1 on /Fieldpost/DigestHandler/Function/Resource',
        'AwsSolutions-L1 on /Fieldpost/SchedulerHandler/Function/Resource',
        'AwsSolutions-SQS3 on /Fieldpost/Deadlines/DeadLetterQueue/Resource',
        'AwsSolutions-L1 on /Fieldpost/ApiHandler/Function/Resource',
        'AwsSolutions-L1 on /Fieldpost/NotifierHandler/Function/Resource',
        'AwsSolutions-L1 on /Fieldpost/PictureHandler/Function/Resource',
        'AwsSolutions-L1 on /Fieldpost/ProjectorHandler/Function/Resource',
        'AwsSolutions-IAM5 on /Fieldpost/TournamentsHandler/Role/DefaultPolicy/Resource',
        'AwsSolutions-L1 on /Fieldpost/TournamentsHandler/Function/Resource',
        'AwsSolutions-CFR1 on /Fieldpost/Web/Distribution/Resource',
        'AwsSolutions-CFR2 on /Fieldpost/Web/Distribution/Resource',
        'AwsSolutions-CFR4 on /Fieldpost/Web/Distribution/Resource',
        ...BUCKET_DEPLOYMENT_WILDCARDS.map(() => 'AwsSolutions-IAM5 on /Fieldpost/Web/DeployRole/DefaultPolicy/Resource'),
        `AwsSolutions-L1 on ${DEPLOYMENT}/Resource`,
      ].sort(),
    );
  });

  it('give every suppression a specific reason and no stale ones', () => {
    const all = suppressions(defaults);
    expect(all.length).toBeGreaterThan(0);
    for (const s of all) {
      // A reason says why this resource is fine, not just that it is.
      expect(s.reason.length, `${s.id} on ${s.resource}`).toBeGreaterThanOrEqual(80);
      expect(s.reason).not.toMatch(/^(n\/a|todo|ok|fine|not needed)/i);
    }
    // Every suppression in the template corresponds to a finding that actually fired.
    const fired = new Set(suppressedFindings(defaults).map((f) => f.split(' on ')[0]));
    for (const s of all) expect(fired, s.id).toContain(s.id);
  });

  it("limit the wildcard suppressions to Resource::* (dynamodb:ListStreams, for the projector and the tournaments function), the scheduler function's own schedule group and the web deployment handler's own grants", () => {
    const iam5 = suppressions(defaults).filter((s) => s.id === 'AwsSolutions-IAM5');
    expect(iam5).toHaveLength(4);
    expect(iam5.find((s) => s.resource.startsWith('ProjectorHandler'))!.appliesTo).toEqual(['Resource::*']);
    expect(iam5.find((s) => s.resource.startsWith('TournamentsHandler'))!.appliesTo).toEqual(['Resource::*']);
    expect(iam5.find((s) => s.resource.startsWith('SchedulerHandler'))!.appliesTo).toEqual([
      'Resource::*',
      { regex: expect.stringContaining(':schedule\\/[A-Za-z0-9-]*Deadlines-Group-') },
    ]);
    expect(iam5.find((s) => s.resource.startsWith('WebDeployRole'))!.appliesTo).toEqual([...BUCKET_DEPLOYMENT_WILDCARDS]);
  });

  it('need no Cognito suppressions when the club opts into MFA and the Plus plan', () => {
    const strict = synth({ mfa: 'required', cognitoPlan: 'plus' }, { nag: true, nagLogIgnores: true });
    expect(findings(strict)).toEqual({ errors: [], warnings: [] });
    expect(suppressedFindings(strict).filter((f) => f.includes('COG'))).toEqual([]);
    expect(suppressions(strict).filter((s) => s.id.includes('COG'))).toEqual([]);
  });

  it('need no CloudFront WAF suppression when the club sets wafRateLimit (the web ACL is checked like the rest)', () => {
    const waf = synth({ wafRateLimit: '2000' }, { nag: true, nagLogIgnores: true });
    expect(findings(waf)).toEqual({ errors: [], warnings: [] });
    expect(suppressedFindings(waf).filter((f) => f.includes('CFR2'))).toEqual([]);
    expect(suppressions(waf).filter((s) => s.id === 'AwsSolutions-CFR2')).toEqual([]);
  });

  it('check the HTTP API front door too: only its public routes go without the authorizer', () => {
    const http = synth({ frontDoor: 'httpApi' }, { nag: true, nagLogIgnores: true });
    expect(findings(http)).toEqual({ errors: [], warnings: [] });
    expect(suppressedFindings(http).filter((f) => f.includes('APIG'))).toEqual([
      'AwsSolutions-APIG4 on /Fieldpost/Api/HttpApi/GET--v1--engines/Resource',
      'AwsSolutions-APIG4 on /Fieldpost/Api/HttpApi/GET--v1--health/Resource',
      'AwsSolutions-APIG4 on /Fieldpost/Api/HttpApi/GET--v1--openapi.json/Resource',
      'AwsSolutions-APIG4 on /Fieldpost/Api/HttpApi/POST--v1--unsubscribe/Resource',
    ]);
  });

  it('do report an unguarded resource (the pack really runs in this harness)', () => {
    const app = new App({ builtinCloudFormationValidation: false });
    const bare = new Stack(app, 'Bare');
    new sqs.Queue(bare, 'Unguarded');
    Aspects.of(app).add(new AwsSolutionsChecks());
    app.synth();
    const rules = Annotations.fromStack(bare)
      .findError('*', NAG)
      .map((m) => /AwsSolutions-[A-Z0-9]+/.exec(String(m.entry.data))?.[0]);
    expect(rules).toEqual(expect.arrayContaining(['AwsSolutions-SQS3', 'AwsSolutions-SQS4']));
  });
});
