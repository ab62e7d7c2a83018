/**
 * Published AWS prices the bench turns measured units into dollars with: us-east-1, on-demand,
 * no free tier, as listed on the pages below in November 2026. Update the numbers and the date
 * together; the bench prints which table it used.
 */
export const PRICES = {
  asOf: '2026-11 (us-east-1, on-demand, free tier ignored)',
  /** https://aws.amazon.com/dynamodb/pricing/on-demand/ */
  dynamoWriteRequestUnit: 0.625 / 1e6,
  dynamoReadRequestUnit: 0.125 / 1e6,
  dynamoStorageGbMonth: 0.25,
  /** GetRecords by a Lambda trigger are not charged (same page, "DynamoDB Streams"). */
  dynamoStreamReadByLambda: 0,
  /** https://aws.amazon.com/lambda/pricing/ (Arm) */
  lambdaGbSecondArm: 0.0000133334,
  lambdaRequest: 0.2 / 1e6,
  /** https://aws.amazon.com/api-gateway/pricing/ (HTTP APIs, first 300 million) */
  httpApiRequest: 1.0 / 1e6,
  /** https://aws.amazon.com/sqs/pricing/ (standard queue, per 64 KB request) */
  sqsRequest: 0.4 / 1e6,
  /** https://aws.amazon.com/ses/pricing/ (outbound email) */
  sesEmail: 0.1 / 1000,
} as const;
