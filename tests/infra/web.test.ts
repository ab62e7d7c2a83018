import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { resourcesOf, synth } from './support.js';

// One synthesis with cdk.json's defaults serves every assertion in this file.
const { stack, template } = synth();
const id = (c: { node: { defaultChild?: unknown } }): string => stack.getLogicalId(c.node.defaultChild as never);
const siteId = id(stack.web.bucket);
const distributionId = id(stack.web.distribution);

type Behaviour = Record<string, unknown>;
const distribution = () => resourcesOf(template, 'AWS::CloudFront::Distribution')[distributionId]!.Properties['DistributionConfig'] as Record<string, unknown>;

describe('the web client in AWS (infra/web.ts)', () => {
  it('keeps the built files in a private, encrypted bucket that only this distribution may read (origin access control)', () => {
    template.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      BucketEncryption: Match.anyValue(),
      LoggingConfiguration: Match.objectLike({ LogFilePrefix: 'site/' }),
    });
    expect(resourcesOf(template, 'AWS::S3::Bucket')[siteId]!.Properties['WebsiteConfiguration']).toBeUndefined();
    template.hasResourceProperties('AWS::CloudFront::OriginAccessControl', {
      OriginAccessControlConfig: Match.objectLike({ OriginAccessControlOriginType: 's3', SigningBehavior: 'always', SigningProtocol: 'sigv4' }),
    });
    const policy = Object.values(resourcesOf(template, 'AWS::S3::BucketPolicy')).find(
      (p) => JSON.stringify(p.Properties['Bucket']) === JSON.stringify({ Ref: siteId }),
    );
    const statements = (policy!.Properties['PolicyDocument'] as { Statement: { Effect: string; Principal?: unknown; Action: unknown; Condition?: unknown }[] })
      .Statement;
    const allows = statements.filter((s) => s.Effect === 'Allow');
    expect(allows).toHaveLength(1);
    expect(allows[0]!.Principal).toEqual({ Service: 'cloudfront.amazonaws.com' });
    expect(allows[0]!.Action).toBe('s3:GetObject');
    expect(JSON.stringify(allows[0]!.Condition)).toContain(distributionId);
    // enforceSSL: plain HTTP is denied.
    expect(statements.some((s) => s.Effect === 'Deny' && JSON.stringify(s.Condition).includes('aws:SecureTransport'))).toBe(true);
  });

  it('serves the files over HTTPS with the app pages rewritten to index.html, and the API under /v1/* on the same origin, never cached', () => {
    const d = distribution();
    expect(d['DefaultRootObject']).toBe('index.html');
    const def = d['DefaultCacheBehavior'] as Behaviour;
    expect(def['ViewerProtocolPolicy']).toBe('redirect-to-https');
    expect((def['FunctionAssociations'] as Behaviour[])[0]).toMatchObject({ EventType: 'viewer-request' });
    const fn = Object.values(resourcesOf(template, 'AWS::CloudFront::Function'))[0]!.Properties;
    expect(fn['FunctionCode']).toContain("request.uri = '/index.html'");
    const api = (d['CacheBehaviors'] as Behaviour[]).find((b) => b['PathPattern'] === '/v1/*')!;
    // Caching disabled (managed CachingDisabled) with every viewer header but Host (managed AllViewerExceptHostHeader):
    // the one pairing with which CloudFront forwards a player's Authorization header to the origin without making it
    // part of a cache key; the function URL checks the token itself.
    expect(api).toMatchObject({
      ViewerProtocolPolicy: 'https-only',
      CachePolicyId: '4135ea2d-6df8-44a3-9df3-4b5a84be39ad',
      OriginRequestPolicyId: 'b689b0a8-53d0-40ab-baf2-68738e2966ac',
    });
    expect(api['AllowedMethods']).toEqual(expect.arrayContaining(['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS']));
    const apiOrigin = (d['Origins'] as Behaviour[]).find((o) => o['Id'] === api['TargetOriginId'])!;
    // The default front door: the API function's URL (https://<host>/), its host taken out.
    expect(apiOrigin['DomainName']).toEqual({ 'Fn::Select': [2, { 'Fn::Split': ['/', { 'Fn::GetAtt': [id(stack.api.functionUrl!), 'FunctionUrl'] }] }] });
    expect(apiOrigin['CustomOriginConfig']).toMatchObject({ OriginProtocolPolicy: 'https-only' });
    expect(d['Logging']).toMatchObject({ Prefix: 'cloudfront/' });
  });

  it("answers with a strict Content-Security-Policy and the usual security headers, on the files and the API's answers", () => {
    const headers = Object.values(resourcesOf(template, 'AWS::CloudFront::ResponseHeadersPolicy'))[0]!.Properties['ResponseHeadersPolicyConfig'] as {
      SecurityHeadersConfig: Record<string, Record<string, unknown>>;
    };
    const h = headers.SecurityHeadersConfig;
    const csp = JSON.stringify(h['ContentSecurityPolicy']!['ContentSecurityPolicy']);
    for (const directive of ["default-src 'self'", "script-src 'self'", "object-src 'none'", "frame-ancestors 'none'"]) expect(csp).toContain(directive);
    expect(csp).not.toContain('unsafe');
    // The hosted sign-in's token endpoint is the one other origin the page may call.
    expect(csp).toContain(id(stack.api.signInDomain));
    expect(h['FrameOptions']).toMatchObject({ FrameOption: 'DENY' });
    expect(h['StrictTransportSecurity']).toMatchObject({ AccessControlMaxAgeSec: 31536000, IncludeSubdomains: true });
    expect(h['ContentTypeOptions']).toMatchObject({ Override: true });
    const d = distribution();
    const policyRef = { Ref: id(stack.web.headers) };
    expect((d['DefaultCacheBehavior'] as Behaviour)['ResponseHeadersPolicyId']).toEqual(policyRef);
    for (const b of d['CacheBehaviors'] as Behaviour[]) expect(b['ResponseHeadersPolicyId']).toEqual(policyRef);
  });

  it('deploys web/dist and a config.json naming the hosted sign-in, and invalidates the pages that change', () => {
    template.hasResourceProperties('Custom::CDKBucketDeployment', {
      DestinationBucketName: { Ref: siteId },
      DistributionId: { Ref: distributionId },
      DistributionPaths: ['/index.html', '/config.json'],
      Prune: false,
    });
    const deployment = Object.values(resourcesOf(template, 'Custom::CDKBucketDeployment'))[0]!.Properties;
    // Source.jsonData: the values only known at deploy time travel as markers.
    expect(JSON.stringify(deployment['SourceMarkers'])).toContain(id(stack.api.userPoolClient));
    expect(JSON.stringify(deployment['SourceMarkers'])).toContain(id(stack.api.signInDomain));
  });

  it('names the web address among the outputs', () => {
    template.hasOutput('WebUrl', { Value: { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distributionId, 'DomainName'] }]] } });
  });
});
