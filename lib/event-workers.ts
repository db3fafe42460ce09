// Functions triggered by events rather than HTTP, one per row of the worker table: an S3 row is
// notified of new objects under its prefix in the feeds bucket, an SQS row consumes the delivery queue.
import { Duration, Stack, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { LambdaDestination } from 'aws-cdk-lib/aws-s3-notifications';
import { Construct } from 'constructs';
import { ENV } from '../shared/resources.ts';
import { STREAM_RETRY_ATTEMPTS, workerTimeoutSeconds, type WorkerDefinition, type WorkerTrigger } from '../shared/workers.ts';
import { ApiFunction } from './api-function.ts';
import { acknowledgeFinding, wildcardResourceFinding } from './compliance.ts';
import { grantFeedFiles, grantSearchIndexFiles } from './feed-file-grants.ts';
import { workerGrants } from './function-grants.ts';
import type { StageSettings } from './stage-settings.ts';
import type { WebhookDelivery } from './webhook-delivery.ts';

export interface EventWorkersProps {
  settings: StageSettings;
  workers: readonly WorkerDefinition[];
  table: ITable;
  feedsBucket: s3.IBucket;
  webhookDelivery: WebhookDelivery;
  /** Variables every function of the stack shares. */
  environment: Record<string, string>;
}

export class EventWorkers extends Construct {
  /** Worker functions by the row's id. */
  readonly functions = new Map<string, ApiFunction>();

  constructor(scope: Construct, id: string, props: EventWorkersProps) {
    super(scope, id);
    for (const worker of props.workers) {
      const fn = new ApiFunction(this, worker.id, {
        handler: worker.handler,
        description: worker.description.slice(0, 256),
        settings: props.settings,
        environment: props.environment,
        timeout: Duration.seconds(workerTimeoutSeconds(worker)),
      });
      const grants = workerGrants(worker);
      fn.grantTable(props.table, grants.table);
      // The row's own feed-file actions; an S3 trigger's read of its objects is granted with the trigger.
      grantFeedFiles(fn, props.feedsBucket, worker.feedFileActions);
      grantSearchIndexFiles(fn, props.feedsBucket, grants.searchIndex);
      if (grants.deliveryQueue.length > 0) props.webhookDelivery.grantSendToQueue(fn);
      if (grants.retrySchedules.length > 0) props.webhookDelivery.grantScheduleCreation(fn);
      this.functions.set(worker.id, fn);

      if (worker.trigger.type === 's3') this.subscribeToFeedUploads(fn, worker.trigger.prefix, props.feedsBucket);
      else if (worker.trigger.type === 'schedule') this.runOnSchedule(worker.id, fn, worker.trigger.everyMinutes);
      else if (worker.trigger.type === 'stream') this.consumeTableStream(fn, worker.trigger, props.table);
      else this.consumeDeliveryQueue(fn, worker.trigger, props.webhookDelivery);
    }
  }

  /** New objects under `prefix` invoke the function, which may read exactly those objects. */
  private subscribeToFeedUploads(fn: ApiFunction, prefix: string, bucket: s3.IBucket): void {
    bucket.addEventNotification(s3.EventType.OBJECT_CREATED, new LambdaDestination(fn.function), { prefix });
    const objects = bucket.arnForObjects(`${prefix}*`);
    fn.role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: ['s3:GetObject'], resources: [objects] }));
    fn.addEnvironment(ENV.feedsBucketName, bucket.bucketName);
    acknowledgeFinding(
      fn.role,
      wildcardResourceFinding(fn, objects),
      `The worker reads the uploaded files that trigger it, whose keys are generated per feed; the grant is read-only and limited to the ${prefix} prefix.`,
    );
    acknowledgeBucketNotificationsHandler(this);
  }

  /** An EventBridge rule invokes the function every `minutes`. */
  private runOnSchedule(id: string, fn: ApiFunction, minutes: number): void {
    new events.Rule(this, `${id}Schedule`, {
      schedule: events.Schedule.rate(Duration.minutes(minutes)),
      targets: [new targets.LambdaFunction(fn.function, { retryAttempts: 0 })],
    });
  }

  /** The table's stream, filtered to new images of the row's entities, in batches. */
  private consumeTableStream(fn: ApiFunction, trigger: Extract<WorkerTrigger, { type: 'stream' }>, table: ITable): void {
    fn.function.addEventSource(
      new DynamoEventSource(table, {
        startingPosition: lambda.StartingPosition.TRIM_HORIZON,
        batchSize: trigger.batchSize,
        maxBatchingWindow: Duration.seconds(1),
        bisectBatchOnError: true,
        retryAttempts: STREAM_RETRY_ATTEMPTS,
        filters: [lambda.FilterCriteria.filter({ dynamodb: { NewImage: { entity: { S: lambda.FilterRule.or(...trigger.entities) } } } })],
      }),
    );
    acknowledgeFinding(
      fn.role,
      'AwsSolutions-IAM5[Resource::*]',
      'dynamodb:ListStreams has no resource-level permissions, so the event source grants it on *; reading records is granted on this table’s stream only.',
    );
  }

  private consumeDeliveryQueue(fn: ApiFunction, trigger: Extract<WorkerTrigger, { type: 'sqs' }>, delivery: WebhookDelivery): void {
    // Reporting batch item failures retries only the failed messages of a batch, not the whole batch.
    fn.function.addEventSource(
      new SqsEventSource(delivery.queue, { batchSize: trigger.batchSize, reportBatchItemFailures: true, maxConcurrency: trigger.maxConcurrency }),
    );
    fn.addEnvironment(ENV.deliveryQueueUrl, delivery.queue.queueUrl);
  }
}

/**
 * S3 notifications are configured by CDK's own singleton handler function (BucketNotificationsHandler),
 * whose role CDK creates with AWS's basic logging policy; we cannot reshape it.
 */
function acknowledgeBucketNotificationsHandler(scope: Construct): void {
  const handler = Stack.of(scope).node.children.find((child) => child.node.id.startsWith('BucketNotificationsHandler'));
  if (!handler || handler.node.metadata.some((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)) return;
  acknowledgeFinding(
    handler,
    'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
    'CDK’s bucket-notifications handler runs only during deployments, to write the feeds bucket’s notification configuration; CDK creates its role with this logging-only policy, and its S3 grant is limited to our bucket.',
  );
}
