import * as z from 'zod';
import { ok, PUBLIC, type GameEngine } from '../../domain/kernel/index.js';

/**
 * A fixture where either seat may act at any time and every command commutes: two commands
 * decided on the same version are both legal in either order, which is what a test of
 * "the loser of a race retries and succeeds" needs (Dice Race's strict turns cannot show it).
 */
const commandSchema = z.object({ type: z.literal('Add'), n: z.number().int().min(1).max(9) }).strict();
type Command = z.infer<typeof commandSchema>;
type Event = { type: 'Added'; seat: string; n: number };
interface State {
  total: number;
}

export const tally: GameEngine<State, Command, Event, Record<string, never>> = {
  id: 'tally',
  title: 'Tally (test fixture)',
  version: 1,
  optionsSchema: z.object({}).strict() as unknown as z.ZodType<Record<string, never>>,
  commandSchema,
  seats: () => [
    { id: 'a', name: 'A' },
    { id: 'b', name: 'B' },
  ],
  listing: {
    seats: [2],
    sides: [
      { id: 'a', name: 'A' },
      { id: 'b', name: 'B' },
    ],
  },
  initialState: () => ({ total: 0 }),
  setup: () => ok([]),
  evolve: (s, e) => ({ total: s.total + e.n }),
  decide: (_s, c, actor) => ok([{ event: { type: 'Added', seat: actor, n: c.n }, visibility: PUBLIC }]),
  view: (s) => ({ total: s.total }),
  pending: () => [],
  outcome: () => undefined,
  legalCommands: () => [{ type: 'Add', n: 1 }],
};
