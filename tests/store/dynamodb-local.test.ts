import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { localClient, startDynamoLocal } from '../../functions/store/dynamodb-local.js';

/** Whether a TCP connection to host:port is accepted. */
const reachable = (host: string, port: number) =>
  new Promise<boolean>((ok) => {
    const s = connect({ host, port, timeout: 2000 });
    s.once('connect', () => (s.destroy(), ok(true)));
    s.once('error', () => ok(false));
    s.once('timeout', () => (s.destroy(), ok(false)));
  });

/** This machine's own addresses other than loopback (where another host would reach it). */
const otherAddresses = () =>
  Object.values(networkInterfaces())
    .flat()
    .filter((a) => a && !a.internal && a.family === 'IPv4')
    .map((a) => a!.address);

describe('DynamoDB Local', () => {
  it('listens on 127.0.0.1 only: not reachable on the machine’s other interfaces', async () => {
    const dynamo = await startDynamoLocal();
    try {
      expect(dynamo.host).toBe('127.0.0.1');
      const port = Number(new URL(dynamo.endpoint).port);
      const client = localClient(dynamo.endpoint);
      expect((await client.send(new ListTablesCommand({}))).TableNames).toEqual([]);
      client.destroy();
      expect(await reachable('127.0.0.1', port)).toBe(true);
      const others = otherAddresses();
      // A machine with loopback only still checks the launch: the java command line names the host.
      expect(dynamo.process.spawnargs).toContain('-Dfieldpost.dynamodb.host=127.0.0.1');
      for (const address of others) expect({ address, reachable: await reachable(address, port) }).toEqual({ address, reachable: false });
    } finally {
      await dynamo.stop();
    }
  }, 90_000);
});
