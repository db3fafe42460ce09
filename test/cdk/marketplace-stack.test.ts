// The deployed stacks, as CloudFormation templates: the route table becomes one function and one
// API route per row, each function may do exactly its row's table actions, and the two stages differ
// only where lib/stage-settings.ts says they do.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { beforeAll, describe, expect, it } from 'vitest';
import { GLOBAL_SECONDARY_INDEXES } from '../../shared/data/table-definition.ts';
import { tableActionsFor, type RouteDefinition } from '../../shared/http/route-table.ts';
import { fallbackRoute, routeList, workers as workerTable } from '../../functions/registry.ts';
import { ENV, resourceNames, servedOn, type Stage } from '../../shared/resources.ts';
import { hasFailureQueue } from '../../shared/workers.ts';
import { addComplianceChecks } from '../../lib/compliance.ts';
import { routeStackId } from '../../lib/route-stack.ts';
import { parseStage } from '../../lib/stage-settings.ts';
import { synthesizeStage, type SynthesizedStage } from './synth-stage.ts';

const stages: Partial<Record<Stage, SynthesizedStage>> = {};
// Two synths with cdk-nag: a minute or more on a loaded machine. The assertions are about the templates.
beforeAll(() => {
  stages.test = synthesizeStage('test');
  stages.live = synthesizeStage('live');
}, 600_000);

function synthesized(stage: Stage): SynthesizedStage {
  const result = stages[stage];
  if (!result) throw new Error(`stage ${stage} was not synthesized`);
  return result;
}

const asArray = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);

function resourcesOfType(s: SynthesizedStage, type: string) {
  return Object.entries(s.resources).filter(([, resource]) => resource.Type === type);
}

/** Every Allow statement of every policy attached to the role: its inline policies and its managed ones. */
function statementsOf(s: SynthesizedStage, roleLogicalId: string): { Action: string[]; Resource: unknown[]; Condition?: unknown }[] {
  const managed = (s.resources[roleLogicalId]?.Properties?.ManagedPolicyArns ?? []).map((arn: any) => arn.Ref as string);
  return [
    ...resourcesOfType(s, 'AWS::IAM::Policy')
      .filter(([, policy]) => policy.Properties.Roles.some((role: any) => role.Ref === roleLogicalId))
      .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement),
    ...managed.flatMap((id: string) => s.resources[id]?.Properties.PolicyDocument.Statement ?? []),
    ...(s.resources[roleLogicalId]?.Properties?.Policies ?? []).flatMap((policy: any) => policy.PolicyDocument.Statement),
  ].map((statement: any) => ({ ...statement, Action: asArray(statement.Action), Resource: asArray(statement.Resource) }));
}

function routeFunction(s: SynthesizedStage, route: RouteDefinition) {
  const fn = s.stack.api.functions.get(route.operationId);
  if (!fn) throw new Error(`no function for ${route.operationId}`);
  const functionId = s.logicalId(fn.function);
  return { fn, functionId, properties: s.resources[functionId]?.Properties, roleId: s.logicalId(fn.role) };
}

const everyRoute = [...routeList, fallbackRoute];
/** The routes and workers a stage deploys: the sandbox's test helpers and house agents only in `test`. */
const routesOf = (stage: Stage) => [...routeList.filter(servedOn(stage)), fallbackRoute];
const workersOf = (stage: Stage) => workerTable.filter(servedOn(stage));

describe('the route table becomes the API', () => {
  it.each(everyRoute.map((route) => [route.operationId, route] as const))('%s has its own Node 24 arm64 function', (_, route) => {
    const { properties } = routeFunction(synthesized('test'), route);
    expect(properties.Runtime).toBe('nodejs24.x');
    expect(properties.Architectures).toEqual(['arm64']);
    expect(properties.Handler).toBe('index.handler');
    expect(properties.TracingConfig).toEqual({ Mode: 'Active' });
    // Logged error stacks name source files: Node reads the map beside the bundle.
    expect(properties.Environment.Variables.NODE_OPTIONS).toBe('--enable-source-maps');
  });

  it('gives each function its row’s time limit (default 10 s), always inside API Gateway’s 30 s', () => {
    for (const route of everyRoute) {
      const { properties } = routeFunction(synthesized('test'), route);
      expect(properties.Timeout, route.operationId).toBe(route.timeoutSeconds ?? 10);
      expect(properties.Timeout, route.operationId).toBeLessThan(30);
    }
    // A held events request (up to 20 s) and its last read.
    expect(routeFunction(synthesized('test'), routeList.find((route) => route.operationId === 'listEvents')!).properties.Timeout).toBe(25);
  });

  it('gives the API’s own endpoint to the functions that call it (the MCP tools) or check the Origin against it, and to no other', () => {
    const s = synthesized('test');
    const apiId = s.logicalId(s.stack.api.httpApi);
    for (const route of everyRoute) {
      const variables = routeFunction(s, route).properties.Environment.Variables;
      // The endpoint of the root's API, built in the route's nested stack from the API id it is passed.
      if (route.callsApi || route.checksOrigin) expect(JSON.stringify(variables[ENV.apiBaseUrl]), route.operationId).toMatch(new RegExp(`^\\{"Fn::Join":\\["",\\["https://",\\{"Ref":"${apiId}"\\},"\\.execute-api\\.`));
      else expect(variables[ENV.apiBaseUrl], route.operationId).toBeUndefined();
    }
    expect(everyRoute.filter((route) => route.callsApi).map((route) => route.operationId)).toEqual(['postMcpMessage']);
    expect(everyRoute.filter((route) => route.checksOrigin).map((route) => route.operationId)).toEqual(['postMcpMessage']);
  });

  it('routes every row as `METHOD path` to its function, and $default to the fallback', () => {
    const s = synthesized('test');
    const routes = resourcesOfType(s, 'AWS::ApiGatewayV2::Route').map(([, resource]) => resource.Properties);
    expect(routes).toHaveLength(routeList.length + 1);
    for (const route of everyRoute) {
      const routeKey = route === fallbackRoute ? '$default' : `${route.method} ${route.path}`;
      const matching = routes.filter((properties) => properties.RouteKey === routeKey);
      expect(matching, routeKey).toHaveLength(1);
      const integrationId = matching[0].Target['Fn::Join'][1][1].Ref as string;
      const integration = s.resources[integrationId]?.Properties;
      expect(integration.IntegrationType).toBe('AWS_PROXY');
      expect(integration.PayloadFormatVersion).toBe('2.0');
      expect(integration.IntegrationUri, routeKey).toEqual({ 'Fn::GetAtt': [routeFunction(s, route).functionId, 'Arn'] });
    }
  });

  it('puts each tag’s routes in its own nested stack, where API Gateway may invoke that stack’s functions and nothing else', () => {
    const s = synthesized('test');
    for (const [tag, routeStack] of s.stack.api.routeStacks) {
      const routes = everyRoute.filter((route) => route.tag === tag);
      expect([...routeStack.functions.keys()].sort()).toEqual(routes.map((route) => route.operationId).sort());
      const invokeRoleId = s.logicalId(routeStack.invokeRole);
      const statements = statementsOf(s, invokeRoleId);
      expect(statements.map((statement) => statement.Action)).toEqual([['lambda:InvokeFunction']]);
      const functionArns = routes.map((route) => JSON.stringify({ 'Fn::GetAtt': [routeFunction(s, route).functionId, 'Arn'] })).sort();
      expect(statements[0]!.Resource.map((resource) => JSON.stringify(resource)).sort()).toEqual(functionArns);
      // Every integration of the stack calls with that role.
      const integrations = Object.entries(s.resources).filter(([id, resource]) => id.startsWith(`${routeStackId(tag)}/`) && resource.Type === 'AWS::ApiGatewayV2::Integration');
      expect(integrations).toHaveLength(routes.length);
      for (const [, integration] of integrations) expect(integration.Properties.CredentialsArn).toEqual({ 'Fn::GetAtt': [invokeRoleId, 'Arn'] });
    }
    // The root keeps the API, its stage and the workers; no route or route function.
    const rootTypes = Object.values(s.templates.get('')!.resources).map((resource) => resource.Type);
    expect(rootTypes).not.toContain('AWS::ApiGatewayV2::Route');
    expect(rootTypes.filter((type) => type === 'AWS::CloudFormation::Stack')).toHaveLength(s.stack.api.routeStacks.size);
  });

  it('throttles and access-logs the default stage as JSON', () => {
    for (const [stage, limits] of [
      ['test', { BurstLimit: 200, RateLimit: 100 }],
      ['live', { BurstLimit: 2000, RateLimit: 1000 }],
    ] as const) {
      const [[, apiStage]] = resourcesOfType(synthesized(stage), 'AWS::ApiGatewayV2::Stage') as [[string, any]];
      expect(apiStage.Properties.StageName).toBe('$default');
      expect(apiStage.Properties.AutoDeploy).toBe(true);
      expect(apiStage.Properties.DefaultRouteSettings).toMatchObject({ ThrottlingBurstLimit: limits.BurstLimit, ThrottlingRateLimit: limits.RateLimit });
      const format = JSON.parse(apiStage.Properties.AccessLogSettings.Format);
      expect(format).toMatchObject({
        requestId: '$context.requestId',
        ip: '$context.identity.sourceIp',
        routeKey: '$context.routeKey',
        status: '$context.status',
        latency: '$context.responseLatency',
      });
    }
  });
});

describe('least privilege', () => {
  it.each(everyRoute.map((route) => [route.operationId, route] as const))('%s may do exactly its table actions', (_, route) => {
    const s = synthesized('test');
    const tableId = s.logicalId(s.stack.table);
    const { roleId } = routeFunction(s, route);
    const statements = statementsOf(s, roleId);

    const tableStatements = statements.filter((statement) => statement.Action.some((action) => action.startsWith('dynamodb:')));
    // A route that needs no table (no key, no rate limit: the front door, the reference page, llms.txt) gets no statement.
    expect(tableStatements).toHaveLength(tableActionsFor(route).length > 0 ? 1 : 0);
    if (tableStatements.length > 0) {
      expect([...tableStatements[0]!.Action].sort()).toEqual(tableActionsFor(route));
      const tableArn = { 'Fn::GetAtt': [tableId, 'Arn'] };
      const indexArns = GLOBAL_SECONDARY_INDEXES.map((index) => ({ 'Fn::Join': ['', [tableArn, `/index/${index.indexName}`]] }));
      const expectedResources = tableActionsFor(route).includes('dynamodb:Query') ? [tableArn, ...indexArns] : [tableArn];
      // In any order: IAM's policy minimisation sorts resources by their rendering, which differs in a route stack.
      const sorted = (resources: unknown[]) => resources.map((resource) => JSON.stringify(resource)).sort();
      expect(sorted(tableStatements[0]!.Resource)).toEqual(sorted(expectedResources));
    }

    // Feed files and search snapshots: exactly the row's actions, each under its own prefix.
    const bucketArn = { 'Fn::GetAtt': [s.logicalId(s.stack.feeds.feedsBucket), 'Arn'] };
    const fileStatements = statements.filter((statement) => statement.Action.some((action) => action.startsWith('s3:')));
    const objectActions = (route.feedFileActions ?? []).filter((action) => action !== 's3:ListBucket');
    const expectedFileStatements = [
      ...(objectActions.length > 0 ? [{ Action: objectActions, Resource: [{ 'Fn::Join': ['', [bucketArn, '/feeds/*']] }] }] : []),
      ...(route.feedFileActions?.includes('s3:ListBucket') ? [{ Action: ['s3:ListBucket'], Resource: [bucketArn], Condition: { StringLike: { 's3:prefix': ['feeds/*'] } } }] : []),
      // Search index snapshots: read-only, under search-index/ only.
      ...((route.searchIndexActions ?? []).length > 0 ? [{ Action: [...(route.searchIndexActions ?? [])], Resource: [{ 'Fn::Join': ['', [bucketArn, '/search-index/*']] }] }] : []),
    ];
    expect(fileStatements.map(({ Action, Resource, Condition }) => ({ Action: [...Action].sort(), Resource, ...(Condition ? { Condition } : {}) }))).toEqual(
      expectedFileStatements.map((statement) => ({ ...statement, Action: [...statement.Action].sort() })),
    );

    // Nothing else: its log group, the X-Ray actions (which exist only on `*`), and, for a route that
    // queues deliveries, sending to the delivery queue.
    const others = statements.filter((statement) => !tableStatements.includes(statement) && !fileStatements.includes(statement));
    expect(others.map((statement) => [...statement.Action].sort()).sort((a, b) => a[0]!.localeCompare(b[0]!))).toEqual([
      ['logs:CreateLogStream', 'logs:PutLogEvents'],
      ...(route.sendsDeliveries ? [['sqs:SendMessage']] : []),
      ['xray:PutTelemetryRecords', 'xray:PutTraceSegments'],
    ]);
    if (route.sendsDeliveries) {
      expect(others.find((statement) => statement.Action.includes('sqs:SendMessage'))?.Resource).toEqual([{ 'Fn::GetAtt': [s.logicalId(s.stack.webhookDelivery.queue), 'Arn'] }]);
    }
    for (const statement of statements) expect(statement.Action.every((action) => !action.includes('*'))).toBe(true);
    // Its own log group among those its (possibly shared) role may write to.
    const logStatement = others.find((statement) => statement.Action.includes('logs:PutLogEvents'))!;
    expect(logStatement.Resource).toContainEqual({ 'Fn::GetAtt': [s.logicalId(routeFunction(s, route).fn.logGroup), 'Arn'] });
  });

  it('shares a role only between functions granted exactly the same', () => {
    const s = synthesized('test');
    const byRole = new Map<string, RouteDefinition[]>();
    for (const route of everyRoute) {
      const { roleId } = routeFunction(s, route);
      byRole.set(roleId, [...(byRole.get(roleId) ?? []), route]);
    }
    expect(byRole.size).toBeLessThan(everyRoute.length);
    for (const routes of byRole.values()) {
      const grants = routes.map((route) => JSON.stringify({ table: tableActionsFor(route), files: [...(route.feedFileActions ?? [])].sort() }));
      expect(new Set(grants).size, routes.map((route) => route.operationId).join(', ')).toBe(1);
    }
  });

  it('the health probe may only read one item', () => {
    const s = synthesized('live');
    const health = routeList.find((route) => route.operationId === 'health')!;
    const dynamoActions = statementsOf(s, routeFunction(s, health).roleId).flatMap((statement) =>
      statement.Action.filter((action) => action.startsWith('dynamodb:')),
    );
    expect(dynamoActions).toEqual(['dynamodb:GetItem']);
  });

  it('the scheduler role may only send messages to the delivery queue, and only our schedules may assume it', () => {
    const s = synthesized('test');
    const delivery = s.stack.webhookDelivery;
    const roleId = s.logicalId(delivery.schedulerRole);
    expect(statementsOf(s, roleId)).toEqual([
      { Action: ['sqs:SendMessage'], Effect: 'Allow', Resource: [{ 'Fn::GetAtt': [s.logicalId(delivery.queue), 'Arn'] }] },
    ]);
    const trust = s.resources[roleId]?.Properties.AssumeRolePolicyDocument.Statement;
    expect(trust).toEqual([
      expect.objectContaining({
        Principal: { Service: 'scheduler.amazonaws.com' },
        Condition: {
          StringEquals: {
            'aws:SourceAccount': { Ref: 'AWS::AccountId' },
            'aws:SourceArn': { 'Fn::GetAtt': [s.logicalId(delivery.scheduleGroup), 'Arn'] },
          },
        },
      }),
    ]);
  });

  it('no route may use the scheduler, only delivery-queuing routes the queue, none the feeds bucket beyond its row', () => {
    const s = synthesized('test');
    for (const route of everyRoute) {
      const actions = statementsOf(s, routeFunction(s, route).roleId).flatMap((statement) => statement.Action);
      expect(actions.filter((action) => /^(scheduler|sqs|iam):/.test(action)), route.operationId).toEqual(route.sendsDeliveries ? ['sqs:SendMessage'] : []);
      expect(actions.filter((action) => action.startsWith('s3:')).sort(), route.operationId).toEqual([...(route.feedFileActions ?? []), ...(route.searchIndexActions ?? [])].sort());
    }
  });
});

describe('environment', () => {
  it.each(['test', 'live'] as const)('every %s function gets the shared variables and never ALLOW_PRIVATE_WEBHOOK_URLS', (stage) => {
    const s = synthesized(stage);
    for (const route of routesOf(stage)) {
      const variables = routeFunction(s, route).properties.Environment.Variables;
      expect(variables[ENV.stage]).toBe(stage);
      expect(variables[ENV.tableName]).toEqual({ Ref: s.logicalId(s.stack.table) });
      expect(variables[ENV.logLevel]).toBe('INFO');
      expect(JSON.stringify(variables[ENV.cursorSigningKey])).toContain('{{resolve:secretsmanager:');
      expect(variables).not.toHaveProperty(ENV.allowPrivateWebhookUrls);
    }
  });
});

describe('resources', () => {
  it('the table follows the table definition', () => {
    const s = synthesized('test');
    s.template.hasResourceProperties('AWS::DynamoDB::Table', {
      TableName: resourceNames('test').tableName,
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: [
        {
          IndexName: 'gsi1',
          KeySchema: [
            { AttributeName: 'gsi1pk', KeyType: 'HASH' },
            { AttributeName: 'gsi1sk', KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        },
        {
          IndexName: 'gsi2',
          KeySchema: [
            { AttributeName: 'gsi2pk', KeyType: 'HASH' },
            { AttributeName: 'gsi2sk', KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        },
        {
          IndexName: 'gsi3',
          KeySchema: [
            { AttributeName: 'gsi3pk', KeyType: 'HASH' },
            { AttributeName: 'gsi3sk', KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        },
        {
          IndexName: 'gsi4',
          KeySchema: [
            { AttributeName: 'gsi4pk', KeyType: 'HASH' },
            { AttributeName: 'gsi4sk', KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        },
      ],
      TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
      BillingMode: 'PAY_PER_REQUEST',
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      StreamSpecification: { StreamViewType: 'NEW_AND_OLD_IMAGES' },
    });
  });

  it('the feeds bucket is private, TLS-only, encrypted, logged and expires uploads', () => {
    const s = synthesized('live');
    const bucket = s.resources[s.logicalId(s.stack.feeds.feedsBucket)]?.Properties;
    expect(bucket.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    expect(bucket.BucketEncryption.ServerSideEncryptionConfiguration).toEqual([{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }]);
    expect(bucket.LoggingConfiguration.DestinationBucketName).toEqual({ Ref: s.logicalId(s.stack.feeds.accessLogsBucket) });
    expect(bucket.LifecycleConfiguration.Rules).toEqual([
      expect.objectContaining({ AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 } }),
      expect.objectContaining({ ExpirationInDays: 90 }),
    ]);
    const policy = resourcesOfType(s, 'AWS::S3::BucketPolicy').find(
      ([, resource]) => resource.Properties.Bucket.Ref === s.logicalId(s.stack.feeds.feedsBucket),
    )?.[1];
    expect(JSON.stringify(policy?.Properties.PolicyDocument)).toContain('"aws:SecureTransport":"false"');
  });

  it('the delivery queue dead-letters to a 14-day DLQ; both are encrypted and TLS-only', () => {
    const s = synthesized('test');
    const { queue, deadLetterQueue } = s.stack.webhookDelivery;
    const queueProperties = s.resources[s.logicalId(queue)]?.Properties;
    const dlqProperties = s.resources[s.logicalId(deadLetterQueue)]?.Properties;
    expect(queueProperties.QueueName).toBe(resourceNames('test').deliveryQueueName);
    expect(queueProperties.RedrivePolicy).toEqual({
      deadLetterTargetArn: { 'Fn::GetAtt': [s.logicalId(deadLetterQueue), 'Arn'] },
      maxReceiveCount: (workerTable.find((worker) => worker.trigger.type === 'sqs')?.trigger as { maxReceiveCount: number }).maxReceiveCount,
    });
    expect(dlqProperties.QueueName).toBe(resourceNames('test').deliveryDlqName);
    expect(dlqProperties.MessageRetentionPeriod).toBe(14 * 24 * 3600);
    for (const properties of [queueProperties, dlqProperties]) expect(properties.SqsManagedSseEnabled).toBe(true);
    const queuePolicies = resourcesOfType(s, 'AWS::SQS::QueuePolicy').map(([, resource]) => JSON.stringify(resource.Properties));
    // The delivery queue, its DLQ, and one policy for every worker dead-letter queue.
    expect(queuePolicies.filter((policy) => policy.includes('"aws:SecureTransport":"false"'))).toHaveLength(3);
  });

  it.each(['test', 'live'] as const)('the %s stack keeps its stateful resources’ logical ids, so that no deploy replaces them', (stage) => {
    // A changed logical id is a new resource to CloudFormation: a new, empty table, bucket or queue, and
    // a new alarm topic without its subscriptions. These ids are those of every deploy so far.
    const s = synthesized(stage);
    const ids = {
      table: s.logicalId(s.stack.table),
      cursorSigningSecret: s.logicalId(s.stack.cursorSigningSecret),
      feedsBucket: s.logicalId(s.stack.feeds.feedsBucket),
      accessLogsBucket: s.logicalId(s.stack.feeds.accessLogsBucket),
      deliveryQueue: s.logicalId(s.stack.webhookDelivery.queue),
      deliveryDeadLetterQueue: s.logicalId(s.stack.webhookDelivery.deadLetterQueue),
      scheduleGroup: s.logicalId(s.stack.webhookDelivery.scheduleGroup),
      workerFailureQueues: Object.fromEntries([...s.stack.workers.failureQueues].map(([worker, queue]) => [worker, s.logicalId(queue)])),
      alarmTopic: s.logicalId(s.stack.alarms.topic),
      httpApi: s.logicalId(s.stack.api.httpApi),
      apiStage: s.logicalId(s.stack.api.stage),
      accessLogs: s.logicalId(s.stack.api.accessLogs),
    };
    expect(ids).toEqual({
      table: 'TableCD117FA1',
      cursorSigningSecret: 'CursorSigningSecret1E2B9DED',
      feedsBucket: 'FeedsFeedsBucketA454E1F1',
      accessLogsBucket: 'FeedsAccessLogsBucket8AE1C6F2',
      deliveryQueue: 'WebhookDeliveryQueue3A77A570',
      deliveryDeadLetterQueue: 'WebhookDeliveryDeadLetterQueueFDE28149',
      scheduleGroup: 'WebhookDeliveryScheduleGroupC52461A5',
      workerFailureQueues: {
        feedUploads: 'WorkersfeedUploadsFailures49A6E98F',
        webhookFanOut: 'WorkerswebhookFanOutFailuresEF363E71',
        requestLogWriter: 'WorkersrequestLogWriterFailures74EDD5F6',
        ...(stage === 'test' ? { houseAgents: 'WorkershouseAgentsFailuresD970B775' } : {}),
        searchIndexChanges: 'WorkerssearchIndexChangesFailuresFB734041',
        rfqDispatch: 'WorkersrfqDispatchFailuresFD740A02',
      },
      alarmTopic: 'AlarmsTopic3A2DFEBA',
      httpApi: 'ApiHttpApi4C294DC0',
      apiStage: 'ApiDefaultStage189A7074',
      accessLogs: 'ApiAccessLogs50B185DB',
    });
    // All of them in the root stack's own template.
    const root = s.templates.get('')!.resources;
    for (const id of [...Object.values(ids).filter((id): id is string => typeof id === 'string'), ...Object.values(ids.workerFailureQueues)]) expect(root, id).toHaveProperty(id);
  });

  it('the schedule group is named per stage', () => {
    synthesized('live').template.hasResourceProperties('AWS::Scheduler::ScheduleGroup', { Name: resourceNames('live').schedulerGroupName });
  });

  it('alarms watch API 5xx, dead letters, every function’s errors (ten functions per metric-math alarm) and the account’s throttles', () => {
    const s = synthesized('test');
    const alarms = resourcesOfType(s, 'AWS::CloudWatch::Alarm').map(([, resource]) => resource.Properties);
    const metrics = alarms.map((alarm) => `${alarm.Namespace} ${alarm.MetricName}`);
    expect(metrics).toContain('AWS/ApiGateway 5xx');
    expect(metrics).toContain('AWS/SQS ApproximateNumberOfMessagesVisible');
    const watched = (metricName: string) =>
      alarms.flatMap((alarm) => {
        const stats = (alarm.Metrics ?? []).filter((query: any) => query.MetricStat?.Metric.MetricName === metricName);
        if (stats.length === 0) return [];
        expect(stats.length).toBeLessThanOrEqual(10);
        // The alarm sums its functions' metrics and fires on one.
        expect(alarm.Metrics.find((query: any) => query.ReturnData !== false)?.Expression).toMatch(/^SUM\(\[m\d+(,m\d+)*\]\)$/);
        expect(alarm.Threshold).toBe(1);
        return stats.map((query: any) => JSON.stringify(query.MetricStat.Metric.Dimensions));
      });
    const allFunctions = [...s.stack.api.functions.values(), ...s.stack.workers.functions.values()];
    const dimensions = watched('Errors');
    for (const fn of allFunctions) expect(dimensions, fn.node.path).toContain(JSON.stringify([{ Name: 'FunctionName', Value: { Ref: s.logicalId(fn.function) } }]));
    expect(dimensions).toHaveLength(allFunctions.length);
    // Throttling is the account's concurrency running out: one alarm on the account-wide metric.
    expect(alarms.filter((alarm) => alarm.Namespace === 'AWS/Lambda' && alarm.MetricName === 'Throttles' && alarm.Dimensions === undefined)).toHaveLength(1);
    const topicId = s.logicalId(s.stack.alarms.topic);
    for (const alarm of alarms) expect(alarm.AlarmActions).toEqual([{ Ref: topicId }]);
  });

  it('outputs what operators and clients need', () => {
    const outputs = synthesized('test').template.toJSON().Outputs;
    expect(Object.keys(outputs)).toEqual(expect.arrayContaining(['ApiUrl', 'TableName', 'FeedsBucketName', 'DeliveryQueueUrl']));
  });
});

describe('test and live differ only where they should', () => {
  it('each stage is its own stack with its own names', () => {
    expect(synthesized('test').stack.stackName).toBe('AgentMarketplace-test');
    expect(synthesized('live').stack.stackName).toBe('AgentMarketplace-live');
  });

  it('retention: a month of logs in the sandbox, a year in production', () => {
    for (const [stage, days] of [
      ['test', 30],
      ['live', 365],
    ] as const) {
      const s = synthesized(stage);
      const { fn } = routeFunction(s, routeList[0]!);
      expect(s.resources[s.logicalId(fn.logGroup)]?.Properties.RetentionInDays).toBe(days);
      expect(s.resources[s.logicalId(s.stack.api.accessLogs)]?.Properties.RetentionInDays).toBe(days);
    }
  });

  it('the production table is protected and retained; the sandbox table is not', () => {
    const test = synthesized('test');
    const live = synthesized('live');
    const testTable = test.resources[test.logicalId(test.stack.table)]!;
    const liveTable = live.resources[live.logicalId(live.stack.table)]!;
    expect(testTable.Properties.DeletionProtectionEnabled).toBe(false);
    expect(testTable.DeletionPolicy).toBe('Delete');
    expect(liveTable.Properties.DeletionProtectionEnabled).toBe(true);
    expect(liveTable.DeletionPolicy).toBe('Retain');
    expect(liveTable.UpdateReplacePolicy).toBe('Retain');
  });

  it('the stage comes from -c stage=test|live and defaults to the sandbox', () => {
    expect(parseStage(undefined)).toBe('test');
    expect(parseStage('live')).toBe('live');
    expect(() => parseStage('prod')).toThrow(/Unknown stage "prod"/);
  });
});

describe('cdk-nag AwsSolutions', () => {
  it('runs at synth and fails it on an unacknowledged finding', () => {
    const app = new App({ outdir: mkdtempSync(path.join(os.tmpdir(), 'cdk-nag-control-')) });
    new sqs.Queue(new Stack(app, 'NonCompliant'), 'PlainQueue');
    addComplianceChecks(app);
    try {
      expect(() => app.synth()).toThrow(/AwsSolutions-SQS4/);
    } finally {
      rmSync(app.outdir, { recursive: true, force: true });
    }
  });

  it.each(['test', 'live'] as const)('the %s stack has no unacknowledged finding', (stage) => {
    // synthesizeStage would already have thrown; the report shows no violation of any plugin either.
    const violations = synthesized(stage).validationReport.pluginReports.flatMap((report) => report.violations);
    expect(violations).toEqual([]);
  });

  it.each(['test', 'live'] as const)('every acknowledgement in the %s stack names one finding and says why', (stage) => {
    const { acknowledgements } = synthesized(stage);
    for (const acknowledgement of acknowledgements) {
      expect(acknowledgement.id).toMatch(/^AwsSolutions-[A-Z]+\d+(\[.+\])?$/);
      expect(acknowledgement.reason.trim().length, `${acknowledgement.path} ${acknowledgement.id}`).toBeGreaterThanOrEqual(40);
    }
    // The complete list: a new acknowledgement is a decision, made here on purpose.
    const summary = [...new Set(acknowledgements.map((acknowledgement) => `${acknowledgement.id} @ ${acknowledgement.path.split('/').slice(1).join('/')}`))];
    expect([...new Set(summary)].sort()).toEqual(
      [...new Set([
        'AwsSolutions-SMG4 @ CursorSigningSecret',
        'AwsSolutions-IAM5[Resource::*] @ FunctionTracingPolicy',
        // Routes are public at the gateway (the functions check API keys): acknowledged per route stack.
        ...[...new Set(routesOf(stage).map((route) => route.tag))].map((tag) => `AwsSolutions-APIG4 @ Api/${routeStackId(tag)}/Routes`),
        // Feed files: object grants on the feeds/ prefix (the route stack's FeedsBucketArn parameter), on
        // the (shared) roles of the rows that declare them.
        ...routesOf(stage)
          .filter((route) => (route.feedFileActions ?? []).some((action) => action !== 's3:ListBucket'))
          .map((route) => `AwsSolutions-IAM5[Resource::<FeedsBucketArn>/feeds/*] @ ${routeFunction(synthesized(stage), route).fn.role.node.path.split('/').slice(1).join('/')}`),
        ...routesOf(stage)
          .filter((route) => (route.searchIndexActions ?? []).some((action) => action !== 's3:ListBucket'))
          .map((route) => `AwsSolutions-IAM5[Resource::<FeedsBucketArn>/search-index/*] @ ${routeFunction(synthesized(stage), route).fn.role.node.path.split('/').slice(1).join('/')}`),
        ...workersOf(stage)
          .filter((worker) => worker.trigger.type === 's3' || (worker.feedFileActions ?? []).length > 0)
          .map((worker) => `AwsSolutions-IAM5[Resource::<FeedsFeedsBucketA454E1F1.Arn>/feeds/*] @ Workers/${worker.id}/Role`),
        ...workersOf(stage)
          .filter((worker) => (worker.searchIndexActions ?? []).length > 0)
          .map((worker) => `AwsSolutions-IAM5[Resource::<FeedsFeedsBucketA454E1F1.Arn>/search-index/*] @ Workers/${worker.id}/Role`),
        // Stream event sources: ListStreams exists only on `*`.
        ...workersOf(stage).filter((worker) => worker.trigger.type === 'stream').map((worker) => `AwsSolutions-IAM5[Resource::*] @ Workers/${worker.id}/Role`),
        ...workersOf(stage)
          .filter((worker) => worker.schedulesDeliveryRetries)
          .map((worker) => `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:scheduler:<AWS::Region>:<AWS::AccountId>:schedule/${resourceNames(stage).schedulerGroupName}/*] @ Workers/${worker.id}/Role`),
        // Worker dead-letter queues are dead-letter queues themselves.
        ...workersOf(stage).filter(hasFailureQueue).map((worker) => `AwsSolutions-SQS3 @ Workers/${worker.id}Failures`),
        ...(workersOf(stage).some((worker) => worker.trigger.type === 's3')
          ? ['AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole] @ BucketNotificationsHandler050a0587b7544547bf325f094a3db834']
          : []),
      ])].sort(),
    );
  });
});

describe('the sandbox’s own parts', () => {
  const sandboxRoutes = routeList.filter((route) => !servedOn('live')(route));
  const sandboxWorkers = workerTable.filter((worker) => !servedOn('live')(worker));

  it('the test stack deploys the test helpers and the house agents’ workers; the live stack’s templates hold none of them', () => {
    expect(sandboxRoutes.map((route) => route.path).every((path) => path.startsWith('/v1/test-helpers/') || path === '/v1/test-helpers')).toBe(true);
    expect(sandboxRoutes.length).toBeGreaterThanOrEqual(6);
    expect(sandboxWorkers.map((worker) => worker.id).sort()).toEqual(['houseAgents', 'houseFulfilment', 'houseSetup']);
    const test = synthesized('test');
    for (const route of sandboxRoutes) expect(routeFunction(test, route).properties.Runtime).toBe('nodejs24.x');
    for (const worker of sandboxWorkers) expect(test.stack.workers.functions.has(worker.id), worker.id).toBe(true);

    const live = synthesized('live');
    for (const route of sandboxRoutes) expect(live.stack.api.functions.has(route.operationId), route.operationId).toBe(false);
    for (const worker of sandboxWorkers) expect(live.stack.workers.functions.has(worker.id), worker.id).toBe(false);
    // Not a route key, a function, a description, a custom resource or a variable of them, in any template.
    for (const [name, template] of live.templates) {
      const text = JSON.stringify(template.resources);
      expect(text, name || 'root').not.toMatch(/test-helpers|TestHelpers|Custom::HouseSetup|house-catalog|HOUSE_SHIP_AFTER_SECONDS|Sandbox: /);
    }
    expect([...live.stack.api.routeStacks.keys()]).not.toContain('Test helpers');
  });

  it('the house setup runs at every deploy that changes its catalog, as a custom resource whose service token is its function', () => {
    const s = synthesized('test');
    const setups = resourcesOfType(s, 'Custom::HouseSetup');
    expect(setups).toHaveLength(1);
    const properties = setups[0]![1].Properties;
    expect(properties.ServiceToken).toEqual({ 'Fn::GetAtt': [s.logicalId(s.stack.workers.functions.get('houseSetup')!.function), 'Arn'] });
    expect(properties.BundledFilesDigest).toMatch(/^[0-9a-f]{64}$/);
    // The house seller's schedule reaches the house workers from the stage's settings.
    for (const id of ['houseAgents', 'houseFulfilment']) {
      const variables = s.resources[s.logicalId(s.stack.workers.functions.get(id)!.function)]?.Properties.Environment.Variables;
      expect(variables).toMatchObject({ HOUSE_SHIP_AFTER_SECONDS: '120', HOUSE_DELIVER_AFTER_SECONDS: '180' });
    }
  });
});

describe('the request log', () => {
  it.each(['test', 'live'] as const)('in the %s stack, every route function’s log group sends its request records to the request-log writer, which only this stack’s log groups may invoke', (stage) => {
    const s = synthesized(stage);
    const writer = s.stack.workers.functions.get('requestLogWriter')!;
    const writerArn = { 'Fn::GetAtt': [s.logicalId(writer.function), 'Arn'] };
    const row = workerTable.find((worker) => worker.id === 'requestLogWriter')!;
    const filters = resourcesOfType(s, 'AWS::Logs::SubscriptionFilter').map(([, resource]) => resource.Properties);
    expect(filters).toHaveLength(routesOf(stage).length);
    for (const route of routesOf(stage)) {
      const logGroup = { Ref: s.logicalId(routeFunction(s, route).fn.logGroup) };
      const matching = filters.filter((filter) => JSON.stringify(filter.LogGroupName) === JSON.stringify(logGroup));
      expect(matching, route.operationId).toHaveLength(1);
      expect(matching[0].DestinationArn).toEqual(writerArn);
      expect(matching[0].FilterPattern).toBe((row.trigger as { filterPattern: string }).filterPattern);
    }
    const permissions = resourcesOfType(s, 'AWS::Lambda::Permission').filter(([, resource]) => resource.Properties.Principal === 'logs.amazonaws.com');
    expect(permissions).toHaveLength(1);
    expect(permissions[0]![1].Properties.FunctionName).toEqual(writerArn);
    expect(JSON.stringify(permissions[0]![1].Properties.SourceArn)).toContain(`:log-group:${resourceNames(stage).stackName}-*`);
    // The route stacks are created once CloudWatch Logs may invoke the writer (it is tried when a filter is created).
    for (const routeStack of s.stack.api.routeStacks.values()) expect(s.resources[s.logicalId(routeStack.nestedStackResource!)]?.DependsOn).toContain(permissions[0]![0]);
    // Route functions themselves gain no table grant for it.
    for (const route of routesOf(stage)) expect(tableActionsFor(route).includes('dynamodb:BatchWriteItem'), route.operationId).toBe(false);
  });
});
