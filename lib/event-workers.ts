// Functions triggered by events rather than HTTP, one per row of the worker table: an S3 row is
// notified of new objects under its prefix in the feeds bucket, an SQS row consumes the delivery queue,
// a stream row reads the table's stream. What a stream or S3 row's event source gives up on (a record
// after its retries, an invocation after Lambda's) goes to the worker's own dead-letter queue, to be
// replayed by `npm run admin -- replay-dead-letters <worker>`; the SQS row's queue has its own.
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { CustomResource, Duration, Stack, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { LambdaDestination } from 'aws-cdk-lib/aws-s3-notifications';
import { Construct } from 'constructs';
import { ENV, workerFailureQueueName } from '../shared/resources.ts';
import { ASYNC_RETRY_ATTEMPTS, hasFailureQueue, STREAM_RETRY_ATTEMPTS, workerTimeoutSeconds, type WorkerDefinition, type WorkerTrigger } from '../shared/workers.ts';
import { ApiFunction } from './api-function.ts';
import { bundledFilesOf } from './bundled-files.ts';
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
  /** Stream, S3 and logs workers' own dead-letter queues, by the row's id. */
  readonly failureQueues = new Map<string, sqs.Queue>();
  /**
   * The worker that takes the API functions' request records from their logs, and the permission
   * CloudWatch Logs invokes it with: the route stacks subscribe each function's log group to it.
   */
  logsSubscriber: { fn: ApiFunction; filterPattern: string; permission: lambda.CfnPermission } | undefined;

  constructor(scope: Construct, id: string, props: EventWorkersProps) {
    super(scope, id);
    for (const worker of props.workers) {
      const failures = hasFailureQueue(worker) ? this.failureQueue(worker, props.settings.stage) : undefined;
      const files = worker.bundledFiles ? bundledFilesOf(this, props.settings.stage) : undefined;
      const bundledFiles = files && worker.bundledFiles ? Object.fromEntries(worker.bundledFiles.map((name) => [name, files[name]])) : undefined;
      const fn = new ApiFunction(this, worker.id, {
        handler: worker.handler,
        description: worker.description.slice(0, 256),
        settings: props.settings,
        environment: props.environment,
        timeout: Duration.seconds(workerTimeoutSeconds(worker)),
        ...(bundledFiles ? { bundledFiles } : {}),
      });
      const grants = workerGrants(worker);
      fn.grantTable(props.table, grants.table);
      // The row's own feed-file actions; an S3 trigger's read of its objects is granted with the trigger.
      grantFeedFiles(fn, props.feedsBucket, worker.feedFileActions);
      grantSearchIndexFiles(fn, props.feedsBucket, grants.searchIndex);
      if (grants.deliveryQueue.length > 0) props.webhookDelivery.grantSendToQueue(fn);
      if (grants.retrySchedules.length > 0) props.webhookDelivery.grantScheduleCreation(fn);
      this.functions.set(worker.id, fn);

      if (worker.trigger.type === 's3') this.subscribeToFeedUploads(fn, worker.trigger.prefix, props.feedsBucket, failures);
      else if (worker.trigger.type === 'schedule') this.runOnSchedule(worker.id, fn, worker.trigger.everyMinutes);
      else if (worker.trigger.type === 'stream') this.consumeTableStream(fn, worker.trigger, props.table, failures);
      else if (worker.trigger.type === 'deploy') this.runAtDeploy(worker, fn, bundledFiles ?? {});
      else if (worker.trigger.type === 'logs') {
        if (this.logsSubscriber) throw new Error(`The API functions' logs have one subscriber; ${worker.id} would be a second`);
        this.logsSubscriber = { fn, filterPattern: worker.trigger.filterPattern, permission: this.receiveLogs(fn, failures) };
      } else this.consumeDeliveryQueue(fn, worker.trigger, props.webhookDelivery);
    }
    if (this.failureQueues.size > 0) this.requireTls([...this.failureQueues.values()]);
  }

  /** The worker's dead-letter queue: kept 14 days (SQS's maximum), to look into and replay. */
  private failureQueue(worker: WorkerDefinition, stage: StageSettings['stage']): sqs.Queue {
    const queue = new sqs.Queue(this, `${worker.id}Failures`, {
      queueName: workerFailureQueueName(stage, worker.id),
      retentionPeriod: Duration.days(14),
      encryption: sqs.QueueEncryption.SQS_MANAGED,
    });
    acknowledgeFinding(
      queue,
      'AwsSolutions-SQS3',
      `This queue is itself the dead-letter destination of the ${worker.id} worker's event source; only the operator's replay command reads it.`,
    );
    this.failureQueues.set(worker.id, queue);
    return queue;
  }

  /**
   * One queue policy for every worker dead-letter queue, refusing requests without TLS (what
   * enforceSSL gives each queue, at one resource instead of one per queue).
   */
  private requireTls(queues: sqs.Queue[]): void {
    new sqs.CfnQueuePolicy(this, 'FailureQueuesTls', {
      queues: queues.map((queue) => queue.queueUrl),
      policyDocument: new iam.PolicyDocument({
        statements: [
          new iam.PolicyStatement({
            effect: iam.Effect.DENY,
            principals: [new iam.AnyPrincipal()],
            actions: ['sqs:*'],
            resources: queues.map((queue) => queue.queueArn),
            conditions: { Bool: { 'aws:SecureTransport': 'false' } },
          }),
        ],
      }),
    });
  }

  /** New objects under `prefix` invoke the function, which may read exactly those objects. */
  private subscribeToFeedUploads(fn: ApiFunction, prefix: string, bucket: s3.IBucket, failures: sqs.IQueue | undefined): void {
    bucket.addEventNotification(s3.EventType.OBJECT_CREATED, new LambdaDestination(fn.function), { prefix });
    // S3 invokes asynchronously: after Lambda's retries the event goes to the worker's dead-letter
    // queue (a presigned feed's file that never got processed is not found by the recovery sweep).
    if (failures) fn.function.configureAsyncInvoke({ retryAttempts: ASYNC_RETRY_ATTEMPTS, onFailure: new SqsDestination(failures) });
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

  /**
   * CloudWatch Logs may invoke the function for this stack's log groups (the route stacks' names begin
   * with the root stack's); it invokes asynchronously, so after Lambda's retries a batch of lines goes
   * to the worker's dead-letter queue. The subscription filters themselves live beside each function's
   * log group, in the route stacks.
   */
  private receiveLogs(fn: ApiFunction, failures: sqs.IQueue | undefined): lambda.CfnPermission {
    if (failures) fn.function.configureAsyncInvoke({ retryAttempts: ASYNC_RETRY_ATTEMPTS, onFailure: new SqsDestination(failures) });
    const stack = Stack.of(this);
    return new lambda.CfnPermission(this, `${fn.node.id}LogsInvoke`, {
      action: 'lambda:InvokeFunction',
      functionName: fn.function.functionArn,
      principal: 'logs.amazonaws.com',
      sourceAccount: stack.account,
      sourceArn: `arn:${stack.partition}:logs:${stack.region}:${stack.account}:log-group:${stack.stackName}-*`,
    });
  }

  /**
   * A custom resource whose service token is the function: CloudFormation invokes it when the resource
   * is created, and again when its properties change — the digest of the worker's bundled files, so a
   * changed house catalog is loaded by the deploy that ships it. The function answers CloudFormation
   * at the request's response URL; a failure fails the deploy.
   */
  private runAtDeploy(worker: WorkerDefinition, fn: ApiFunction, bundledFiles: Record<string, string>): void {
    const digest = createHash('sha256');
    for (const [name, file] of Object.entries(bundledFiles).sort()) digest.update(name).update(statSync(file).isFile() ? readFileSync(file) : Buffer.alloc(0));
    new CustomResource(this, `${worker.id}Run`, {
      serviceToken: fn.function.functionArn,
      resourceType: `Custom::${worker.id.charAt(0).toUpperCase()}${worker.id.slice(1)}`,
      properties: { BundledFilesDigest: digest.digest('hex') },
    });
  }

  /** An EventBridge rule invokes the function every `minutes`. */
  private runOnSchedule(id: string, fn: ApiFunction, minutes: number): void {
    new events.Rule(this, `${id}Schedule`, {
      schedule: events.Schedule.rate(Duration.minutes(minutes)),
      targets: [new targets.LambdaFunction(fn.function, { retryAttempts: 0 })],
    });
  }

  /** The table's stream, filtered to new images of the row's entities, in batches. */
  private consumeTableStream(fn: ApiFunction, trigger: Extract<WorkerTrigger, { type: 'stream' }>, table: ITable, failures: sqs.IQueue | undefined): void {
    fn.function.addEventSource(
      new DynamoEventSource(table, {
        startingPosition: lambda.StartingPosition.TRIM_HORIZON,
        batchSize: trigger.batchSize,
        maxBatchingWindow: Duration.seconds(1),
        bisectBatchOnError: true,
        retryAttempts: STREAM_RETRY_ATTEMPTS,
        // The failure record (shard and sequence range) of a record skipped after its retries.
        ...(failures ? { onFailure: new SqsDlq(failures) } : {}),
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
