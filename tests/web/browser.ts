import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/**
 * Debian's chromium (or $CHROMIUM_PATH), driven by playwright-core: Playwright's own browser
 * download is never used. .ci/run installs the package when the machine has none.
 */
function chromiumPath(): string {
  const fromEnv = process.env['CHROMIUM_PATH'];
  if (fromEnv) return fromEnv;
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    try {
      const path = execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim();
      if (path && existsSync(path)) return path;
    } catch {
      // not on PATH
    }
  }
  throw new Error('No Chromium found for the browser tests: apt-get install chromium (as .ci/run does), or set CHROMIUM_PATH');
}

export const launchChromium = (): Promise<Browser> =>
  chromium.launch({ executablePath: chromiumPath(), headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
