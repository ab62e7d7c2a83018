import { describe, expect, it } from 'vitest';
import { ConfigError, readConfig } from '../../infra/config.js';
import { HANDLERS } from '../../infra/handler-function.js';
import { resourcesOf, synth } from './support.js';

const ctx = (values: Record<string, unknown>) => (key: string) => values[key];

describe('deployment settings from context', () => {
  it('default to values that synthesize anywhere', () => {
    expect(readConfig(ctx({}))).toMatchObject({
      mailFrom: 'turns@example.org',
      mailIdentity: 'turns@example.org',
      appUrl: 'https://fieldpost.example.org',
      mfa: 'optional',
      cognitoPlan: 'essentials',
      selfSignUp: false,
      frontDoor: 'functionUrl',
    });
    expect(readConfig(ctx({}))).not.toHaveProperty('apiConcurrency');
  });

  it('accept CLI strings (-c key=value) for numbers and booleans', () => {
    const c = readConfig(ctx({ logRetentionDays: '14', throttleRate: '5', throttleBurst: '10', selfSignUp: 'true', appUrl: 'https://play.club.org/' }));
    expect(c).toMatchObject({ logRetention: 14, throttleRate: 5, throttleBurst: 10, selfSignUp: true, appUrl: 'https://play.club.org' });
  });

  it.each([
    [{ mailFrom: 'not-an-address' }, /mailFrom/],
    [{ mailFrom: 'Turns <not-an-address>' }, /mailFrom/],
    [{ mailFrom: 'turns@club.org', mailIdentity: 'other.org' }, /mailIdentity.*domain of mailFrom/],
    [{ mailFrom: 'turns@club.org', mailIdentity: 'boss@club.org' }, /mailIdentity/],
    [{ appUrl: 'http://play.club.org' }, /appUrl.*https/],
    [{ appUrl: 'play.club.org' }, /appUrl/],
    [{ logRetentionDays: '10' }, /logRetentionDays/],
    [{ throttleRate: '-1' }, /throttleRate/],
    [{ mfa: 'sometimes' }, /mfa/],
    [{ selfSignUp: 'yes' }, /selfSignUp/],
    [{ alarmEmail: 'ops' }, /alarmEmail/],
    [{ frontDoor: 'alb' }, /frontDoor.*functionUrl, httpApi/],
    [{ apiConcurrency: '0' }, /apiConcurrency/],
  ])('reject %j with a message naming the key', (values, message) => {
    expect(() => readConfig(ctx(values))).toThrow(ConfigError);
    expect(() => readConfig(ctx(values))).toThrow(message);
  });

  it('accept a display name in mailFrom and verify just its address', () => {
    const c = readConfig(ctx({ mailFrom: 'Club turns <turns@club.org>' }));
    expect(c.mailFrom).toBe('Club turns <turns@club.org>');
    expect(c.mailIdentity).toBe('turns@club.org');
    expect(readConfig(ctx({ mailFrom: 'Club turns <turns@club.org>', mailIdentity: 'club.org' })).mailIdentity).toBe('club.org');
  });

  it('allow http only for a localhost app (a developer pointing mails at a local client)', () => {
    expect(readConfig(ctx({ appUrl: 'http://localhost:5173' })).appUrl).toBe('http://localhost:5173');
  });
});

describe('a club deployment', () => {
  const { stack, template } = synth({
    mailFrom: 'turns@club.org',
    mailIdentity: 'club.org',
    appUrl: 'https://play.club.org',
    alarmEmail: 'ops@club.org',
    selfSignUp: 'true',
  });

  it("passes mailFrom and appUrl to every handler function (aws-cdk-lib's web deployment handler needs neither)", () => {
    const functions = Object.entries(resourcesOf(template, 'AWS::Lambda::Function'));
    const handlers = functions.filter(([id]) => !id.startsWith('CustomCDKBucketDeployment'));
    expect(handlers).toHaveLength(HANDLERS.length);
    for (const [, fn] of handlers) {
      expect(fn.Properties).toMatchObject({ Environment: { Variables: { MAIL_FROM: 'turns@club.org', APP_URL: 'https://play.club.org' } } });
    }
  });

  it('verifies the whole domain and outputs its DKIM records', () => {
    template.hasResourceProperties('AWS::SES::EmailIdentity', { EmailIdentity: 'club.org' });
    const outputs = template.toJSON()['Outputs'] as Record<string, unknown>;
    expect(Object.keys(outputs).filter((k) => k.startsWith('DkimRecord'))).toEqual(['DkimRecord1', 'DkimRecord2', 'DkimRecord3']);
  });

  it('allows CORS from the app origin', () => {
    template.hasResourceProperties('AWS::Lambda::Url', { Cors: { AllowOrigins: ['https://play.club.org'] } });
  });

  it('mails alarms to the operator', () => {
    template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'ops@club.org',
      TopicArn: { Ref: stack.getLogicalId(stack.alarms.topic.node.defaultChild as never) },
    });
  });

  it('lets players sign up themselves when selfSignUp is on', () => {
    template.hasResourceProperties('AWS::Cognito::UserPool', { AdminCreateUserConfig: { AllowAdminCreateUserOnly: false } });
  });
});

describe('stricter sign-in options', () => {
  const { template } = synth({ mfa: 'required', cognitoPlan: 'plus' });

  it('require TOTP MFA and enforce Plus threat protection', () => {
    template.hasResourceProperties('AWS::Cognito::UserPool', {
      MfaConfiguration: 'ON',
      EnabledMfas: ['SOFTWARE_TOKEN_MFA'],
      UserPoolTier: 'PLUS',
      UserPoolAddOns: { AdvancedSecurityMode: 'ENFORCED' },
    });
  });
});
