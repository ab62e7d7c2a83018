import { awsCall, type AwsClientConfig } from './call.js';

/** One SSM Parameter Store parameter's value (GetParameter over SSM's JSON protocol), with the function's own credentials. */
export async function readParameter(name: string, config: AwsClientConfig = {}): Promise<string> {
  const res = await awsCall(config, {
    service: 'ssm',
    method: 'POST',
    path: '/',
    headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': 'AmazonSSM.GetParameter' },
    body: JSON.stringify({ Name: name }),
  });
  const value = (JSON.parse(new TextDecoder().decode(res.body)) as { Parameter?: { Value?: unknown } }).Parameter?.Value;
  if (typeof value !== 'string') throw new Error(`SSM parameter ${name} has no value`);
  return value;
}
