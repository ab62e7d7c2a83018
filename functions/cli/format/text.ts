// Small helpers every formatter shares: reading unknown JSON by shape and shortening it.

export const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
export const strs = (x: unknown): string[] | undefined => (Array.isArray(x) && x.every((v) => typeof v === 'string') ? (x as string[]) : undefined);

export const compact = (x: unknown, max = 160): string => {
  const s = JSON.stringify(x) ?? '';
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
};

export function indent(text: string, by = '  '): string {
  return text
    .split('\n')
    .map((l) => (l ? by + l : l))
    .join('\n');
}
