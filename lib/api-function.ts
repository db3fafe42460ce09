// The one place that decides how every Lambda of the marketplace is built and run (route handlers and
// workers alike): Node 24 on arm64, one minified ESM bundle per handler made by the local esbuild,
// its source map beside it (Node maps error stacks with it: --enable-source-maps), its own log group with the stage's retention, a role that starts with
// nothing but its log group (its own, or one shared by functions whose grants are equal:
// lib/function-roles.ts), and X-Ray tracing through one policy shared by the whole app (created in the
// root stack; route stacks receive its ARN).
import path from 'node:path';
import { Duration, Stack } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { GLOBAL_SECONDARY_INDEXES } from '../shared/data/table-definition.ts';
import type { Stage, TableAction } from '../shared/resources.ts';
import { ENV } from '../shared/resources.ts';
import { bundleAliases, LAMBDA_BUNDLING } from './bundling.ts';
import { acknowledgeFinding } from './compliance.ts';
import { InlinePolicyRole } from './function-roles.ts';
import { stageSettings, type StageSettings } from './stage-settings.ts';

export const REPOSITORY_ROOT = path.resolve(import.meta.dirname, '..');


export interface ApiFunctionProps {
  /** Module whose `handler` export serves the function, relative to the repository root (a table row's `handler`). */
  handler: string;
  description: string;
  settings: StageSettings;
  /** Variables every function of the stack shares (STAGE, CURSOR_SIGNING_KEY, LOG_LEVEL). */
  environment: Record<string, string>;
  /** Default 10 s: far below API Gateway's 30 s integration limit, far above any request's DynamoDB work. */
  timeout?: Duration;
  /** Files (or folders) built at synth, copied beside the bundle: name in the bundle → path on this machine. */
  bundledFiles?: Record<string, string>;
  /**
   * A role shared with functions whose grants are equal (lib/function-roles.ts); without one the
   * function gets its own. Either way it may write to this function's log group.
   */
  role?: iam.Role;
  /** The app's X-Ray policy when the function lives in a route stack (default: the stack's own, created on first use). */
  tracingPolicy?: iam.IManagedPolicy;
}

/**
 * The variables every function of the app gets; each adds only what its own grants need. The cursor key
 * reaches functions as a dynamic reference, resolved by CloudFormation at deploy time: no Secrets Manager
 * call on any cold start. ALLOW_PRIVATE_WEBHOOK_URLS is deliberately absent: only the local runtime sets it.
 */
export function sharedEnvironment(stage: Stage, cursorSigningSecret: ISecret): Record<string, string> {
  const house = stageSettings(stage).houseFulfilment;
  return {
    [ENV.stage]: stage,
    ...(house
      ? { [ENV.houseShipAfterSeconds]: String(house.shipAfter.toSeconds()), [ENV.houseDeliverAfterSeconds]: String(house.deliverAfter.toSeconds()) }
      : {}),
    [ENV.cursorSigningKey]: cursorSigningSecret.secretValue.unsafeUnwrap(),
    [ENV.logLevel]: 'INFO',
    [ENV.webhookDisableAfterSeconds]: String(stageSettings(stage).webhookDisableAfter.toSeconds()),
    [ENV.orderApprovalSeconds]: String(stageSettings(stage).orderApprovalWindow.toSeconds()),
    [ENV.rfqMinCloseSeconds]: String(stageSettings(stage).rfqMinCloseWindow.toSeconds()),
    // Error stacks in the logs name source files and lines (the map beside each bundle).
    NODE_OPTIONS: LAMBDA_BUNDLING.nodeOptions,
  };
}

/** The table as a function's grants need it: the root stack's table, or a route stack's parameters. */
export type TableGrantTarget = Pick<ITable, 'tableName' | 'tableArn'>;

/** esbuild hooks that copy synth-time files and folders into the bundle's folder. */
function copyInto(files: Record<string, string>) {
  return {
    beforeBundling: () => [],
    beforeInstall: () => [],
    afterBundling: (_inputDir: string, outputDir: string) =>
      Object.entries(files).map(([name, source]) => `cp -R ${JSON.stringify(source)} ${JSON.stringify(path.join(outputDir, name))}`),
  };
}

export class ApiFunction extends Construct {
  readonly function: NodejsFunction;
  readonly role: iam.Role;
  readonly logGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, props: ApiFunctionProps) {
    super(scope, id);

    this.logGroup = new logs.LogGroup(this, 'Logs', {
      retention: props.settings.logRetention,
      removalPolicy: props.settings.dataRemovalPolicy,
    });

    // Our own role instead of the default one with AWSLambdaBasicExecutionRole: it may write to this
    // function's log group only (a shared role: to the log groups of the functions sharing it), and
    // everything else is granted per function or per shared role.
    this.role =
      props.role ??
      new InlinePolicyRole(this, 'Role', {
        assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
        description: `Runs ${props.handler}`,
      });
    this.logGroup.grantWrite(this.role);

    this.function = new NodejsFunction(this, 'Function', {
      entry: path.join(REPOSITORY_ROOT, props.handler),
      handler: 'handler',
      description: props.description,
      projectRoot: REPOSITORY_ROOT,
      depsLockFilePath: path.join(REPOSITORY_ROOT, 'package-lock.json'),
      runtime: lambda.Runtime.NODEJS_24_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: 1024, // Lambda's CPU share grows with memory: shorter cold starts and JSON work
      timeout: props.timeout ?? Duration.seconds(10),
      role: this.role,
      logGroup: this.logGroup,
      environment: props.environment,
      bundling: {
        forceDockerBundling: false,
        format: OutputFormat.ESM,
        mainFields: [...LAMBDA_BUNDLING.mainFields],
        banner: LAMBDA_BUNDLING.banner,
        target: LAMBDA_BUNDLING.target,
        minify: LAMBDA_BUNDLING.minify,
        sourceMap: LAMBDA_BUNDLING.sourceMap,
        sourcesContent: LAMBDA_BUNDLING.sourcesContent,
        bundleAwsSDK: LAMBDA_BUNDLING.bundleAwsSdk, // the SDK bundled and tree-shaken (lib/bundling.ts)
        // Node built-ins through CommonJS shims, not ESM facades (lib/bundling.ts)
        esbuildArgs: { '--alias': Object.entries(bundleAliases(REPOSITORY_ROOT)).map(([specifier, shim]) => `${specifier}=${shim}`) },
        ...(props.bundledFiles ? { commandHooks: copyInto(props.bundledFiles) } : {}),
      },
    });

    this.enableTracing(props.tracingPolicy);
  }

  /**
   * Grants exactly `actions` on the table (one statement; the indexes only when Query is among them)
   * and tells the function the table's name.
   */
  grantTable(table: TableGrantTarget, actions: readonly TableAction[]): void {
    this.function.addEnvironment(ENV.tableName, table.tableName);
    if (actions.length === 0) return;
    const resources = [table.tableArn];
    if (actions.includes('dynamodb:Query')) {
      resources.push(...GLOBAL_SECONDARY_INDEXES.map((index) => `${table.tableArn}/index/${index.indexName}`));
    }
    this.role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: [...actions], resources }));
  }

  addEnvironment(name: string, value: string): void {
    this.function.addEnvironment(name, value);
  }

  /**
   * Active X-Ray tracing. Its two actions exist only on `*`, so they live in one managed policy of
   * the root stack, attached to every function role: the acknowledgement of that wildcard cannot cover
   * a wildcard that slips into a function's other grants, and the app pays one resource for it.
   */
  private enableTracing(given: iam.IManagedPolicy | undefined): void {
    (this.function.node.defaultChild as lambda.CfnFunction).tracingConfig = { mode: lambda.Tracing.ACTIVE };
    const tracingPolicy = given ?? functionTracingPolicy(Stack.of(this));
    if (!rolesWithTracing.has(this.role)) {
      this.role.addManagedPolicy(tracingPolicy);
      rolesWithTracing.add(this.role);
    }
    // Lambda refuses active tracing on a role that cannot write traces yet. A route stack's policy is a
    // parameter of the stack, so the whole route stack already waits for it.
    if (!given) this.function.node.addDependency(tracingPolicy);
  }
}

const rolesWithTracing = new WeakSet<iam.Role>();

/** The stack's one X-Ray write policy, created on first use. */
export function functionTracingPolicy(stack: Stack): iam.ManagedPolicy {
  const existing = stack.node.tryFindChild('FunctionTracingPolicy');
  if (existing) return existing as iam.ManagedPolicy;
  const policy = new iam.ManagedPolicy(stack, 'FunctionTracingPolicy', {
    description: 'Lets the marketplace functions write X-Ray traces',
    statements: [new iam.PolicyStatement({ actions: ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'], resources: ['*'] })],
  });
  acknowledgeFinding(
    policy,
    'AwsSolutions-IAM5[Resource::*]',
    'xray:PutTraceSegments and xray:PutTelemetryRecords support no resource-level permissions; this policy holds only those two actions.',
  );
  return policy;
}
