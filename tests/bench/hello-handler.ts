/** The cold-start floor: a Lambda handler that imports nothing (tests/support/bundles.ts). */
export const handler = async (): Promise<{ statusCode: number; body: string }> => ({ statusCode: 200, body: 'hello' });
