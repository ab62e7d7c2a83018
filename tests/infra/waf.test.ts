import { App } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { ConfigError, readConfig } from '../../infra/config.js';
import { FieldpostStack } from '../../infra/fieldpost-stack.js';
import { WAF_TOO_MANY, WAF_WINDOW_SECONDS } from '../../infra/web.js';
import { replySchemas } from '../../functions/http/responses.js';
import { cdkJsonContext, inlineCode, resourcesOf, synth, webStandIn } from './support.js';

/** The optional per-address WAF rate rule in front of the API where CloudFront fronts it (issue 18). */
const ctx = (values: Record<string, unknown>) => (key: string) => values[key];

describe('wafRateLimit (infra/config.ts)', () => {
  it('is off unless set, and takes a whole number within WAF’s bounds', () => {
    expect(readConfig(ctx({})).wafRateLimit).toBeUndefined();
    expect(readConfig(ctx({ wafRateLimit: '' })).wafRateLimit).toBeUndefined();
    expect(readConfig(ctx({ wafRateLimit: '2000' })).wafRateLimit).toBe(2000);
    expect(readConfig(ctx({ wafRateLimit: 500 })).wafRateLimit).toBe(500);
    for (const bad of ['9', '0', '-5', '1.5', 'many', '3000000000', true])
      expect(() => readConfig(ctx({ wafRateLimit: bad })), String(bad)).toThrow(ConfigError);
    expect(() => readConfig(ctx({ wafRateLimit: '9' }))).toThrow(/wafRateLimit.*from 10 to 2000000000/);
  });
});

describe('the web ACL in front of the API', () => {
  it('is not there by default: no web ACL, no region rule, the distribution has none', () => {
    const { template } = synth();
    expect(Object.keys(resourcesOf(template, 'AWS::WAFv2::WebACL'))).toEqual([]);
    expect(Object.keys(template.toJSON()['Rules'] ?? {})).toEqual(['CheckBootstrapVersion']);
    const [dist] = Object.values(resourcesOf(template, 'AWS::CloudFront::Distribution'));
    expect((dist!.Properties['DistributionConfig'] as Record<string, unknown>)['WebACLId']).toBeUndefined();
  });

  it('with wafRateLimit: one CloudFront web ACL on the distribution, blocking an address over the limit on /v1/* with 429, the API’s error body and Retry-After', () => {
    const { template, stack } = synth({ wafRateLimit: '2000' });
    const acls = resourcesOf(template, 'AWS::WAFv2::WebACL');
    expect(Object.keys(acls)).toHaveLength(1);
    const [aclId, acl] = Object.entries(acls)[0]!;
    expect(acl.Properties).toMatchObject({
      Scope: 'CLOUDFRONT',
      DefaultAction: { Allow: {} },
      CustomResponseBodies: { tooMany: { ContentType: 'APPLICATION_JSON', Content: JSON.stringify(WAF_TOO_MANY) } },
    });
    const rules = acl.Properties['Rules'] as Record<string, any>[];
    expect(rules).toHaveLength(1);
    expect(rules[0]!['Statement']).toEqual({
      RateBasedStatement: {
        Limit: 2000,
        AggregateKeyType: 'IP',
        EvaluationWindowSec: WAF_WINDOW_SECONDS,
        // Only the API is counted: the web client's files are not.
        ScopeDownStatement: {
          ByteMatchStatement: {
            FieldToMatch: { UriPath: {} },
            PositionalConstraint: 'STARTS_WITH',
            SearchString: '/v1/',
            TextTransformations: [{ Priority: 0, Type: 'NONE' }],
          },
        },
      },
    });
    expect(rules[0]!['Action']).toEqual({
      Block: { CustomResponse: { ResponseCode: 429, CustomResponseBodyKey: 'tooMany', ResponseHeaders: [{ Name: 'Retry-After', Value: '60' }] } },
    });
    // What WAF answers is an error body of the API's own contract.
    expect(replySchemas().errorBody.safeParse(WAF_TOO_MANY).success).toBe(true);

    const [dist] = Object.values(resourcesOf(template, 'AWS::CloudFront::Distribution'));
    expect((dist!.Properties['DistributionConfig'] as Record<string, unknown>)['WebACLId']).toEqual({ 'Fn::GetAtt': [aclId, 'Arn'] });
    expect(stack.web.webAcl).toBeDefined();

    // A CloudFront web ACL lives in us-east-1: a deployment elsewhere stops with a sentence, not a half-made stack.
    const rulesSection = template.toJSON()['Rules'] as Record<string, { Assertions: { Assert: unknown; AssertDescription: string }[] }>;
    const regionRules = Object.entries(rulesSection).filter(([k]) => k !== 'CheckBootstrapVersion');
    expect(regionRules).toHaveLength(1);
    const regionRule = regionRules[0]![1];
    expect(regionRule!.Assertions[0]!.Assert).toEqual({ 'Fn::Equals': [{ Ref: 'AWS::Region' }, 'us-east-1'] });
    expect(regionRule!.Assertions[0]!.AssertDescription).toMatch(/wafRateLimit needs the stack in us-east-1/);
  });

  it('refuses to synthesize with wafRateLimit for a stack whose region is known and not us-east-1', () => {
    const make = (region: string) => {
      const app = new App({ context: { ...cdkJsonContext(), wafRateLimit: '1000' } });
      const config = readConfig((key) => app.node.tryGetContext(key));
      return new FieldpostStack(app, 'Fieldpost', { config, lambdaCode: inlineCode, webSource: webStandIn, env: { account: '123456789012', region } });
    };
    expect(() => make('eu-west-1')).toThrow(/wafRateLimit needs the stack in us-east-1.*eu-west-1/);
    expect(make('us-east-1').web.webAcl).toBeDefined();
  });
});
