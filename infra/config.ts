/**
 * Deployment settings, read from CDK context (`cdk.json` defaults, overridden with
 * `-c key=value` on the command line). Everything is validated here so a typo fails the
 * synth with a sentence that says which key is wrong, instead of a broken deployment.
 */
import { RetentionDays } from 'aws-cdk-lib/aws-logs';

export interface FieldpostConfig {
  /**
   * The From of every notification mail, `turns@club.org` or `Club turns <turns@club.org>`
   * (passed to the handlers as MAIL_FROM; SES must be allowed to send as the address).
   */
  readonly mailFrom: string;
  /**
   * The SES identity to create and verify: the mailFrom address itself (default), or its
   * domain (set `mailIdentity=example.org` to verify the whole domain with Easy DKIM).
   */
  readonly mailIdentity: string;
  /** Base URL of the web client: mails link to games under it, and CORS allows its origin. */
  readonly appUrl: string;
  /** Where alarm notifications go (an SNS email subscription); none when absent. */
  readonly alarmEmail?: string;
  /** Cognito MFA: 'optional' lets players opt in to an authenticator app; 'required' forces it. */
  readonly mfa: 'optional' | 'required';
  /** Cognito feature plan: 'plus' adds threat protection (extra cost per monthly active user). */
  readonly cognitoPlan: 'essentials' | 'plus';
  /** Let anyone sign up (with a verified email). Off by default: the club creates accounts. */
  readonly selfSignUp: boolean;
  /** Retention of every function's log group and the API access log. */
  readonly logRetention: RetentionDays;
  /**
   * What answers the API's requests: 'functionUrl' (default), a Lambda function URL, which costs
   * nothing per request beyond the Lambda invocation, with the Cognito token verified in the
   * function; or 'httpApi', API Gateway's HTTP API ($1.00 a million requests on top), whose JWT
   * authorizer verifies the token and whose stage throttles every request (throttleRate/Burst).
   */
  readonly frontDoor: FrontDoor;
  /** Steady-state requests per second and burst for the whole HTTP API stage (frontDoor 'httpApi' only). */
  readonly throttleRate: number;
  readonly throttleBurst: number;
  /**
   * Reserved concurrency of the API function: at most this many requests run at once, and the
   * rest are answered 429 (with either front door). Off when absent: the account's unreserved
   * concurrency (1,000 by default, shared with the other functions) is the bound.
   */
  readonly apiConcurrency?: number;
  /**
   * Optional AWS WAF rule in front of the API where CloudFront fronts it (`/v1/*` of the web
   * distribution): an address sending more than this many requests in 5 minutes is answered 429
   * until its rate falls. Off when absent (a web ACL costs a monthly fee). A web ACL for CloudFront
   * must live in us-east-1, so the stack must be deployed there to turn it on.
   */
  readonly wafRateLimit?: number;
}

export const FRONT_DOORS = ['functionUrl', 'httpApi'] as const;
export type FrontDoor = (typeof FRONT_DOORS)[number];

/** What `cdk.json` ships: enough to synthesize anywhere; deployments override mailFrom/appUrl. */
export const DEFAULT_CONFIG: FieldpostConfig = {
  mailFrom: 'turns@example.org',
  mailIdentity: 'turns@example.org',
  appUrl: 'https://fieldpost.example.org',
  mfa: 'optional',
  cognitoPlan: 'essentials',
  selfSignUp: false,
  logRetention: RetentionDays.ONE_MONTH,
  frontDoor: 'functionUrl',
  throttleRate: 50,
  throttleBurst: 100,
};

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;

/** Reads a context value; CLI `-c` values arrive as strings, cdk.json values may be typed. */
type Lookup = (key: string) => unknown;

function str(get: Lookup, key: string, fallback: string): string {
  const v = get(key);
  if (v === undefined || v === null || v === '') return fallback;
  if (typeof v !== 'string') throw new ConfigError(`context "${key}" must be a string, got ${JSON.stringify(v)}`);
  return v.trim();
}

function optionalStr(get: Lookup, key: string): string | undefined {
  const v = get(key);
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string') throw new ConfigError(`context "${key}" must be a string, got ${JSON.stringify(v)}`);
  return v.trim();
}

function positiveInt(get: Lookup, key: string, fallback: number): number {
  const v = get(key);
  if (v === undefined || v === null || v === '') return fallback;
  const n = typeof v === 'number' ? v : Number(v);
  if (!Number.isInteger(n) || n <= 0) throw new ConfigError(`context "${key}" must be a positive whole number, got ${JSON.stringify(v)}`);
  return n;
}

/** Lambda's bounds for a function's reserved concurrency (the account's default quota is 1,000). */
export const API_CONCURRENCY_RANGE = { min: 1, max: 10_000 } as const;

/** AWS WAF's bounds for a rate-based rule's limit (requests per evaluation window). */
export const WAF_RATE_LIMIT_RANGE = { min: 10, max: 2_000_000_000 } as const;

/** A whole number within `range`, or undefined (off) when absent. */
function optionalInt(get: Lookup, key: string, range: { readonly min: number; readonly max: number }): number | undefined {
  const v = get(key);
  if (v === undefined || v === null || v === '') return undefined;
  const n = typeof v === 'number' ? v : Number(v);
  if (!Number.isInteger(n) || n < range.min || n > range.max)
    throw new ConfigError(`context "${key}" must be a whole number from ${range.min} to ${range.max}, got ${JSON.stringify(v)}`);
  return n;
}

function bool(get: Lookup, key: string, fallback: boolean): boolean {
  const v = get(key);
  if (v === undefined || v === null || v === '') return fallback;
  if (v === true || v === 'true') return true;
  if (v === false || v === 'false') return false;
  throw new ConfigError(`context "${key}" must be true or false, got ${JSON.stringify(v)}`);
}

function oneOf<T extends string>(get: Lookup, key: string, allowed: readonly T[], fallback: T): T {
  const v = str(get, key, fallback);
  if (!(allowed as readonly string[]).includes(v)) {
    throw new ConfigError(`context "${key}" must be one of ${allowed.join(', ')}, got ${JSON.stringify(v)}`);
  }
  return v as T;
}

/** The bare address of `a@b.c` or `Display Name <a@b.c>`; undefined if it is neither. */
export function mailAddress(from: string): string | undefined {
  const named = /^[^<>@]*<([^<>\s]+)>$/.exec(from.trim());
  const address = named ? named[1]! : from.trim();
  return EMAIL.test(address) ? address : undefined;
}

const RETENTIONS = new Set<number>(Object.values(RetentionDays).filter((v): v is number => typeof v === 'number'));

export function readConfig(get: Lookup): FieldpostConfig {
  const mailFrom = str(get, 'mailFrom', DEFAULT_CONFIG.mailFrom);
  const address = mailAddress(mailFrom);
  if (address === undefined) {
    throw new ConfigError(`context "mailFrom" must be an email address or "Name <address>", got ${JSON.stringify(mailFrom)}`);
  }
  const mailDomain = address.slice(address.lastIndexOf('@') + 1).toLowerCase();

  const mailIdentity = str(get, 'mailIdentity', address);
  if (EMAIL.test(mailIdentity)) {
    if (mailIdentity.toLowerCase() !== address.toLowerCase()) {
      throw new ConfigError(`context "mailIdentity" (${mailIdentity}) must be the mailFrom address or its domain`);
    }
  } else if (DOMAIN.test(mailIdentity)) {
    const d = mailIdentity.toLowerCase();
    // SES lets a verified domain send as any address in it or in its subdomains.
    if (mailDomain !== d && !mailDomain.endsWith(`.${d}`)) {
      throw new ConfigError(`context "mailIdentity" (${mailIdentity}) must be the domain of mailFrom (${mailFrom})`);
    }
  } else {
    throw new ConfigError(`context "mailIdentity" must be an email address or a domain, got ${JSON.stringify(mailIdentity)}`);
  }

  const appUrl = str(get, 'appUrl', DEFAULT_CONFIG.appUrl).replace(/\/+$/, '');
  let parsed: URL;
  try {
    parsed = new URL(appUrl);
  } catch {
    throw new ConfigError(`context "appUrl" must be an absolute URL, got ${JSON.stringify(appUrl)}`);
  }
  const local = parsed.hostname === 'localhost' || parsed.hostname === '127.0.0.1';
  if (parsed.protocol !== 'https:' && !(local && parsed.protocol === 'http:')) {
    throw new ConfigError(`context "appUrl" must use https (http only for localhost), got ${JSON.stringify(appUrl)}`);
  }

  const alarmEmail = optionalStr(get, 'alarmEmail');
  if (alarmEmail !== undefined && !EMAIL.test(alarmEmail)) {
    throw new ConfigError(`context "alarmEmail" must be an email address, got ${JSON.stringify(alarmEmail)}`);
  }

  const logRetention = positiveInt(get, 'logRetentionDays', DEFAULT_CONFIG.logRetention);
  if (!RETENTIONS.has(logRetention)) {
    throw new ConfigError(
      `context "logRetentionDays" must be a CloudWatch Logs retention (${[...RETENTIONS].sort((a, b) => a - b).join(', ')}), got ${logRetention}`,
    );
  }

  const throttleRate = positiveInt(get, 'throttleRate', DEFAULT_CONFIG.throttleRate);
  const throttleBurst = positiveInt(get, 'throttleBurst', DEFAULT_CONFIG.throttleBurst);
  const wafRateLimit = optionalInt(get, 'wafRateLimit', WAF_RATE_LIMIT_RANGE);
  const apiConcurrency = optionalInt(get, 'apiConcurrency', API_CONCURRENCY_RANGE);

  return {
    mailFrom,
    mailIdentity,
    appUrl,
    ...(alarmEmail !== undefined ? { alarmEmail } : {}),
    mfa: oneOf(get, 'mfa', ['optional', 'required'] as const, DEFAULT_CONFIG.mfa),
    cognitoPlan: oneOf(get, 'cognitoPlan', ['essentials', 'plus'] as const, DEFAULT_CONFIG.cognitoPlan),
    selfSignUp: bool(get, 'selfSignUp', DEFAULT_CONFIG.selfSignUp),
    logRetention: logRetention as RetentionDays,
    frontDoor: oneOf(get, 'frontDoor', FRONT_DOORS, DEFAULT_CONFIG.frontDoor),
    throttleRate,
    throttleBurst,
    ...(apiConcurrency !== undefined ? { apiConcurrency } : {}),
    ...(wafRateLimit !== undefined ? { wafRateLimit } : {}),
  };
}
