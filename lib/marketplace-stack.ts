// One complete marketplace environment: the sandbox (`test`, issues mk_test_ keys) or production
// (`live`, mk_live_). The two stacks share nothing; lib/stage-settings.ts lists all they differ in.
// The root stack holds everything stateful (table, buckets, queues, secret, alarm topic), the HTTP API
// and its stage, the workers and the alarms; each route tag's functions and routes are a nested stack
// of it (lib/route-stack.ts).
import { CfnOutput, Stack, Tags, type StackProps } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { GLOBAL_SECONDARY_INDEXES, TABLE_KEYS } from '../shared/data/table-definition.ts';
import { fallbackRoute, routeList, workers as workerTable } from '../functions/registry.ts';
import { servedOn, type RouteDefinition } from '../shared/http/route-table.ts';
import { resourceNames, type Stage } from '../shared/resources.ts';
import type { WorkerDefinition } from '../shared/workers.ts';
import { functionTracingPolicy, sharedEnvironment } from './api-function.ts';
import { acknowledgeFinding } from './compliance.ts';
import { EventWorkers } from './event-workers.ts';
import { FeedsStorage } from './feeds-storage.ts';
import { MarketplaceApi } from './marketplace-api.ts';
import { OperationalAlarms } from './operational-alarms.ts';
import { stageSettings } from './stage-settings.ts';
import { WebhookDelivery } from './webhook-delivery.ts';

export interface MarketplaceStackProps extends StackProps {
  stage: Stage;
  /** The worker table; tests inject rows to exercise the triggers before real rows exist. */
  workers?: readonly WorkerDefinition[];
  /** The route rows (default: the index's, functions/registry.ts); tests add synthetic rows to prove the stack's size margin. */
  routes?: readonly RouteDefinition[];
}

export class MarketplaceStack extends Stack {
  readonly table: dynamodb.Table;
  readonly cursorSigningSecret: secretsmanager.Secret;
  readonly feeds: FeedsStorage;
  readonly webhookDelivery: WebhookDelivery;
  readonly api: MarketplaceApi;
  readonly workers: EventWorkers;
  readonly alarms: OperationalAlarms;

  constructor(scope: Construct, id: string, props: MarketplaceStackProps) {
    super(scope, id, props);
    const settings = stageSettings(props.stage);
    const names = resourceNames(props.stage);
    const workers = (props.workers ?? workerTable).filter(servedOn(props.stage));
    Tags.of(this).add('project', 'agent-marketplace');
    Tags.of(this).add('stage', props.stage);

    this.table = new dynamodb.Table(this, 'Table', {
      tableName: names.tableName,
      partitionKey: { name: TABLE_KEYS.partitionKey, type: dynamodb.AttributeType.STRING },
      sortKey: { name: TABLE_KEYS.sortKey, type: dynamodb.AttributeType.STRING },
      timeToLiveAttribute: TABLE_KEYS.ttlAttribute,
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      // The outbox's changes, for the delivery issue to drain promptly (docs/decisions/transactional-outbox.md).
      stream: dynamodb.StreamViewType.NEW_AND_OLD_IMAGES,
      deletionProtection: settings.tableDeletionProtection,
      removalPolicy: settings.dataRemovalPolicy,
    });
    for (const index of GLOBAL_SECONDARY_INDEXES) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.indexName,
        partitionKey: { name: index.partitionKey, type: dynamodb.AttributeType.STRING },
        sortKey: { name: index.sortKey, type: dynamodb.AttributeType.STRING },
        projectionType: dynamodb.ProjectionType.ALL,
      });
    }

    // The key pagination cursors are sealed with (AES-256-GCM, derived by HKDF: shared/data/cursor.ts).
    // A leaked key would let someone read a cursor's table position, nothing more, so the value
    // reaches functions as an environment variable, resolved by CloudFormation at deploy time: no
    // Secrets Manager call on any cold start.
    this.cursorSigningSecret = new secretsmanager.Secret(this, 'CursorSigningSecret', {
      description: `Agent Marketplace (${props.stage}): the key that seals pagination cursors`,
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      removalPolicy: settings.dataRemovalPolicy,
    });
    acknowledgeFinding(
      this.cursorSigningSecret,
      'AwsSolutions-SMG4',
      'The cursor key only seals pagination cursors (a table position, nothing secret); rotating it would invalidate every cursor in flight, and a deploy can replace it if ever needed.',
    );

    const environment = sharedEnvironment(props.stage, this.cursorSigningSecret);
    this.alarms = new OperationalAlarms(this, 'Alarms');

    this.feeds = new FeedsStorage(this, 'Feeds', { settings });
    this.webhookDelivery = new WebhookDelivery(this, 'WebhookDelivery', {
      stage: props.stage,
      consumer: deliveryQueueConsumer(workers),
    });
    this.workers = new EventWorkers(this, 'Workers', {
      settings,
      workers,
      table: this.table,
      feedsBucket: this.feeds.feedsBucket,
      webhookDelivery: this.webhookDelivery,
      environment,
    });
    this.api = new MarketplaceApi(this, 'Api', {
      settings,
      // A stage deploys only its own routes and workers: the sandbox's test helpers and house agents never reach a live stack.
      routes: (props.routes ?? routeList).filter(servedOn(props.stage)),
      fallbackRoute,
      table: this.table,
      feedsBucket: this.feeds.feedsBucket,
      webhookDelivery: this.webhookDelivery,
      cursorSigningSecret: this.cursorSigningSecret,
      functionTracingPolicy: functionTracingPolicy(this),
      alarmTopic: this.alarms.topic,
      requestLogWriter: this.workers.logsSubscriber && {
        functionArn: this.workers.logsSubscriber.fn.function.functionArn,
        filterPattern: this.workers.logsSubscriber.filterPattern,
        permission: this.workers.logsSubscriber.permission,
      },
    });
    // Route stacks watch their own functions' errors; the root stack, its workers'.
    this.alarms.watch({
      apiStage: this.api.stage,
      deadLetterQueue: this.webhookDelivery.deadLetterQueue,
      workerFailureQueues: this.workers.failureQueues,
      functions: this.workers.functions,
    });

    new CfnOutput(this, 'ApiUrl', { value: this.api.stage.url, description: 'Base URL of the API' });
    new CfnOutput(this, 'TableName', { value: this.table.tableName });
    new CfnOutput(this, 'FeedsBucketName', { value: this.feeds.feedsBucket.bucketName });
    new CfnOutput(this, 'DeliveryQueueUrl', { value: this.webhookDelivery.queue.queueUrl });
    new CfnOutput(this, 'AlarmTopicArn', { value: this.alarms.topic.topicArn, description: 'Subscribe operators here' });
  }
}

/** The worker row that consumes the delivery queue; a queue has one consumer. */
function deliveryQueueConsumer(workers: readonly WorkerDefinition[]) {
  const consumers = workers.flatMap((worker) => (worker.trigger.type === 'sqs' ? [worker.trigger] : []));
  if (consumers.length > 1) throw new Error(`The delivery queue can have one consumer; the worker table has ${consumers.length}`);
  return consumers[0];
}
