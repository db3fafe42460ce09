// The HTTP API, generated from the route table: one Lambda per row, one `METHOD path` route per row,
// and `$default` → the fallback function, which answers unknown paths and methods with our JSON 404.
// The API itself, its stage and access logs live in the root stack; the routes live in one nested
// stack per route tag (lib/route-stack.ts), each with its functions, roles and integrations, so that
// no stack nears CloudFormation's 500 resources as routes are added (docs/decisions/nested-route-stacks.md).
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import type * as iam from 'aws-cdk-lib/aws-iam';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct, type IDependable } from 'constructs';
import { bundledFilesOf } from './bundled-files.ts';
import type { RouteDefinition, RouteTag } from '../shared/http/route-table.ts';
import type { ApiFunction } from './api-function.ts';
import { RouteStack, routeStackId, type StackRoute } from './route-stack.ts';
import type { WebhookDelivery } from './webhook-delivery.ts';
import type { StageSettings } from './stage-settings.ts';

export interface MarketplaceApiProps {
  settings: StageSettings;
  routes: readonly RouteDefinition[];
  fallbackRoute: RouteDefinition;
  table: ITable;
  /** Where feed files are stored: routes whose rows declare feedFileActions get exactly those. */
  feedsBucket: IBucket;
  /** The delivery queue: routes whose rows say they send deliveries may send to it. */
  webhookDelivery: WebhookDelivery;
  /** The key the functions seal pagination cursors with. */
  cursorSigningSecret: ISecret;
  /** The app's X-Ray write policy, attached to every function role. */
  functionTracingPolicy: iam.IManagedPolicy;
  /** Where the route stacks' function-error alarms notify operators. */
  alarmTopic: ITopic;
  /**
   * The request-log writer (a `logs` worker) with its filter and CloudWatch Logs' permission to invoke
   * it: every route function's log group is subscribed to it, once that permission exists.
   */
  requestLogWriter?: { functionArn: string; filterPattern: string; permission: IDependable } | undefined;
}

/** One JSON object per request: enough to find a request by id and to see who called what, how it went. */
const ACCESS_LOG_FORMAT = AccessLogFormat.custom(
  JSON.stringify({
    requestId: '$context.requestId',
    ip: '$context.identity.sourceIp',
    requestTime: '$context.requestTime',
    routeKey: '$context.routeKey',
    path: '$context.path',
    status: '$context.status',
    latency: '$context.responseLatency',
    integrationLatency: '$context.integrationLatency',
    integrationError: '$context.integrationErrorMessage',
    responseLength: '$context.responseLength',
    userAgent: '$context.identity.userAgent',
  }),
);

export class MarketplaceApi extends Construct {
  readonly httpApi: apigw.HttpApi;
  readonly stage: apigw.HttpStage;
  readonly accessLogs: logs.LogGroup;
  /** Route functions by operationId, the fallback's included. */
  readonly functions = new Map<string, ApiFunction>();
  /** One nested stack per route tag, by tag. */
  readonly routeStacks = new Map<RouteTag, RouteStack>();

  private readonly stageName: StageSettings['stage'];

  constructor(scope: Construct, id: string, props: MarketplaceApiProps) {
    super(scope, id);
    const { settings } = props;
    this.stageName = settings.stage;
    this.httpApi = new apigw.HttpApi(this, 'HttpApi', {
      description: `Agent Marketplace API (${settings.stage})`,
      // Our own stage below carries throttling and access logs.
      createDefaultStage: false,
    });

    // The routes by tag, in the table's order; the fallback answers `$default` from its own tag's stack.
    const byTag = new Map<RouteTag, StackRoute[]>();
    const add = (route: RouteDefinition, routeKey: string) => {
      const routes = byTag.get(route.tag) ?? [];
      routes.push({ route, routeKey, ...(route.bundledFiles ? { bundledFiles: this.filesFor(route) } : {}) });
      byTag.set(route.tag, routes);
    };
    add(props.fallbackRoute, '$default');
    for (const route of props.routes) add(route, `${route.method} ${route.path}`);

    const inputs = {
      httpApiId: this.httpApi.apiId,
      tableName: props.table.tableName,
      tableArn: props.table.tableArn,
      feedsBucketName: props.feedsBucket.bucketName,
      feedsBucketArn: props.feedsBucket.bucketArn,
      deliveryQueueUrl: props.webhookDelivery.queue.queueUrl,
      deliveryQueueArn: props.webhookDelivery.queue.queueArn,
      cursorSigningSecretArn: props.cursorSigningSecret.secretArn,
      functionTracingPolicyArn: props.functionTracingPolicy.managedPolicyArn,
      alarmTopicArn: props.alarmTopic.topicArn,
    };
    for (const [tag, routes] of byTag) {
      const { requestLogWriter } = props;
      const routeStack = new RouteStack(this, routeStackId(tag), {
        settings,
        tag,
        routes,
        inputs,
        ...(requestLogWriter ? { requestLog: { writerArn: requestLogWriter.functionArn, filterPattern: requestLogWriter.filterPattern } } : {}),
      });
      // CloudWatch Logs tries the destination when a subscription filter is created.
      if (requestLogWriter) routeStack.node.addDependency(requestLogWriter.permission);
      this.routeStacks.set(tag, routeStack);
      for (const [operationId, fn] of routeStack.functions) this.functions.set(operationId, fn);
    }

    this.accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      retention: settings.logRetention,
      removalPolicy: settings.dataRemovalPolicy,
    });
    this.stage = new apigw.HttpStage(this, 'DefaultStage', {
      httpApi: this.httpApi,
      stageName: '$default',
      autoDeploy: true,
      throttle: settings.throttle,
      accessLogSettings: { destination: new apigw.LogGroupLogDestination(this.accessLogs), format: ACCESS_LOG_FORMAT },
    });
  }

  /** The route's bundled files, built once per synth into the cloud assembly's folder. */
  private filesFor(route: RouteDefinition): Record<string, string> {
    const all = bundledFilesOf(this, this.stageName);
    return Object.fromEntries((route.bundledFiles ?? []).map((name) => [name, all[name]]));
  }
}
