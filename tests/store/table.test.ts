import { describe, expect, it } from 'vitest';
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { freshTable } from '../support/dynamo.js';

describe('DynamoDB Local table', () => {
  it('is created with a stream of old and new images', async () => {
    const { client, tableName } = await freshTable();
    const d = await client.send(new DescribeTableCommand({ TableName: tableName }));
    expect(d.Table?.StreamSpecification?.StreamViewType).toBe('NEW_AND_OLD_IMAGES');
    expect(d.Table?.KeySchema?.map((k) => k.AttributeName)).toEqual(['pk', 'sk']);
  });
});
