// Webhook delivery's plumbing: the delivery queue and its dead-letter queue, and the EventBridge
// Scheduler group whose one-off schedules put retries (1 min, 5 min, 30 min, 2 h) back on the queue.
// Worker and route rows that say they queue deliveries or schedule retries get access through the
// grant-and-env helpers here.
import { ArnFormat, Duration, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { ENV, resourceNames, type Stage } from '../shared/resources.ts';
import type { WorkerTrigger } from '../shared/workers.ts';
import type { ApiFunction } from './api-function.ts';
import { acknowledgeFinding, wildcardResourceFinding } from './compliance.ts';
import { DELIVERY_QUEUE_ACTIONS, RETRY_SCHEDULE_ACTIONS } from './function-grants.ts';

/** Lets a function put delivery jobs on the queue (the root stack's, or the queue a route stack is given). */
export function grantSendToDeliveryQueue(fn: ApiFunction, queue: sqs.IQueue): void {
  fn.role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: [...DELIVERY_QUEUE_ACTIONS], resources: [queue.queueArn] }));
  fn.addEnvironment(ENV.deliveryQueueUrl, queue.queueUrl);
}

type QueueTrigger = Extract<WorkerTrigger, { type: 'sqs' }>;

export interface WebhookDeliveryProps {
  stage: Stage;
  /** The worker row that consumes the queue, if any: it sets the visibility timeout and the redrive count. */
  consumer?: QueueTrigger;
}

/** Used while no worker consumes the queue. */
const DEFAULT_VISIBILITY_TIMEOUT = Duration.seconds(60);
const DEFAULT_MAX_RECEIVE_COUNT = 5;

export class WebhookDelivery extends Construct {
  readonly queue: sqs.Queue;
  readonly deadLetterQueue: sqs.Queue;
  readonly scheduleGroup: scheduler.CfnScheduleGroup;
  /** The role the retry schedules run as: it may send to the delivery queue and do nothing else. */
  readonly schedulerRole: iam.Role;
  private readonly scheduleGroupName: string;

  constructor(scope: Construct, id: string, props: WebhookDeliveryProps) {
    super(scope, id);
    const names = resourceNames(props.stage);
    const stack = Stack.of(this);

    this.deadLetterQueue = new sqs.Queue(this, 'DeadLetterQueue', {
      queueName: names.deliveryDlqName,
      retentionPeriod: Duration.days(14), // SQS's maximum: time to investigate and redrive
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });

    this.queue = new sqs.Queue(this, 'Queue', {
      queueName: names.deliveryQueueName,
      visibilityTimeout: props.consumer ? Duration.seconds(props.consumer.visibilityTimeoutSeconds) : DEFAULT_VISIBILITY_TIMEOUT,
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      deadLetterQueue: {
        queue: this.deadLetterQueue,
        maxReceiveCount: props.consumer?.maxReceiveCount ?? DEFAULT_MAX_RECEIVE_COUNT,
      },
    });

    this.scheduleGroupName = names.schedulerGroupName;
    this.scheduleGroup = new scheduler.CfnScheduleGroup(this, 'ScheduleGroup', { name: this.scheduleGroupName });

    // Only schedules of our own group, in our own account, may assume the role (confused deputy):
    // the scheduler presents the schedule group as the source.
    this.schedulerRole = new iam.Role(this, 'SchedulerRole', {
      description: 'EventBridge Scheduler: sends due webhook delivery retries to the delivery queue',
      assumedBy: new iam.ServicePrincipal('scheduler.amazonaws.com', {
        conditions: {
          StringEquals: { 'aws:SourceAccount': stack.account, 'aws:SourceArn': this.scheduleGroup.attrArn },
        },
      }),
    });
    this.schedulerRole.addToPrincipalPolicy(
      new iam.PolicyStatement({ actions: ['sqs:SendMessage'], resources: [this.queue.queueArn] }),
    );
  }

  /** Lets a function put delivery jobs on the queue. */
  grantSendToQueue(fn: ApiFunction): void {
    grantSendToDeliveryQueue(fn, this.queue);
  }

  /**
   * Lets a function create and delete one-off retry schedules in our group that target the delivery
   * queue as the scheduler role (and pass that role, to the scheduler only).
   */
  grantScheduleCreation(fn: ApiFunction): void {
    const schedules = this.scheduleArns();
    fn.role.addToPrincipalPolicy(
      new iam.PolicyStatement({ actions: [...RETRY_SCHEDULE_ACTIONS], resources: [schedules] }),
    );
    fn.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['iam:PassRole'],
        resources: [this.schedulerRole.roleArn],
        conditions: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } },
      }),
    );
    fn.addEnvironment(ENV.schedulerGroupName, this.scheduleGroupName);
    fn.addEnvironment(ENV.schedulerRoleArn, this.schedulerRole.roleArn);
    fn.addEnvironment(ENV.deliveryQueueArn, this.queue.queueArn);
    acknowledgeFinding(
      fn.role,
      wildcardResourceFinding(fn, schedules),
      'Retry schedules are created at run time, one per failed delivery attempt, so their names are unknown in advance; the grant is limited to schedules of this stack’s own group.',
    );
  }

  /** Every schedule of our group: `arn:…:scheduler:<region>:<account>:schedule/<group>/*`. */
  private scheduleArns(): string {
    return Stack.of(this).formatArn({
      service: 'scheduler',
      resource: 'schedule',
      resourceName: `${this.scheduleGroupName}/*`,
      arnFormat: ArnFormat.SLASH_RESOURCE_NAME,
    });
  }
}
