import { describe, expect, it } from 'vitest';
import { signedHeaders } from '../../functions/aws/sigv4.js';

// The example credentials and time of AWS's Signature Version 4 documentation and test suite.
const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };
const now = new Date('2015-08-30T12:36:00Z');

describe('Signature Version 4', () => {
  it("signs the test suite's get-vanilla request as AWS does", () => {
    const h = signedHeaders({
      method: 'GET',
      url: new URL('https://example.amazonaws.com/'),
      headers: {},
      body: '',
      service: 'service',
      region: 'us-east-1',
      credentials,
      now,
    });
    expect(h['x-amz-date']).toBe('20150830T123600Z');
    expect(h['authorization']).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31',
    );
  });

  it("signs the documentation's IAM ListUsers example as AWS does", () => {
    const h = signedHeaders({
      method: 'GET',
      url: new URL('https://iam.amazonaws.com/?Action=ListUsers&Version=2010-05-08'),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded; charset=utf-8' },
      body: '',
      service: 'iam',
      region: 'us-east-1',
      credentials,
      now,
    });
    expect(h['authorization']).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/iam/aws4_request, SignedHeaders=content-type;host;x-amz-date, Signature=5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7',
    );
  });
});
