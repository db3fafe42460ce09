// One nested stack per route tag (shared/http/route-table.ts's RouteTag): the tag's functions, their
// log groups and roles, API Gateway's invocation role for them, their integrations and routes on the
// root stack's HTTP API, and the alarms on their errors. What the routes need from the root stack comes
// in as ten named parameters (RouteStackInputs) and the request-log writer's ARN, the same for every route stack; nothing goes back, so
// a route stack is replaced or added without the root stack referring to anything inside it. Keeping a
// route in its tag's stack keeps it where it is as other routes are added (a fixed-size grouping would
// move routes between stacks, and a moved route is a new function and, briefly, a route key twice).
import { CfnParameter, Duration, NestedStack, Stack } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { RouteDefinition, RouteTag } from '../shared/http/route-table.ts';
import { ENV } from '../shared/resources.ts';
import { ApiFunction, sharedEnvironment } from './api-function.ts';
import { acknowledgeFinding } from './compliance.ts';
import { grantFeedFiles, grantSearchIndexFiles } from './feed-file-grants.ts';
import { grantsDescription, routeGrants } from './function-grants.ts';
import { FunctionRoles, InlinePolicyRole } from './function-roles.ts';
import { FunctionErrorAlarms } from './operational-alarms.ts';
import type { StageSettings } from './stage-settings.ts';
import { grantSendToDeliveryQueue } from './webhook-delivery.ts';

/**
 * At most this many routes in one stack: API Gateway's invocation role lists each function's ARN (about
 * 120 characters) in its inline policy, and a role's inline policies may hold 10,240 characters; 60
 * routes also keep the stack near 280 of CloudFormation's 500 resources.
 */
export const MAX_ROUTES_PER_STACK = 60;

/** The request-log writer's ARN, passed to every route stack when the stage has one. */
const REQUEST_LOG_WRITER_PARAMETER = 'RequestLogWriterArn';

/** What every route stack gets from the root stack: stable values (names and ARNs of root resources). */
export interface RouteStackInputs {
  httpApiId: string;
  tableName: string;
  tableArn: string;
  feedsBucketName: string;
  feedsBucketArn: string;
  deliveryQueueUrl: string;
  deliveryQueueArn: string;
  cursorSigningSecretArn: string;
  functionTracingPolicyArn: string;
  alarmTopicArn: string;
}

/** The stack's CloudFormation parameter for each input. */
const PARAMETER_NAMES: Record<keyof RouteStackInputs, string> = {
  httpApiId: 'HttpApiId',
  tableName: 'TableName',
  tableArn: 'TableArn',
  feedsBucketName: 'FeedsBucketName',
  feedsBucketArn: 'FeedsBucketArn',
  deliveryQueueUrl: 'DeliveryQueueUrl',
  deliveryQueueArn: 'DeliveryQueueArn',
  cursorSigningSecretArn: 'CursorSigningSecretArn',
  functionTracingPolicyArn: 'FunctionTracingPolicyArn',
  alarmTopicArn: 'AlarmTopicArn',
};

export interface StackRoute {
  route: RouteDefinition;
  /** `METHOD path`, or `$default` for the fallback. */
  routeKey: string;
  /** The route's bundled files, built once for the app: name in the bundle → path on this machine. */
  bundledFiles?: Record<string, string>;
}

export interface RouteStackProps {
  settings: StageSettings;
  tag: RouteTag;
  routes: readonly StackRoute[];
  inputs: RouteStackInputs;
  /**
   * Where each function's request records go: a subscription filter on its log group sends the lines
   * that match `filterPattern` to the request-log writer (its ARN: one more parameter of the stack).
   */
  requestLog?: { writerArn: string; filterPattern: string };
}

/** The construct id of a tag's stack: `Seller feeds` → `SellerFeeds`. */
export function routeStackId(tag: RouteTag): string {
  return tag.replace(/(^|\s+)(\w)/g, (_, _space: string, letter: string) => letter.toUpperCase());
}

export class RouteStack extends NestedStack {
  /** The stack's route functions by operationId. */
  readonly functions = new Map<string, ApiFunction>();
  /** What API Gateway assumes to invoke this stack's functions, and only them. */
  readonly invokeRole: iam.Role;

  constructor(scope: Construct, id: string, props: RouteStackProps) {
    if (props.routes.length > MAX_ROUTES_PER_STACK) {
      throw new Error(
        `The ${props.tag} routes (${props.routes.length}) exceed the ${MAX_ROUTES_PER_STACK} one route stack holds: split the tag (docs/decisions/stack-limits.md)`,
      );
    }
    super(scope, id, {
      description: `Agent Marketplace (${props.settings.stage}): the ${props.tag} routes`,
      parameters: {
        ...Object.fromEntries(Object.entries(PARAMETER_NAMES).map(([input, name]) => [name, props.inputs[input as keyof RouteStackInputs]])),
        ...(props.requestLog ? { [REQUEST_LOG_WRITER_PARAMETER]: props.requestLog.writerArn } : {}),
      },
    });
    const input = Object.fromEntries(
      Object.entries(PARAMETER_NAMES).map(([key, name]) => [key, new CfnParameter(this, name, { type: 'String' }).valueAsString]),
    ) as unknown as RouteStackInputs;

    const table = { tableName: input.tableName, tableArn: input.tableArn };
    const feedsBucket = s3.Bucket.fromBucketAttributes(this, 'FeedsBucket', { bucketArn: input.feedsBucketArn, bucketName: input.feedsBucketName });
    const deliveryQueue = sqs.Queue.fromQueueAttributes(this, 'DeliveryQueue', { queueArn: input.deliveryQueueArn, queueUrl: input.deliveryQueueUrl });
    const tracingPolicy = iam.ManagedPolicy.fromManagedPolicyArn(this, 'FunctionTracingPolicy', input.functionTracingPolicyArn);
    const environment = sharedEnvironment(props.settings.stage, secretsmanager.Secret.fromSecretCompleteArn(this, 'CursorSigningSecret', input.cursorSigningSecretArn));
    const roles = new FunctionRoles(this, 'FunctionRoles');
    const requestLogWriterArn = props.requestLog ? new CfnParameter(this, REQUEST_LOG_WRITER_PARAMETER, { type: 'String' }).valueAsString : undefined;

    // Integration credentials rather than a resource-policy statement per function: one resource for
    // the stack, naming each of its functions.
    this.invokeRole = new InlinePolicyRole(this, 'InvokeRole', {
      assumedBy: new iam.ServicePrincipal('apigateway.amazonaws.com'),
      description: `API Gateway invokes the marketplace's ${props.tag} route functions with this role`,
    });
    const routes = new Construct(this, 'Routes');
    acknowledgeFinding(
      routes,
      'AwsSolutions-APIG4',
      'Callers authenticate with the marketplace’s own API keys (Authorization: Bearer mk_…), checked by every function’s middleware; registration, /health and the OpenAPI document are public by design, and unknown routes must answer the contract’s JSON 404 rather than a gateway 401.',
    );

    for (const { route, routeKey, bundledFiles } of props.routes) {
      const grants = routeGrants(route);
      const fn = new ApiFunction(this, route.operationId, {
        handler: route.handler,
        description: `${routeKey}: ${route.summary}`.slice(0, 256),
        settings: props.settings,
        environment,
        ...(route.timeoutSeconds ? { timeout: Duration.seconds(route.timeoutSeconds) } : {}),
        ...(bundledFiles ? { bundledFiles } : {}),
        role: roles.roleFor(grantsDescription(grants)),
        tracingPolicy,
      });
      fn.grantTable(table, grants.table);
      grantFeedFiles(fn, feedsBucket, grants.feedFiles);
      grantSearchIndexFiles(fn, feedsBucket, grants.searchIndex);
      if (grants.deliveryQueue.length > 0) grantSendToDeliveryQueue(fn, deliveryQueue);
      // A client of this API (the MCP tools) calls it at its own endpoint, never at a host a request
      // names; a route that checks the Origin allows the API's own.
      if (route.callsApi || route.checksOrigin) fn.addEnvironment(ENV.apiBaseUrl, `https://${input.httpApiId}.execute-api.${Stack.of(this).region}.${Stack.of(this).urlSuffix}`);
      // The web pages allowed besides the API's own origin (shared/http/request-origin.ts).
      if (route.checksOrigin && props.settings.mcpAllowedOrigins.length > 0) fn.addEnvironment(ENV.mcpAllowedOrigins, props.settings.mcpAllowedOrigins.join(','));
      this.functions.set(route.operationId, fn);
      // The function's request records reach the callers' request logs from its log group, off its requests' path.
      if (props.requestLog && requestLogWriterArn) {
        new logs.CfnSubscriptionFilter(routes, `${route.operationId}RequestLog`, {
          logGroupName: fn.logGroup.logGroupName,
          destinationArn: requestLogWriterArn,
          filterPattern: props.requestLog.filterPattern,
        });
      }

      // A Lambda proxy integration (payload 2.0) that API Gateway calls with the invocation role.
      const integration = new apigw.CfnIntegration(routes, `${route.operationId}Integration`, {
        apiId: input.httpApiId,
        integrationType: 'AWS_PROXY',
        integrationUri: fn.function.functionArn,
        payloadFormatVersion: '2.0',
        credentialsArn: this.invokeRole.roleArn,
      });
      new apigw.CfnRoute(routes, `${route.operationId}Route`, {
        apiId: input.httpApiId,
        routeKey,
        target: `integrations/${integration.ref}`,
        authorizationType: 'NONE',
      });
    }
    this.invokeRole.addToPrincipalPolicy(
      new iam.PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [...this.functions.values()].map((fn) => fn.function.functionArn) }),
    );

    new FunctionErrorAlarms(this, 'Alarms', { topic: sns.Topic.fromTopicArn(this, 'AlarmTopic', input.alarmTopicArn), functions: this.functions });
  }
}
