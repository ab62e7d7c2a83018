/**
 * Game, club and tournament ids are base64url, so one in 32 begins with '-'. The terminal
 * client's only short option is `-h`: a longer word that begins with a single dash ('-Yx3…')
 * is a value, never an option, but node's parseArgs would refuse it as an unknown option.
 * Such words are masked before parsing and given back after.
 */
const DASH_WORD = /^-[^-]./s;
const MASK = '\u0000';

export function maskDashWords(argv: readonly string[]): { readonly args: string[]; readonly unmask: <T>(value: T) => T } {
  const args = argv.map((a, i) => (DASH_WORD.test(a) ? `${MASK}${i}` : a));
  const one = (s: string): string => (s.startsWith(MASK) ? argv[Number(s.slice(1))]! : s);
  const unmask = <T>(value: T): T =>
    (typeof value === 'string' ? one(value) : Array.isArray(value) ? value.map((v) => (typeof v === 'string' ? one(v) : v)) : value) as T;
  return { args, unmask };
}
