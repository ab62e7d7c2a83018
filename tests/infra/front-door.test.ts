import { describe, expect, it } from 'vitest';
import { policyStatementsOf, resourcesOf, synth } from './support.js';

/**
 * The API's default front door (infra/api.ts): a Lambda function URL, no API Gateway, the Cognito
 * token verified in the function; and reserved concurrency as the bound on concurrent requests.
 */
const { stack, template } = synth();
const id = (c: { node: { defaultChild?: unknown } }): string => stack.getLogicalId(c.node.defaultChild as never);
const apiId = id(stack.functions.api.fn);
const urlId = id(stack.api.functionUrl!);
const fnOf = (t: typeof template, logicalId: string) => resourcesOf(t, 'AWS::Lambda::Function')[logicalId]!.Properties;

describe('the function URL front door (the default)', () => {
  it('serves the api function to anyone, with CORS for the app origin only', () => {
    const urls = Object.values(resourcesOf(template, 'AWS::Lambda::Url'));
    expect(urls).toHaveLength(1);
    expect(urls[0]!.Properties).toMatchObject({
      AuthType: 'NONE',
      TargetFunctionArn: { 'Fn::GetAtt': [apiId, 'Arn'] },
      Cors: { AllowOrigins: ['https://fieldpost.example.org'], AllowHeaders: ['authorization', 'content-type'], AllowMethods: ['*'], MaxAge: 3600 },
    });
    // Both permissions a public function URL needs, for this function only.
    const perms = Object.values(resourcesOf(template, 'AWS::Lambda::Permission')).filter((p) => JSON.stringify(p.Properties['FunctionName']).includes(apiId));
    expect(perms.map((p) => p.Properties)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ Action: 'lambda:InvokeFunctionUrl', Principal: '*', FunctionUrlAuthType: 'NONE' }),
        expect.objectContaining({ Action: 'lambda:InvokeFunction', Principal: '*', InvokedViaFunctionUrl: true }),
      ]),
    );
  });

  it('has the function verify Cognito tokens itself: the pool issuer, and the app client from a parameter it alone may read', () => {
    const vars = (fnOf(template, apiId)['Environment'] as { Variables: Record<string, unknown> }).Variables;
    expect(vars['AUTH_MODE']).toBe('cognito-jwt');
    expect(vars['COGNITO_ISSUER']).toEqual({ 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [id(stack.api.userPool), 'ProviderURL'] }]] });
    expect(vars['COGNITO_CLIENT_ID_PARAMETER']).toBe('/Fieldpost/api/web-client-id');
    template.hasResourceProperties('AWS::SSM::Parameter', {
      Name: '/Fieldpost/api/web-client-id',
      Type: 'String',
      Value: { Ref: id(stack.api.userPoolClient) },
    });
    const reads = policyStatementsOf(template, stack.functions.api.role).filter((st) => st.Action.includes('ssm:GetParameter'));
    expect(reads).toHaveLength(1);
    expect(JSON.stringify(reads[0]!.Resource)).toContain(':parameter/Fieldpost/api/web-client-id');
    for (const other of Object.values(stack.functions).filter((h) => h !== stack.functions.api))
      expect(policyStatementsOf(template, other.role).flatMap((st) => st.Action)).not.toContain('ssm:GetParameter');
  });

  it('puts no API Gateway in the stack: no API, stage, route or authorizer', () => {
    const types = Object.values(template.toJSON()['Resources'] as Record<string, { Type: string }>).map((r) => r.Type);
    expect(types.filter((t) => t.startsWith('AWS::ApiGateway'))).toEqual([]);
    expect(stack.api.httpApi).toBeUndefined();
  });

  it('is the address of the ApiUrl output and of the unsubscribe links in notice mail', () => {
    const host = { 'Fn::Select': [2, { 'Fn::Split': ['/', { 'Fn::GetAtt': [urlId, 'FunctionUrl'] }] }] };
    const url = { 'Fn::Join': ['', ['https://', host]] };
    expect((template.toJSON()['Outputs'] as Record<string, { Value: unknown }>)['ApiUrl']!.Value).toEqual(url);
    const notifier = (fnOf(template, id(stack.functions.notifier.fn))['Environment'] as { Variables: Record<string, unknown> }).Variables;
    expect(notifier['API_URL']).toEqual(url);
  });

  it('reserves no concurrency unless asked (a new account could not deploy it), and reserves apiConcurrency when set', () => {
    expect(fnOf(template, apiId)).not.toHaveProperty('ReservedConcurrentExecutions');
    const capped = synth({ apiConcurrency: '20' });
    expect(fnOf(capped.template, capped.stack.getLogicalId(capped.stack.functions.api.fn.node.defaultChild as never))['ReservedConcurrentExecutions']).toBe(20);
    // No other function is held to it.
    const reserved = Object.values(resourcesOf(capped.template, 'AWS::Lambda::Function')).filter((f) => 'ReservedConcurrentExecutions' in f.Properties);
    expect(reserved).toHaveLength(1);
  });
});
