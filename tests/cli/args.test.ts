import { parseArgs } from 'node:util';
import { describe, expect, it } from 'vitest';
import { maskDashWords } from '../../functions/cli/args.js';

/** One base64url id in 32 begins with '-': the terminal client must take it as an id, not an option. */
describe('ids that begin with a dash', () => {
  const parse = (argv: string[]) => {
    const m = maskDashWords(argv);
    const r = parseArgs({
      args: m.args,
      allowPositionals: true,
      options: { seat: { type: 'string' }, reserve: { type: 'string', multiple: true }, help: { type: 'boolean', short: 'h' } },
    });
    return { positionals: r.positionals.map(m.unmask), seat: m.unmask(r.values.seat), reserve: m.unmask(r.values.reserve), help: r.values.help };
  };

  it('is a positional, or an option value, exactly as typed', () => {
    expect(parse(['join', '-YQ2xk_9', '--seat', '-p2'])).toEqual({ positionals: ['join', '-YQ2xk_9'], seat: '-p2', reserve: undefined, help: undefined });
    expect(parse(['create', 'x', '--reserve', 'p2=bob', '--reserve', '-abc']).reserve).toEqual(['p2=bob', '-abc']);
  });

  it('leaves real options alone: -h, --flags and --', () => {
    expect(parse(['-h']).help).toBe(true);
    expect(parse(['show', '--', '-x']).positionals).toEqual(['show', '-x']);
    expect(() => parse(['show', '--nope'])).toThrow(/Unknown option/);
  });

  it('without the mask, parseArgs refuses such an id (the bug this guards against)', () => {
    expect(() => parseArgs({ args: ['join', '-YQ2xk_9'], allowPositionals: true, options: {} })).toThrow(/Unknown option/);
  });
});
