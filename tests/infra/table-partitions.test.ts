import type { HandlerName } from '../../infra/handler-function.js';
import { Stack, type CfnElement } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { resourcesOf, synth } from './support.js';

/**
 * The projector and the notifier never need a game's partition (events, HEAD, the SECRET
 * seed, snapshots): they work on read models, settings and notification bookkeeping. The
 * notifier posts to URLs players choose, so it is the most exposed function; neither may be
 * able to read a running game's seed or hidden events. Their table statements are limited
 * to partition key prefixes with dynamodb:LeadingKeys.
 */
const { stack, template } = synth();
const tableId = stack.getLogicalId(stack.data.table.node.defaultChild as CfnElement);

interface RawStatement {
  Action: string | string[];
  Resource: unknown;
  Condition?: Record<string, Record<string, string | string[]>>;
}

function tableStatements(name: HandlerName): RawStatement[] {
  const role = stack.functions[name].role;
  const roleId = Stack.of(role).getLogicalId(role.node.defaultChild as CfnElement);
  return Object.values(resourcesOf(template, 'AWS::IAM::Policy'))
    .filter((p) => JSON.stringify(p.Properties['Roles']).includes(JSON.stringify({ Ref: roleId })))
    .flatMap((p) => (p.Properties['PolicyDocument'] as { Statement: RawStatement[] }).Statement)
    .filter((s) => JSON.stringify(s.Resource).includes(JSON.stringify({ 'Fn::GetAtt': [tableId, 'Arn'] })));
}

const glob = (pattern: string) =>
  new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
  );

/** The partition keys a statement admits, tested against sample keys. */
function admits(s: RawStatement, pk: string): boolean {
  const keys = s.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'];
  if (keys === undefined) return true;
  return (Array.isArray(keys) ? keys : [keys]).some((k) => glob(k).test(pk));
}

const actions = (s: RawStatement) => (Array.isArray(s.Action) ? s.Action : [s.Action]);
const canDo = (ss: RawStatement[], action: string, pk: string) => ss.some((s) => actions(s).includes(`dynamodb:${action}`) && admits(s, pk));

describe('table access by partition', () => {
  it('the projector reaches read models only: not a game partition with its seed', () => {
    const ss = tableStatements('projector');
    expect(ss.length).toBeGreaterThan(0);
    for (const [action, pk] of [
      ['GetItem', 'SUMMARY#g1'],
      ['PutItem', 'SUMMARY#g1'],
      ['PutItem', 'INBOX#alice'],
      ['DeleteItem', 'INBOX#alice'],
      ['PutItem', 'LOBBY'],
      ['DeleteItem', 'LOBBY'],
    ] as const) {
      expect(canDo(ss, action, pk), `${action} ${pk}`).toBe(true);
    }
    for (const action of ['GetItem', 'Query', 'PutItem']) expect(canDo(ss, action, 'GAME#g1'), action).toBe(false);
    expect(canDo(ss, 'GetItem', 'PLAYER#alice')).toBe(false);
  });

  it('the digest reaches its subscribers, settings and delivery logs, and inboxes: not a game partition', () => {
    const ss = tableStatements('digest');
    for (const [action, pk] of [
      ['Query', 'DIGESTS'],
      ['UpdateItem', 'DIGESTS'],
      ['GetItem', 'PLAYER#bob'],
      ['PutItem', 'PLAYER#bob'],
      ['Query', 'INBOX#bob'],
    ] as const)
      expect(canDo(ss, action, pk), `${action} ${pk}`).toBe(true);
    for (const action of ['GetItem', 'Query', 'PutItem']) expect(canDo(ss, action, 'GAME#g1'), action).toBe(false);
    for (const [action, pk] of [
      ['PutItem', 'INBOX#bob'],
      ['DeleteItem', 'DIGESTS'],
      ['GetItem', 'SUMMARY#g1'],
    ] as const)
      expect(canDo(ss, action, pk), `${action} ${pk}`).toBe(false);
  });

  it('the notifier reaches settings, delivery logs, its ledger and summaries: not a game partition', () => {
    const ss = tableStatements('notifier');
    expect(ss.length).toBeGreaterThan(0);
    for (const [action, pk] of [
      ['GetItem', 'PLAYER#bob'],
      ['PutItem', 'PLAYER#bob'],
      ['PutItem', 'NOTIFIED#k'],
      ['GetItem', 'NOTIFIED#k'],
      ['UpdateItem', 'NOTIFIED#k'],
      ['DeleteItem', 'NOTIFIED#k'],
      ['GetItem', 'SUMMARY#g1'],
    ] as const) {
      expect(canDo(ss, action, pk), `${action} ${pk}`).toBe(true);
    }
    for (const action of ['GetItem', 'Query', 'PutItem']) expect(canDo(ss, action, 'GAME#g1'), action).toBe(false);
    // Summaries are the projector's to write.
    expect(canDo(ss, 'PutItem', 'SUMMARY#g1')).toBe(false);
  });

  it("the picture function reads game partitions (to fold a player's view) and writes nothing; the notifier only invokes it", () => {
    const ss = tableStatements('picture');
    for (const action of ['GetItem', 'Query']) expect(canDo(ss, action, 'GAME#g1'), action).toBe(true);
    for (const action of ['PutItem', 'UpdateItem', 'DeleteItem']) expect(canDo(ss, action, 'GAME#g1'), action).toBe(false);
    for (const pk of ['PLAYER#bob', 'SUMMARY#g1', 'INBOX#bob']) expect(canDo(ss, 'GetItem', pk), pk).toBe(false);
    const invokes = Object.values(resourcesOf(template, 'AWS::IAM::Policy'))
      .filter((p) => JSON.stringify(p.Properties['Roles']).includes(stack.getLogicalId(stack.functions.notifier.role.node.defaultChild as CfnElement)))
      .flatMap((p) => (p.Properties['PolicyDocument'] as { Statement: RawStatement[] }).Statement)
      .filter((st) => actions(st).includes('lambda:InvokeFunction'));
    expect(JSON.stringify(invokes)).toContain(stack.getLogicalId(stack.functions.picture.fn.node.defaultChild as CfnElement));
  });

  it("the deadline function reads and appends to game partitions, and to a tournament's stream and listing line (its scheduled start), only; the scheduler function reads no item", () => {
    const ss = tableStatements('deadline');
    for (const pk of ['GAME#g1', 'TOURNAMENT#t1', 'TOURNAMENTS'])
      for (const action of ['GetItem', 'Query', 'PutItem']) expect(canDo(ss, action, pk), `${action} ${pk}`).toBe(true);
    for (const pk of ['GAME#g1', 'TOURNAMENT#t1', 'TOURNAMENTS'])
      for (const action of ['UpdateItem', 'DeleteItem']) expect(canDo(ss, action, pk), `${action} ${pk}`).toBe(false);
    for (const pk of ['PLAYER#bob', 'SUMMARY#g1', 'INBOX#bob', 'LOBBY', 'CLUB#c1', 'RATINGS#spearpoint-1943', 'TGAME#g1'])
      expect(canDo(ss, 'GetItem', pk), pk).toBe(false);
    const planner = tableStatements('scheduler');
    for (const action of ['GetItem', 'Query', 'PutItem'])
      for (const pk of ['GAME#g1', 'PLAYER#bob']) expect(canDo(planner, action, pk), `${action} ${pk}`).toBe(false);
  });

  it('the tournaments function reaches games (it makes and ends them), clubs, tournaments, ratings and their links: not settings or read models', () => {
    const ss = tableStatements('tournaments');
    for (const pk of ['GAME#g1', 'CLUB#c1', 'CLUBGAMES#c1', 'TOURNAMENT#t1', 'TOURNAMENTS', 'RATINGS#spearpoint-1943', 'TGAME#g1'])
      for (const action of ['GetItem', 'Query', 'PutItem']) expect(canDo(ss, action, pk), `${action} ${pk}`).toBe(true);
    for (const pk of ['PLAYER#bob', 'SUMMARY#g1', 'INBOX#bob', 'LOBBY', 'NOTIFIED#k']) expect(canDo(ss, 'GetItem', pk), pk).toBe(false);
    expect(canDo(ss, 'DeleteItem', 'GAME#g1')).toBe(false);
  });

  it('the API keeps the whole table (it runs the game service)', () => {
    expect(canDo(tableStatements('api'), 'GetItem', 'GAME#g1')).toBe(true);
  });
});
