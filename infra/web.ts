import { Aws, CfnRule, Duration, Fn, RemovalPolicy, Stack, Token } from 'aws-cdk-lib';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import type * as cognito from 'aws-cdk-lib/aws-cognito';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { contentSecurityPolicy, WEB_DIST } from '../functions/local/web-client.js';

export interface FieldpostWebProps {
  /** The host of the API's front door (the function URL's or the HTTP API's), served at /v1/*. */
  readonly apiDomain: string;
  readonly userPoolClient: cognito.UserPoolClient;
  /** The hosted sign-in's base URL (https://<prefix>.auth.<region>.amazoncognito.com). */
  readonly signInUrl: string;
  /** How long the deployment handler's log is kept (the stack's logRetentionDays). */
  readonly logRetention: logs.RetentionDays;
  /** The built web client; web/dist unless given (tests give a stand-in). */
  readonly source?: s3deploy.ISource;
  /** Requests an address may send to /v1/* in 5 minutes before WAF answers 429 (FieldpostConfig.wafRateLimit); no web ACL when absent. */
  readonly wafRateLimit?: number;
}

/** The window AWS WAF counts an address's requests over, in seconds. */
export const WAF_WINDOW_SECONDS = 300;

/** What WAF answers an address over its rate: the API's own error body, and when to try again. */
export const WAF_TOO_MANY = {
  code: 'limit/address',
  message: 'Too many requests from your address: wait a few minutes and try again (a club raises the limit with wafRateLimit).',
} as const;

/**
 * Rewrites the app's page addresses (/, /games/abc, /settings: no file extension) to
 * /index.html, so a reload or a link from a mail opens the app. Only on the default (S3)
 * behaviour: /v1/* goes to the API untouched, and its 404s stay JSON.
 */
const SPA_REWRITE = `function handler(event) {
  var request = event.request;
  if (request.uri.indexOf('.') === -1) request.uri = '/index.html';
  return request;
}`;

/**
 * The web client in AWS: the built files (web/dist) in a private S3 bucket read only by
 * CloudFront through origin access control, the API behind the same distribution at /v1/*
 * (same origin: the browser needs no CORS), and security headers with a strict
 * Content-Security-Policy on every answer. The app reads /config.json to find Cognito's
 * hosted sign-in (authorization code flow with PKCE, web/src/pkce.ts).
 */
export class FieldpostWeb extends Construct {
  readonly bucket: s3.Bucket;
  readonly logBucket: s3.Bucket;
  readonly distribution: cloudfront.Distribution;
  readonly headers: cloudfront.ResponseHeadersPolicy;
  /** The role of aws-cdk-lib's deployment handler (reviewed in nag-suppressions.ts). */
  readonly deployRole: iam.Role;
  /** The per-address rate rule in front of the API, when wafRateLimit is set. */
  readonly webAcl?: wafv2.CfnWebACL;

  constructor(scope: Construct, id: string, props: FieldpostWebProps) {
    super(scope, id);

    // CloudFront's standard logs are written with ACLs, so this bucket lets the writer own objects.
    this.logBucket = new s3.Bucket(this, 'Logs', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: s3.ObjectOwnership.OBJECT_WRITER,
      lifecycleRules: [{ expiration: Duration.days(90) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.bucket = new s3.Bucket(this, 'Site', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      serverAccessLogsBucket: this.logBucket,
      serverAccessLogsPrefix: 'site/',
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.headers = new cloudfront.ResponseHeadersPolicy(this, 'SecurityHeaders', {
      comment: 'Fieldpost web client: CSP and the usual security headers',
      securityHeadersBehavior: {
        // The token exchange of the hosted sign-in is the one request to another origin.
        contentSecurityPolicy: { contentSecurityPolicy: contentSecurityPolicy([props.signInUrl]), override: true },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: true },
        referrerPolicy: { referrerPolicy: cloudfront.HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN, override: true },
        strictTransportSecurity: { accessControlMaxAge: Duration.days(365), includeSubdomains: true, override: true },
      },
    });

    if (props.wafRateLimit !== undefined) this.webAcl = this.rateRule(props.wafRateLimit);

    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: 'Fieldpost: the web client and its API on one origin',
      ...(this.webAcl ? { webAclId: this.webAcl.attrArn } : {}),
      defaultRootObject: 'index.html',
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      enableLogging: true,
      logBucket: this.logBucket,
      logFilePrefix: 'cloudfront/',
      defaultBehavior: {
        origin: origins.S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: this.headers,
        functionAssociations: [
          {
            eventType: cloudfront.FunctionEventType.VIEWER_REQUEST,
            function: new cloudfront.Function(this, 'AppPages', { code: cloudfront.FunctionCode.fromInline(SPA_REWRITE), comment: 'App pages to /index.html' }),
          },
        ],
      },
      additionalBehaviors: {
        '/v1/*': {
          origin: new origins.HttpOrigin(props.apiDomain, { protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY }),
          viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
          allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
          // Every answer is per player (the bearer token): never cached at the edge. With caching disabled, the
          // all-viewer-headers policy forwards Authorization too (an origin request policy cannot name it on its own).
          cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
          originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
          responseHeadersPolicy: this.headers,
        },
      },
    });

    // The deployment handler (aws-cdk-lib's, run at deploy time) gets its own role and log group
    // like the stack's handlers: a retention, and no AWS managed policy.
    const deployLogs = new logs.LogGroup(this, 'DeployLogs', { retention: props.logRetention, removalPolicy: RemovalPolicy.RETAIN });
    this.deployRole = new iam.Role(this, 'DeployRole', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: 'Copies web/dist into the site bucket and invalidates the distribution (deploy time only)',
    });
    deployLogs.grantWrite(this.deployRole);
    new s3deploy.BucketDeployment(this, 'Deploy', {
      role: this.deployRole,
      logGroup: deployLogs,
      destinationBucket: this.bucket,
      sources: [
        props.source ?? s3deploy.Source.asset(WEB_DIST),
        s3deploy.Source.jsonData('config.json', {
          auth: 'cognito',
          cognito: { domain: props.signInUrl, clientId: props.userPoolClient.userPoolClientId },
        }),
      ],
      distribution: this.distribution,
      distributionPaths: ['/index.html', '/config.json'],
      prune: false,
      memoryLimit: 256,
    });
  }

  /**
   * A web ACL with one rate-based rule: an address (the viewer's IP, as CloudFront sees it) that
   * sends more than `limit` requests to /v1/* within 5 minutes is answered 429 with the API's error
   * body and Retry-After, at the edge, before API Gateway or a Lambda runs; the web client's files
   * are not counted. A CloudFront web ACL exists only in us-east-1: a stack elsewhere fails at
   * synth when its region is known, and at deploy (the template rule below) when it is not.
   */
  private rateRule(limit: number): wafv2.CfnWebACL {
    const region = Stack.of(this).region;
    const where = 'wafRateLimit needs the stack in us-east-1 (a CloudFront web ACL lives there)';
    if (!Token.isUnresolved(region) && region !== 'us-east-1') throw new Error(`${where}; this stack is in ${region}`);
    new CfnRule(this, 'WafInUsEast1', {
      assertions: [{ assert: Fn.conditionEquals(Aws.REGION, 'us-east-1'), assertDescription: `${where}: deploy to us-east-1, or leave wafRateLimit unset` }],
    });
    const visibility = (metricName: string) => ({ cloudWatchMetricsEnabled: true, metricName, sampledRequestsEnabled: true });
    return new wafv2.CfnWebACL(this, 'ApiRateLimit', {
      scope: 'CLOUDFRONT',
      description: `Fieldpost: at most ${limit} API requests per address in ${WAF_WINDOW_SECONDS / 60} minutes`,
      defaultAction: { allow: {} },
      visibilityConfig: visibility('FieldpostWebAcl'),
      customResponseBodies: { tooMany: { contentType: 'APPLICATION_JSON', content: JSON.stringify(WAF_TOO_MANY) } },
      rules: [
        {
          name: 'ApiRatePerAddress',
          priority: 0,
          statement: {
            rateBasedStatement: {
              limit,
              aggregateKeyType: 'IP',
              evaluationWindowSec: WAF_WINDOW_SECONDS,
              scopeDownStatement: {
                byteMatchStatement: {
                  fieldToMatch: { uriPath: {} },
                  positionalConstraint: 'STARTS_WITH',
                  searchString: '/v1/',
                  textTransformations: [{ priority: 0, type: 'NONE' }],
                },
              },
            },
          },
          action: {
            block: {
              customResponse: {
                responseCode: 429,
                customResponseBodyKey: 'tooMany',
                // The rule stops blocking once the address's count over the window falls under the limit: a minute is a fair first wait.
                responseHeaders: [{ name: 'Retry-After', value: '60' }],
              },
            },
          },
          visibilityConfig: visibility('FieldpostApiRatePerAddress'),
        },
      ],
    });
  }
}
