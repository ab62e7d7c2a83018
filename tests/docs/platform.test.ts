import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isSupportedNode, quietSdkNodeWarning, SUPPORTED_NODE } from '../../functions/node-version.js';

const ROOT = resolve(import.meta.dirname, '../..');
const read = (f: string) => readFileSync(resolve(ROOT, f), 'utf8');

describe('supported Node versions', () => {
  it('package.json engines (and its lock file) state them, and this Node is one of them', () => {
    expect(JSON.parse(read('package.json')).engines.node).toBe(SUPPORTED_NODE);
    expect(JSON.parse(read('package-lock.json')).packages[''].engines.node).toBe(SUPPORTED_NODE);
    expect(isSupportedNode(process.version)).toBe(true);
  });

  it('the README names the same versions', () => {
    expect(read('README.md')).toMatch(/Node 20 \(20\.19 or later\), 22 \(22\.13 or later\) or 24\+/);
  });

  it("silences the AWS SDK's upgrade warning on supported versions only, never against the user's own setting", () => {
    const flag = 'AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED';
    for (const v of ['v20.19.0', 'v20.20.2', 'v22.13.0', 'v24.1.0', 'v25.0.0']) {
      const env: NodeJS.ProcessEnv = {};
      quietSdkNodeWarning(env, v);
      expect([v, env[flag]]).toEqual([v, 'true']);
    }
    for (const v of ['v18.20.4', 'v20.10.0', 'v21.7.3', 'v22.3.0', 'v23.1.0']) {
      const env: NodeJS.ProcessEnv = {};
      quietSdkNodeWarning(env, v);
      expect([v, env[flag]]).toEqual([v, undefined]);
    }
    const mine: NodeJS.ProcessEnv = { [flag]: 'false' };
    quietSdkNodeWarning(mine, 'v20.20.2');
    expect(mine[flag]).toBe('false');
  });
});

describe('README: AWS walkthrough', () => {
  it('sets a permanent password between admin-create-user and initiate-auth (else Cognito answers NEW_PASSWORD_REQUIRED)', () => {
    const readme = read('README.md');
    const create = readme.indexOf('aws cognito-idp admin-create-user');
    const setPassword = readme.search(/aws cognito-idp admin-set-user-password [^\n]*--permanent/);
    const auth = readme.indexOf('aws cognito-idp initiate-auth');
    expect(create).toBeGreaterThan(0);
    expect(setPassword).toBeGreaterThan(create);
    expect(auth).toBeGreaterThan(setPassword);
    expect(readme.slice(setPassword, auth)).toMatch(/--user-pool-id \$UserPoolId --username rommel --password '\.\.\.'/);
  });
});
