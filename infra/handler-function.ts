import { copyFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AssetHashType, Duration, RemovalPolicy, type ILocalBundling } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { buildSync, type BuildOptions, type Metafile } from 'esbuild';

/** One esbuild entry per handler (see functions/ports.ts); each exports `handler`. */
export const HANDLERS = ['api', 'projector', 'notifier', 'picture', 'deadline', 'scheduler', 'tournaments', 'digest'] as const;
export type HandlerName = (typeof HANDLERS)[number];

/**
 * Lets tests (and anyone synthesizing without the handler sources) replace esbuild bundling
 * with ready-made code. The deployed app never sets it.
 */
export type LambdaCodeFactory = (name: HandlerName) => lambda.Code;

export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
export const entryPath = (name: HandlerName): string => fileURLToPath(new URL(`../functions/handlers/${name}.ts`, import.meta.url));

/**
 * How every handler is bundled (esbuild's API through bundleHandler; the bench builds its
 * bundles and the hello-world baseline with the same settings). ESM so top-level await and
 * import.meta work in handlers, and split: whatever a handler imports dynamically (each engine,
 * through functions/engine-catalog.ts; the OpenAPI builder) is a chunk of its own beside
 * index.mjs, loaded on the first request that needs it. A createRequire banner keeps bundled
 * CommonJS dependencies (require('node:crypto') etc.) working. The AWS SDK v3 is left out: the
 * Node 22 runtime ships it, and it would take most of each bundle's 400 KB budget.
 */
export const BUNDLE = {
  target: 'node22',
  mainFields: ['module', 'main'],
  banner: "import { createRequire as __fieldpostCreateRequire } from 'node:module'; const require = __fieldpostCreateRequire(import.meta.url);",
  external: ['@aws-sdk/*'],
  /**
   * The SDK classes the handlers use, swapped for small signed-fetch ones (functions/aws/): the
   * SDK v3 clients took over 100 ms to import at every cold start (issue 16). Tests, the local
   * runtime and the CLI keep the SDK; the store tests also run against these (vitest.config.ts).
   */
  alias: {
    '@aws-sdk/client-dynamodb': fileURLToPath(new URL('../functions/aws/dynamodb.ts', import.meta.url)),
    '@aws-sdk/lib-dynamodb': fileURLToPath(new URL('../functions/aws/lib-dynamodb.ts', import.meta.url)),
    '@aws-sdk/client-dynamodb-streams': fileURLToPath(new URL('../functions/aws/dynamodb-streams.ts', import.meta.url)),
    '@aws-sdk/client-sqs': fileURLToPath(new URL('../functions/aws/sqs.ts', import.meta.url)),
    '@aws-sdk/client-scheduler': fileURLToPath(new URL('../functions/aws/scheduler.ts', import.meta.url)),
    '@aws-sdk/client-lambda': fileURLToPath(new URL('../functions/aws/lambda.ts', import.meta.url)),
    '@aws-sdk/client-sesv2': fileURLToPath(new URL('../functions/aws/sesv2.ts', import.meta.url)),
  },
  /**
   * Issue 16's target for every bundle, judged on what a cold start loads to serve a request:
   * index.mjs, its static chunks and, for a function that plays games, the largest engine chunk
   * (a first command loads one). `npm run bench` reports each against it.
   */
  targetBytes: 400 * 1024,
  /**
   * What the bundle test enforces on that size: the target itself. The api loads about 120 KB at a
   * cold start, in one shared chunk: the router and its game routes, the edge's generated checks
   * (about 20 KB, functions/http/edge.ts), the game service, the store and the kernel; no zod. Its
   * largest engine chunk, spearpoint-1943-map with the Frontline General catalog it shares with
   * spearpoint-1943 and zod's classic build (the engines' schemas use it; nothing at start does),
   * adds about 226 KB: about 346 KB. Loaded
   * only by the requests that need them: the other route modules, the clubs' and tournaments'
   * code (the first club or tournament request), the club rules of a create (about 20 KB, part
   * of it), the OpenAPI builder with the reply schemas and the engines' view schemas
   * (functions/http/view-schemas.json, GET /v1/openapi.json). This fails at once if an engine or
   * the clubs are bundled into index.mjs again, or the SDK, nodemailer or zod's locales come back.
   */
  ceilingBytes: 400 * 1024,
} as const;

/**
 * esbuild's options for one handler: `<outdir>/index.mjs`, and the chunks it imports (statically
 * when code is shared with a lazy chunk, dynamically for the lazy ones) under `<outdir>/chunks/`.
 */
export function bundleOptions(entry: string, outdir: string): BuildOptions {
  return {
    entryPoints: { index: entry },
    outdir,
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    target: BUNDLE.target,
    mainFields: [...BUNDLE.mainFields],
    banner: { js: BUNDLE.banner },
    external: [...BUNDLE.external],
    alias: { ...BUNDLE.alias },
    // Every chunk esbuild splits off (each engine, each lazy route module) imports the handler's
    // own entry, so everything the handler loads at a cold start is reachable from every chunk and
    // lands in one shared chunk. Without it esbuild splits that code by which lazy chunks also use
    // each part: the api loaded 19 files at a cold start where it now loads 2, and each ES module
    // file costs Node a resolve, a read and a link (the api's import took about 8 ms less of its
    // 60, issue 16). A lazy chunk loads after the handler, so the import adds nothing to it.
    inject: [entry],
    minify: true,
    sourcemap: false,
    metafile: true,
    logLevel: 'warning',
  };
}

/**
 * Bundles a handler into `outdir` as the stack deploys it, with `assets` (module paths resolved
 * from this repository's node_modules) copied beside index.mjs; returns esbuild's metafile.
 */
export function bundleHandler(entry: string, outdir: string, assets: readonly string[] = []): Metafile {
  const { metafile } = buildSync(bundleOptions(entry, outdir));
  const resolve = createRequire(import.meta.url).resolve;
  for (const a of assets) {
    const file = resolve(a);
    copyFileSync(file, join(outdir, basename(file)));
  }
  return metafile!;
}

/**
 * Bundling on this machine with esbuild (a dependency of the repository, so it always runs and
 * Docker is never needed). Its fields are the asset's cache key: two handlers never share one.
 */
class LocalEsbuild implements ILocalBundling {
  constructor(
    readonly entry: string,
    readonly assets: readonly string[],
  ) {}

  tryBundle(outputDir: string): boolean {
    bundleHandler(this.entry, outputDir, this.assets);
    return true;
  }
}

/** Same platform for every function: the issue asks for Node 22 on Graviton. */
export const RUNTIME = lambda.Runtime.NODEJS_22_X;
export const ARCHITECTURE = lambda.Architecture.ARM_64;

export interface HandlerFunctionProps {
  readonly name: HandlerName;
  readonly description: string;
  readonly memorySize: number;
  readonly timeout: Duration;
  readonly environment: Readonly<Record<string, string>>;
  readonly logRetention: logs.RetentionDays;
  readonly code?: LambdaCodeFactory;
  /**
   * Files (as module paths, 'pkg/file.wasm') the handler reads at run time, copied beside the
   * bundle: esbuild bundles code, not the WebAssembly and fonts the mail picture needs.
   */
  readonly assets?: readonly string[];
}

/**
 * A handler's Lambda function with its own log group (with retention) and its own role.
 * The role starts with nothing but "write to this function's log group", so every other
 * permission in the template is an explicit grant in the stack (no AWS managed policies).
 */
export class HandlerFunction extends Construct {
  readonly fn: lambda.Function;
  readonly role: iam.Role;
  readonly logGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, props: HandlerFunctionProps) {
    super(scope, id);

    this.logGroup = new logs.LogGroup(this, 'Logs', {
      retention: props.logRetention,
      // Logs are operational data; keep them with the table's retention story (RETAIN).
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `Fieldpost ${props.name} handler`,
    });
    this.logGroup.grantWrite(this.role);

    const common = {
      description: props.description,
      runtime: RUNTIME,
      architecture: ARCHITECTURE,
      memorySize: props.memorySize,
      timeout: props.timeout,
      role: this.role,
      logGroup: this.logGroup,
      loggingFormat: lambda.LoggingFormat.JSON,
      applicationLogLevelV2: lambda.ApplicationLogLevel.INFO,
      systemLogLevelV2: lambda.SystemLogLevel.WARN,
      // No NODE_OPTIONS=--enable-source-maps: it makes every cold start parse a source map (and
      // every stack trace slow); the bundle ships none.
      environment: { ...props.environment },
    } satisfies Partial<lambda.FunctionProps>;

    if (props.code) {
      this.fn = new lambda.Function(this, 'Function', { ...common, code: props.code(props.name), handler: 'index.handler' });
    } else {
      const entry = entryPath(props.name);
      if (!existsSync(entry)) {
        throw new Error(`handler entry ${entry} does not exist: write it, or pass lambdaCode to the stack to synthesize without bundling`);
      }
      // NodejsFunction bundles to one file (esbuild's outfile), which cannot split; this is the same
      // esbuild with an outdir. The asset is hashed on its output, as NodejsFunction's is.
      const code = lambda.Code.fromAsset(REPO_ROOT, {
        assetHashType: AssetHashType.OUTPUT,
        bundling: { image: RUNTIME.bundlingImage, local: new LocalEsbuild(entry, props.assets ?? []) },
      });
      this.fn = new lambda.Function(this, 'Function', { ...common, code, handler: 'index.handler' });
    }
  }
}
