/**
 * Waits until `probe` returns something other than `undefined`, and returns it: for what the
 * stream poller, a child process or a browser makes true eventually. The bound is generous so a
 * busy machine (two test workers on two cores) is slow rather than wrong; a test that never gets
 * there still fails, naming what it waited for.
 */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 45_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** `waitFor` for a yes/no condition. */
export const waitUntil = (what: string, check: () => Promise<boolean>, timeoutMs?: number): Promise<true> =>
  waitFor(what, async () => ((await check()) ? true : undefined), timeoutMs);
