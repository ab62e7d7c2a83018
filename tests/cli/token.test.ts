import { describe, expect, it } from 'vitest';
import { playerFromToken } from '../../functions/cli/config.js';

const jwt = (claims: object) => `h.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.s`;

describe('CLI: a token from $FIELDPOST_TOKEN names its player', () => {
  it('prefers the Cognito username, then username, then sub', () => {
    expect(playerFromToken(jwt({ 'cognito:username': 'rommel', sub: 'uuid-1' }))).toBe('rommel');
    expect(playerFromToken(jwt({ username: 'patton', sub: 'uuid-2' }))).toBe('patton');
    expect(playerFromToken(jwt({ sub: 'uuid-3' }))).toBe('uuid-3');
  });
  it('gives nothing for a token it cannot read', () => {
    expect(playerFromToken('not-a-jwt')).toBeUndefined();
    expect(playerFromToken('a.!!!.b')).toBeUndefined();
  });
});
