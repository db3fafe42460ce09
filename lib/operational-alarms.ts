// CloudWatch alarms for what needs an operator: the API answering 5xx, webhook deliveries given up
// (dead-lettered), worker events given up (in a worker's dead-letter queue), and functions that fail
// or are throttled. All of them notify one SNS topic, to
// which operators subscribe (e-mail, chat, paging) outside this stack. Function errors are watched by
// metric-math alarms over groups of ten functions (a metric-math alarm takes at most ten metrics),
// each naming its functions, instead of an alarm per function; each route stack watches its own
// functions (FunctionErrorAlarms), so no function name crosses a stack boundary. Throttling comes
// from the account's concurrency, which every function draws on: one alarm on the account's Lambda
// throttles.
import { Duration } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as sns from 'aws-cdk-lib/aws-sns';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { ApiFunction } from './api-function.ts';

export interface OperationalAlarmsProps {
  apiStage: apigw.HttpStage;
  deadLetterQueue: sqs.IQueue;
  /** Stream and S3 workers' dead-letter queues, by worker id. */
  workerFailureQueues: ReadonlyMap<string, sqs.IQueue>;
  /** The functions of this stack (route stacks watch their own), by a name that says which one it is. */
  functions: ReadonlyMap<string, ApiFunction>;
}

const FIVE_MINUTES = Duration.minutes(5);
/** CloudWatch's limit of metrics in one metric-math alarm. */
export const FUNCTIONS_PER_ALARM = 10;

/** One alarm, notifying `topic`, fired when the metric reaches the threshold within one period. */
function alarmOn(scope: Construct, topic: sns.ITopic, alarmId: string, description: string, metric: cloudwatch.Metric | cloudwatch.MathExpression, threshold: number): void {
  const created = metric.createAlarm(scope, alarmId, {
    alarmDescription: description,
    threshold,
    evaluationPeriods: 1,
    comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
  });
  created.addAlarmAction(new SnsAction(topic));
}

/** The operators' topic, created first so that route stacks can notify it; `watch` adds the stack's alarms. */
export class OperationalAlarms extends Construct {
  readonly topic: sns.Topic;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.topic = new sns.Topic(this, 'Topic', { displayName: 'Agent Marketplace alarms', enforceSSL: true });
  }

  watch(props: OperationalAlarmsProps): void {
    const alarm = (alarmId: string, description: string, metric: cloudwatch.Metric | cloudwatch.MathExpression, threshold: number): void =>
      alarmOn(this, this.topic, alarmId, description, metric, threshold);

    // A handful of 5xx in five minutes: our handlers answer 500 only for the unexpected, and the
    // gateway answers 5xx when a function crashes or times out.
    alarm(
      'Api5xx',
      'The API answered at least 5 server errors (5xx) within 5 minutes',
      props.apiStage.metricServerError({ period: FIVE_MINUTES, statistic: cloudwatch.Stats.SUM }),
      5,
    );
    alarm(
      'DeliveryDeadLetters',
      'Webhook delivery jobs are in the dead-letter queue: they failed every receive and need a look (and a redrive)',
      props.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: FIVE_MINUTES, statistic: cloudwatch.Stats.MAXIMUM }),
      1,
    );
    // Worker dead letters: one metric-math alarm per ten queues (as for function errors), naming them.
    const failureQueues = [...props.workerFailureQueues];
    for (let start = 0, group = 1; start < failureQueues.length; start += FUNCTIONS_PER_ALARM, group++) {
      const members = failureQueues.slice(start, start + FUNCTIONS_PER_ALARM);
      const names = members.map(([name]) => name).join(', ');
      alarm(
        `WorkerDeadLetters${group}`,
        `Worker events are in a dead-letter queue: they failed every retry. Fix the cause, then run npm run admin -- replay-dead-letters <worker> --stage <stage>. Workers: ${names}`.slice(0, 1024),
        new cloudwatch.MathExpression({
          expression: `MAX([${members.map((_, index) => `q${index}`).join(',')}])`,
          usingMetrics: Object.fromEntries(
            members.map(([, queue], index) => [`q${index}`, queue.metricApproximateNumberOfMessagesVisible({ period: FIVE_MINUTES, statistic: cloudwatch.Stats.MAXIMUM })]),
          ),
          label: 'Dead-lettered worker events',
          period: FIVE_MINUTES,
        }),
        1,
      );
    }
    new FunctionErrorAlarms(this, 'WorkerErrors', { topic: this.topic, functions: props.functions });
    alarm(
      'FunctionThrottles',
      'Lambda throttled invocations in this account (out of concurrency): requests were refused or events delayed',
      lambda.Function.metricAllThrottles({ period: FIVE_MINUTES, statistic: cloudwatch.Stats.SUM }),
      1,
    );
  }
}

export interface FunctionErrorAlarmsProps {
  topic: sns.ITopic;
  /** The functions to watch, by a name that says which one it is. */
  functions: ReadonlyMap<string, ApiFunction>;
}

/** Function errors: one metric-math alarm per ten functions, summing their Errors and naming them. */
export class FunctionErrorAlarms extends Construct {
  constructor(scope: Construct, id: string, props: FunctionErrorAlarmsProps) {
    super(scope, id);
    const functions = [...props.functions];
    for (let start = 0, group = 1; start < functions.length; start += FUNCTIONS_PER_ALARM, group++) {
      const members = functions.slice(start, start + FUNCTIONS_PER_ALARM);
      const names = members.map(([name]) => name).join(', ');
      const sum = (metricOf: (fn: ApiFunction) => cloudwatch.Metric, label: string) =>
        new cloudwatch.MathExpression({
          expression: `SUM([${members.map((_, index) => `m${index}`).join(',')}])`,
          usingMetrics: Object.fromEntries(members.map(([, fn], index) => [`m${index}`, metricOf(fn)])),
          label,
          period: FIVE_MINUTES,
        });
      // Errors count crashes and timeouts only: handled failures are responses, not errors.
      alarmOn(
        this,
        props.topic,
        `FunctionErrors${group}`,
        `A function failed (crashed or timed out); the metric shows which. Functions: ${names}`.slice(0, 1024),
        sum((fn) => fn.function.metricErrors({ period: FIVE_MINUTES }), 'Errors'),
        1,
      );
    }
  }
}
