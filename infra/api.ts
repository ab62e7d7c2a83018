import { Duration, Fn, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpUserPoolAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as ssm from 'aws-cdk-lib/aws-ssm';
import { Construct } from 'constructs';
import type { FieldpostConfig } from './config.js';

export interface FieldpostApiProps {
  readonly handler: lambda.Function;
  readonly config: FieldpostConfig;
}

/**
 * The /v1 routes anyone may call without signing in (the router's auth: 'none' routes; a test
 * keeps the two lists equal), with why each is safe to leave open.
 */
export const PUBLIC_ROUTES = [
  { method: 'GET', path: '/v1/health', why: 'the liveness probe: service status only, no game or player data' },
  { method: 'GET', path: '/v1/engines', why: 'the list of game systems and their options: the same for everyone, no game or player data' },
  { method: 'GET', path: '/v1/openapi.json', why: 'the API document: the same for everyone, no game or player data' },
  {
    method: 'POST',
    path: '/v1/unsubscribe',
    why: "one-click unsubscribe (RFC 8058): mail providers POST the link in a notice mail with no sign-in; the link's signed token is the authority, and it can only turn that player's mail of that kind off",
  },
] as const;

/** Methods the HTTP API routes under /v1 with its authorizer. OPTIONS is left out on purpose: see the routes below. */
export const AUTHORIZED_METHODS = [apigw.HttpMethod.GET, apigw.HttpMethod.POST, apigw.HttpMethod.PUT, apigw.HttpMethod.PATCH, apigw.HttpMethod.DELETE] as const;

/**
 * Sign-in (a Cognito user pool and a public app client) and the front door of the api handler
 * (config.frontDoor): a Lambda function URL (the default: the function verifies Cognito's tokens
 * itself, functions/http/cognito-jwt.ts, and API Gateway's per-request charge is gone) or API
 * Gateway's HTTP API (its JWT authorizer verifies the tokens, its stage throttles). Every /v1
 * route needs a Cognito JWT except PUBLIC_ROUTES; the local-only routes (/local/*) are never
 * served in AWS (the router of the Lambda entry has none).
 */
export class FieldpostApi extends Construct {
  readonly userPool: cognito.UserPool;
  readonly userPoolClient: cognito.UserPoolClient;
  /** Cognito's hosted sign-in pages for this pool. */
  readonly signInDomain: cognito.UserPoolDomain;
  /** The API's base address, no trailing slash: routes start with /v1. */
  readonly url: string;
  /** The host CloudFront forwards /v1/* to. */
  readonly originDomain: string;
  /** The API's 5xx answers (handled 500s and 503s are not function errors). */
  readonly serverErrors: cloudwatch.IMetric;
  /** frontDoor 'functionUrl': the function URL, and the parameter naming the app client. */
  readonly functionUrl?: lambda.FunctionUrl;
  readonly clientIdParameter?: ssm.StringParameter;
  /** frontDoor 'httpApi': the HTTP API, its stage and its access log. */
  readonly httpApi?: apigw.HttpApi;
  readonly stage?: apigw.HttpStage;
  readonly accessLogs?: logs.LogGroup;
  /** The HTTP API's routes served without a token (PUBLIC_ROUTES), each reviewed by cdk-nag; none with a function URL. */
  readonly publicRoutes: readonly apigw.HttpRoute[] = [];

  constructor(scope: Construct, id: string, props: FieldpostApiProps) {
    super(scope, id);
    const { config } = props;

    const plus = config.cognitoPlan === 'plus';
    this.userPool = new cognito.UserPool(this, 'UserPool', {
      selfSignUpEnabled: config.selfSignUp,
      // The username is the player's id in games (functions/http/auth.ts reads
      // cognito:username), so clubs choose readable names; email works as a sign-in alias.
      signInAliases: { username: true, email: true },
      signInCaseSensitive: false,
      autoVerify: { email: true },
      standardAttributes: { email: { required: true, mutable: true } },
      passwordPolicy: {
        minLength: 12,
        requireLowercase: true,
        requireUppercase: true,
        requireDigits: true,
        requireSymbols: true,
        tempPasswordValidity: Duration.days(3),
      },
      // TOTP only: SMS would need an SNS role and costs money per message.
      mfa: config.mfa === 'required' ? cognito.Mfa.REQUIRED : cognito.Mfa.OPTIONAL,
      mfaSecondFactor: { sms: false, otp: true },
      accountRecovery: cognito.AccountRecovery.EMAIL_ONLY,
      featurePlan: plus ? cognito.FeaturePlan.PLUS : cognito.FeaturePlan.ESSENTIALS,
      ...(plus ? { standardThreatProtectionMode: cognito.StandardThreatProtectionMode.FULL_FUNCTION } : {}),
      // Player accounts outlive any one deployment of the stack.
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.userPoolClient = this.userPool.addClient('WebClient', {
      // A browser or CLI client cannot keep a secret: the web client proves itself with PKCE.
      generateSecret: false,
      // The web client signs in on Cognito's hosted pages (authorization code flow with PKCE,
      // web/src/pkce.ts); CLIs use SRP or USER_PASSWORD. The stack adds the CloudFront
      // address to the callback URLs once the distribution exists (infra/web.ts).
      oAuth: {
        flows: { authorizationCodeGrant: true },
        scopes: [cognito.OAuthScope.OPENID, cognito.OAuthScope.EMAIL, cognito.OAuthScope.PROFILE],
        callbackUrls: [`${config.appUrl}/auth/callback`],
        logoutUrls: [config.appUrl],
      },
      supportedIdentityProviders: [cognito.UserPoolClientIdentityProvider.COGNITO],
      authFlows: { userSrp: true, userPassword: true },
      preventUserExistenceErrors: true,
      enableTokenRevocation: true,
      accessTokenValidity: Duration.hours(1),
      idTokenValidity: Duration.hours(1),
      refreshTokenValidity: Duration.days(30),
    });

    // Account ids are unique, and so then is the prefix of the hosted sign-in's address.
    this.signInDomain = this.userPool.addDomain('SignIn', { cognitoDomain: { domainPrefix: `fieldpost-${Stack.of(this).account}` } });

    const appOrigin = new URL(config.appUrl).origin;
    if (config.frontDoor === 'functionUrl') {
      // Anyone may call the URL: a token is checked in the function (AUTH_MODE=cognito-jwt) on
      // every route but the public ones, exactly as the router declares them.
      this.functionUrl = props.handler.addFunctionUrl({
        authType: lambda.FunctionUrlAuthType.NONE,
        cors: {
          allowedOrigins: [appOrigin],
          allowedMethods: [lambda.HttpMethod.ALL],
          allowedHeaders: ['authorization', 'content-type'],
          maxAge: Duration.hours(1),
        },
      });
      props.handler.addEnvironment('AUTH_MODE', 'cognito-jwt');
      props.handler.addEnvironment('COGNITO_ISSUER', `https://${this.userPool.userPoolProviderUrl}`);
      // The app client's id cannot be in the function's environment: the client's callback URLs
      // name the web distribution, whose /v1/* origin is this function's URL (a cycle). So it is
      // kept in a parameter the function reads once per process, by name and by an ARN built from
      // the name (no reference to the parameter resource, which would close the cycle again).
      const parameterName = `/${Stack.of(this).stackName}/api/web-client-id`;
      this.clientIdParameter = new ssm.StringParameter(this, 'WebClientId', {
        parameterName,
        stringValue: this.userPoolClient.userPoolClientId,
        description: 'The Cognito app client whose tokens the API accepts (read by the api function)',
      });
      props.handler.addEnvironment('COGNITO_CLIENT_ID_PARAMETER', parameterName);
      props.handler.addToRolePolicy(
        new iam.PolicyStatement({
          actions: ['ssm:GetParameter'],
          resources: [Stack.of(this).formatArn({ service: 'ssm', resource: 'parameter', resourceName: parameterName.slice(1) })],
        }),
      );
      // https://<id>.lambda-url.<region>.on.aws/ : the host is the third part.
      this.originDomain = Fn.select(2, Fn.split('/', this.functionUrl.url));
      this.url = `https://${this.originDomain}`;
      this.serverErrors = props.handler.metric('Url5xxCount', { period: Duration.minutes(5), statistic: 'Sum' });
      return;
    }

    this.accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      retention: config.logRetention,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.httpApi = new apigw.HttpApi(this, 'HttpApi', {
      description: 'Fieldpost command and query API',
      createDefaultStage: false,
      corsPreflight: {
        allowOrigins: [appOrigin],
        allowMethods: [apigw.CorsHttpMethod.ANY],
        allowHeaders: ['authorization', 'content-type'],
        maxAge: Duration.hours(1),
      },
    });

    this.stage = new apigw.HttpStage(this, 'DefaultStage', {
      httpApi: this.httpApi,
      stageName: '$default',
      autoDeploy: true,
      throttle: { rateLimit: config.throttleRate, burstLimit: config.throttleBurst },
      accessLogSettings: {
        destination: new apigw.LogGroupLogDestination(this.accessLogs),
        // HTTP API context variables (not the REST API ones AccessLogFormat's helpers emit).
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            ip: '$context.identity.sourceIp',
            requestTime: '$context.requestTime',
            routeKey: '$context.routeKey',
            status: '$context.status',
            protocol: '$context.protocol',
            responseLength: '$context.responseLength',
            responseLatency: '$context.responseLatency',
            integrationLatency: '$context.integrationLatency',
            integrationError: '$context.integrationErrorMessage',
            authorizerError: '$context.authorizer.error',
            sub: '$context.authorizer.claims.sub',
          }),
        ),
      },
    });

    const integration = new HttpLambdaIntegration('ApiIntegration', props.handler, {
      payloadFormatVersion: apigw.PayloadFormatVersion.VERSION_2_0,
    });
    const authorizer = new HttpUserPoolAuthorizer('CognitoAuthorizer', this.userPool, {
      userPoolClients: [this.userPoolClient],
      identitySource: ['$request.header.Authorization'],
    });

    // Explicit methods rather than ANY: an ANY route with an authorizer would also catch
    // OPTIONS, and browsers' CORS preflights carry no token. Preflights are answered by
    // API Gateway itself from corsPreflight above.
    this.httpApi.addRoutes({
      path: '/v1/{proxy+}',
      methods: [...AUTHORIZED_METHODS],
      integration,
      authorizer,
    });
    const httpApi = this.httpApi;
    this.publicRoutes = PUBLIC_ROUTES.flatMap(({ method, path }) => httpApi.addRoutes({ path, methods: [apigw.HttpMethod[method]], integration }));
    this.url = httpApi.apiEndpoint;
    this.originDomain = `${httpApi.apiId}.execute-api.${Stack.of(this).region}.${Stack.of(this).urlSuffix}`;
    this.serverErrors = httpApi.metricServerError({ period: Duration.minutes(5), statistic: 'Sum' });
  }
}
