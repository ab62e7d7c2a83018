import { LambdaClient } from '@aws-sdk/client-lambda';
import { digestSweep } from '../notify/digest-wiring.js';
import { mailerFromEnv } from '../notify/mailer.js';
import { drawViaLambda } from '../notify/picture-client.js';
import { systemClock, tableFromEnv } from '../environment.js';

/**
 * The daily digest in AWS: an EventBridge rule invokes this every hour (infra/fieldpost-stack.ts),
 * and it mails each player whose chosen hour has come and whose day's digest has not gone out
 * (notify/digest.ts). A repeated or overlapping invocation sends nothing twice: each day is
 * claimed with one conditional write before its mail. Pictures come from the picture function.
 */
let sweep: (() => Promise<unknown>) | undefined;

export const handler = async (): Promise<{ sent: number }> => {
  if (!sweep) {
    const { client, tableName } = tableFromEnv(process.env);
    const picture = process.env['PICTURE_FUNCTION'];
    sweep = digestSweep({
      client,
      tableName,
      mailer: mailerFromEnv(process.env),
      clock: systemClock,
      appUrl: process.env['APP_URL'] ?? 'http://localhost:3000',
      ...(picture ? { boardPicture: drawViaLambda(new LambdaClient({}), picture) } : {}),
      log: (line) => console.log(JSON.stringify({ level: 'info', msg: line })),
    });
  }
  const sent = (await sweep()) as unknown[];
  console.log(JSON.stringify({ level: 'info', msg: 'digest sweep', sent: sent.length }));
  return { sent: sent.length };
};
