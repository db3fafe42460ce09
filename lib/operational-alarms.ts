// CloudWatch alarms for what needs an operator: the API answering 5xx, webhook deliveries given up
// (dead-lettered), and functions that fail or are throttled. All of them notify one SNS topic, to
// which operators subscribe (e-mail, chat, paging) outside this stack.
import { Duration } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as sns from 'aws-cdk-lib/aws-sns';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { ApiFunction } from './api-function.ts';

export interface OperationalAlarmsProps {
  apiStage: apigw.HttpStage;
  deadLetterQueue: sqs.IQueue;
  /** Every function of the stack, by a name that says which one it is. */
  functions: ReadonlyMap<string, ApiFunction>;
}

const FIVE_MINUTES = Duration.minutes(5);

export class OperationalAlarms extends Construct {
  readonly topic: sns.Topic;

  constructor(scope: Construct, id: string, props: OperationalAlarmsProps) {
    super(scope, id);
    this.topic = new sns.Topic(this, 'Topic', { displayName: 'Agent Marketplace alarms', enforceSSL: true });
    const notify = new SnsAction(this.topic);

    const alarm = (alarmId: string, description: string, metric: cloudwatch.Metric, threshold: number): void => {
      const created = metric.createAlarm(this, alarmId, {
        alarmDescription: description,
        threshold,
        evaluationPeriods: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });
      created.addAlarmAction(notify);
    };

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
    for (const [name, fn] of props.functions) {
      // Errors count crashes and timeouts only: handled failures are responses, not errors.
      alarm(`${name}Errors`, `Function ${name} failed (crashed or timed out)`, fn.function.metricErrors({ period: FIVE_MINUTES }), 1);
      alarm(`${name}Throttles`, `Function ${name} was throttled (out of concurrency)`, fn.function.metricThrottles({ period: FIVE_MINUTES }), 1);
    }
  }
}
