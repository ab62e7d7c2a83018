import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../functions/store/dynamodb-local.js';

/**
 * Smoke test of the real `npm start -- --memory --port N`: it serves /v1/health, and Ctrl-C
 * (SIGINT to the whole process group, as a terminal sends it) stops the API and DynamoDB
 * Local's JVM and exits cleanly.
 */
const ROOT = resolve(import.meta.dirname, '../..');

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const withoutSdkWarningFlag = (env: NodeJS.ProcessEnv): NodeJS.ProcessEnv =>
  Object.fromEntries(Object.entries(env).filter(([k]) => k !== 'AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED'));

describe('npm start', () => {
  it('serves /v1/health and stops everything on Ctrl-C', async () => {
    const port = await freePort();
    // Its own process group, like a terminal job, so the test can signal it the way Ctrl-C does.
    const child = spawn('npm', ['start', '--', '--memory', '--port', String(port)], {
      cwd: ROOT,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      // Without the SDK's warning flag the test run itself may have set: npm start must set it on its own.
      env: { ...withoutSdkWarningFlag(process.env), LOCAL_JWT_SECRET: '' },
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    // 'close': npm has exited and every process holding its stdout (tsx, node) is gone too.
    const closed = new Promise<void>((ok) => child.on('close', () => ok()));
    let javaPid: number | undefined;
    try {
      const started = Date.now();
      while (!out.includes('Ctrl-C stops everything') && Date.now() - started < 90_000 && child.exitCode === null) await new Promise((r) => setTimeout(r, 100));
      expect(out).toContain(`Fieldpost API:  http://127.0.0.1:${port}`);
      expect(out).toMatch(/curl -s -X POST http:\/\/127\.0\.0\.1:\d+\/local\/token/);
      expect(out).toContain('npm run cli -- login alice');
      // Node 20 is supported (package.json engines): the AWS SDK's advice to upgrade is not shown.
      expect(out).not.toMatch(/NodeVersionSupportWarning|will require node >=22/);
      javaPid = Number(/java pid (\d+)/.exec(out)?.[1]);
      expect(alive(javaPid)).toBe(true);

      const health = await fetch(`http://127.0.0.1:${port}/v1/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ ok: true, service: 'fieldpost' });
      const token = await fetch(`http://127.0.0.1:${port}/local/token`, { method: 'POST', body: JSON.stringify({ player: 'alice' }) });
      expect(((await token.json()) as { token: string }).token.split('.')).toHaveLength(3);

      // Ctrl-C reaches the server more than once (the terminal signals the job, npm forwards
      // it again); a repeat a moment later is the same keypress and must not force an exit.
      process.kill(-child.pid!, 'SIGINT');
      await new Promise((r) => setTimeout(r, 150));
      process.kill(-child.pid!, 'SIGINT');
      const result = await Promise.race([closed.then(() => 'closed'), new Promise<'hung'>((r) => setTimeout(() => r('hung'), 20_000))]);
      expect(result).toBe('closed');
      expect(out).toContain('SIGINT: stopping the API and DynamoDB Local');
      expect(out).toContain('Stopped.');
      expect(out).not.toContain('Forced exit.');
      expect(out).toContain('Still stopping...');
      // Nothing of the job is left: the process group is empty.
      expect(alive(-child.pid!)).toBe(false);
      for (let i = 0; i < 50 && alive(javaPid); i++) await new Promise((r) => setTimeout(r, 100));
      expect(alive(javaPid)).toBe(false);
      await expect(fetch(`http://127.0.0.1:${port}/v1/health`)).rejects.toThrow();
    } finally {
      // Never leave anything running if an assertion failed midway.
      if (child.exitCode === null) {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // already gone
        }
      }
      if (javaPid && alive(javaPid)) process.kill(javaPid, 'SIGKILL');
    }
  }, 120_000);
});
