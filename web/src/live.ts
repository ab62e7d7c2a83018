import { useEffect, useRef } from 'preact/hooks';

/**
 * Live updates without a reload: `tick` runs now and then every `ms` while the page is open
 * (a conditional GET: it gets the last ETag and returns the new one), and at once when the
 * tab becomes visible again.
 */
export function usePolling(tick: (etag: string | undefined) => Promise<string | undefined>, ms: number, deps: readonly unknown[] = []): () => void {
  const etag = useRef<string | undefined>(undefined);
  const run = useRef<() => void>(() => {});
  useEffect(() => {
    let live = true;
    let busy = false;
    etag.current = undefined;
    const go = async () => {
      if (busy || !live) return;
      busy = true;
      try {
        const next = await tick(etag.current);
        if (live) etag.current = next;
      } finally {
        busy = false;
      }
    };
    run.current = () => {
      etag.current = undefined;
      void go();
    };
    void go();
    const timer = setInterval(() => void (document.visibilityState === 'visible' && go()), ms);
    const visible = () => void (document.visibilityState === 'visible' && go());
    document.addEventListener('visibilitychange', visible);
    return () => {
      live = false;
      clearInterval(timer);
      document.removeEventListener('visibilitychange', visible);
    };
  }, deps);
  return () => run.current();
}

/** "3 h 20 min left", "overdue by 2 h": a deadline in words. */
export function timeLeft(deadline: string, now = Date.now()): string {
  const ms = Date.parse(deadline) - now;
  const abs = Math.abs(ms);
  const d = Math.floor(abs / 86_400_000);
  const h = Math.floor((abs % 86_400_000) / 3_600_000);
  const m = Math.floor((abs % 3_600_000) / 60_000);
  const span = d ? `${d} d ${h} h` : h ? `${h} h ${m} min` : `${m} min`;
  return ms >= 0 ? `${span} left` : `overdue by ${span}`;
}
