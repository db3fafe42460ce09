// The HTTP API, generated from the route table: one Lambda per row, one `METHOD path` route per row,
// and `$default` → the fallback function, which answers unknown paths and methods with our JSON 404.
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import * as logs from 'aws-cdk-lib/aws-logs';
import path from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { writeBundledFiles } from './bundled-files.ts';
import { tableActionsFor, type RouteDefinition } from '../shared/http/route-table.ts';
import { ApiFunction } from './api-function.ts';
import { acknowledgeFinding } from './compliance.ts';
import { grantFeedFiles } from './feed-file-grants.ts';
import type { StageSettings } from './stage-settings.ts';

export interface MarketplaceApiProps {
  settings: StageSettings;
  routes: readonly RouteDefinition[];
  fallbackRoute: RouteDefinition;
  table: ITable;
  /** Where feed files are stored: routes whose rows declare feedFileActions get exactly those. */
  feedsBucket: IBucket;
  /** Variables every function of the stack shares. */
  environment: Record<string, string>;
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

  private bundledFiles: Record<string, string> | undefined;

  constructor(scope: Construct, id: string, props: MarketplaceApiProps) {
    super(scope, id);
    const { settings } = props;

    const fallback = this.routeFunction(props.fallbackRoute, '$default', props);
    this.httpApi = new apigw.HttpApi(this, 'HttpApi', {
      description: `Agent Marketplace API (${settings.stage})`,
      // Our own stage below carries throttling and access logs.
      createDefaultStage: false,
      defaultIntegration: new HttpLambdaIntegration(`${props.fallbackRoute.operationId}Integration`, fallback.function, {
        payloadFormatVersion: apigw.PayloadFormatVersion.VERSION_2_0,
      }),
    });
    acknowledgeFinding(
      this.httpApi,
      'AwsSolutions-APIG4',
      'Callers authenticate with the marketplace’s own API keys (Authorization: Bearer mk_…), checked by every function’s middleware; registration, /health and the OpenAPI document are public by design, and unknown routes must answer the contract’s JSON 404 rather than a gateway 401.',
    );

    for (const route of props.routes) {
      const fn = this.routeFunction(route, `${route.method} ${route.path}`, props);
      this.httpApi.addRoutes({
        path: route.path,
        methods: [apigw.HttpMethod[route.method]],
        integration: new HttpLambdaIntegration(`${route.operationId}Integration`, fn.function, {
          payloadFormatVersion: apigw.PayloadFormatVersion.VERSION_2_0,
        }),
      });
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
    if (!this.bundledFiles) {
      const root = Stack.of(this).node.root;
      const outdir = App.isApp(root) ? root.outdir : path.resolve('cdk.out');
      this.bundledFiles = writeBundledFiles(path.join(outdir, `bundled-files-${Stack.of(this).stackName}`));
    }
    const all = this.bundledFiles;
    return Object.fromEntries((route.bundledFiles ?? []).map((name) => [name, all[name] as string]));
  }

  private routeFunction(route: RouteDefinition, routeKey: string, props: MarketplaceApiProps): ApiFunction {
    const fn = new ApiFunction(this, route.operationId, {
      handler: route.handler,
      description: `${routeKey}: ${route.summary}`.slice(0, 256),
      settings: props.settings,
      environment: props.environment,
      ...(route.bundledFiles ? { bundledFiles: this.filesFor(route) } : {}),
    });
    fn.grantTable(props.table, tableActionsFor(route));
    grantFeedFiles(fn, props.feedsBucket, route.feedFileActions);
    this.functions.set(route.operationId, fn);
    return fn;
  }
}
