import { describe, expect, it, vi } from 'vitest';
import { InvokeCommand } from '@aws-sdk/client-lambda';
import { createPictureHandler } from '../../functions/handlers/picture.js';
import type { Notice } from '../../functions/notify/decide.js';
import { boardPictureViaLambda } from '../../functions/notify/picture-client.js';

/**
 * The mail picture in AWS: the notifier (which may not read games) asks the picture function
 * (which may, and posts nowhere) for the recipient's own view as a PNG.
 */
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
const notice = { gameId: 'g1', player: 'bob', seats: ['de'], kind: 'turn' } as unknown as Notice;

describe('picture function', () => {
  it("draws the asked player's seat and answers the PNG as base64", async () => {
    const draw = vi.fn(async () => PNG);
    const r = await createPictureHandler(draw)({ gameId: 'g1', player: 'bob', seat: 'de' });
    expect(draw).toHaveBeenCalledWith({ gameId: 'g1', player: 'bob', seat: 'de' });
    expect(Buffer.from(r.png!, 'base64')).toEqual(Buffer.from(PNG));
  });

  it('answers no picture when there is none, and refuses what is not a request', async () => {
    expect(await createPictureHandler(async () => undefined)({ gameId: 'g1', player: 'bob' })).toEqual({});
    const tooLong = 'x'.repeat(101);
    for (const bad of [
      null,
      'g1',
      ['g1', 'bob'],
      { gameId: 'g1' },
      { gameId: 'g1', player: 'bob', extra: 1 },
      { gameId: '', player: 'bob' },
      { gameId: tooLong, player: 'bob' },
      { gameId: 'g1', player: 'x'.repeat(129) },
      { gameId: 'g1', player: 'bob', seat: '' },
      { gameId: 'g1', player: 'bob', seat: 'x'.repeat(33) },
      { gameId: 'g1', player: 7 },
      JSON.parse('{"gameId":"g1","player":"bob","__proto__":{"seat":"de"}}'),
    ]) {
      expect(await createPictureHandler(async () => PNG)(bad)).toEqual({ error: 'not a picture request: {gameId, player, seat?}' });
    }
  });

  it('takes the longest ids the notifier may send, and a request without a seat', async () => {
    const draw = vi.fn(async () => PNG);
    const longest = { gameId: 'g'.repeat(100), player: 'p'.repeat(128), seat: 's'.repeat(32) };
    expect((await createPictureHandler(draw)(longest)).png).toBeDefined();
    expect(draw).toHaveBeenLastCalledWith(longest);
    await createPictureHandler(draw)({ gameId: 'g1', player: 'bob' });
    expect(draw).toHaveBeenLastCalledWith({ gameId: 'g1', player: 'bob' });
  });
});

describe('the notifier asking for it', () => {
  it("invokes the function with the recipient's game, player and seat, and decodes the PNG", async () => {
    const sent: InvokeCommand[] = [];
    const client = {
      send: async (c: InvokeCommand) => {
        sent.push(c);
        return { Payload: new TextEncoder().encode(JSON.stringify({ png: Buffer.from(PNG).toString('base64') })) };
      },
    };
    const png = await boardPictureViaLambda(client as never, 'fieldpost-picture')(notice);
    expect(png && Buffer.from(png)).toEqual(Buffer.from(PNG));
    expect(sent[0]!.input.FunctionName).toBe('fieldpost-picture');
    expect(JSON.parse(new TextDecoder().decode(sent[0]!.input.Payload as Uint8Array))).toEqual({ gameId: 'g1', player: 'bob', seat: 'de' });
  });

  it('a failed or empty answer leaves the mail without a picture, logged', async () => {
    const log = vi.fn();
    const failing = { send: async () => ({ FunctionError: 'Unhandled', Payload: new Uint8Array() }) };
    expect(await boardPictureViaLambda(failing as never, 'f', log)(notice)).toBeUndefined();
    expect(log).toHaveBeenCalledWith('board picture failed', expect.objectContaining({ gameId: 'g1', error: expect.stringContaining('Unhandled') }));
    const none = { send: async () => ({ Payload: new TextEncoder().encode('{}') }) };
    expect(await boardPictureViaLambda(none as never, 'f', log)(notice)).toBeUndefined();
  });
});
