// Clubs, tournaments and ratings: the words of functions/cli/tournament.ts, sent with your login.
import { clubCommand, playerCommand, ratingsCommand, tournamentCommand } from '../tournament.js';
import { arg, client, out, type Commands } from './context.js';

export const clubCommands: Commands = {
  async club(ctx) {
    out(await clubCommand(client(ctx), ctx.args, ctx.flags));
  },

  async tournament(ctx) {
    out(await tournamentCommand(client(ctx), ctx.args, ctx.flags));
  },

  async ratings(ctx) {
    out(await ratingsCommand(client(ctx), arg(ctx, 0, 'engine'), ctx.flags.json === true));
  },

  async player(ctx) {
    out(await playerCommand(client(ctx), arg(ctx, 0, 'player'), ctx.flags.json === true));
  },
};
