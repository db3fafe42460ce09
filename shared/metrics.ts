// Business metrics for the platform team, in CloudWatch's embedded metric format (EMF): Powertools'
// Metrics, namespace AgentMarketplace, dimensions service and stage. A function records what happened
// (countMetric, recordOrderCreated); the Middy middleware (shared/powertools.ts) writes them out as one
// EMF line at the end of the invocation. Metrics carry counts and amounts, never ids, keys or bodies.
// Locally and in tests POWERTOOLS_METRICS_DISABLED keeps them off standard output.
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { logger } from './logger.ts';
import { ENV } from './resources.ts';
import { SERVICE_NAME } from './service.ts';

export const METRICS_NAMESPACE = 'AgentMarketplace';

const text = (content: unknown[]) => content.map(String).join(' ');

/** What Powertools says about metrics goes to our logger, but for its notice that an invocation recorded none: most record none. */
const metricsNotices = {
  debug: (...content: unknown[]) => logger.debug(text(content)),
  info: (...content: unknown[]) => logger.info(text(content)),
  warn: (...content: unknown[]) => {
    if (!text(content).startsWith('No application metrics to publish')) logger.warn(text(content));
  },
  error: (...content: unknown[]) => logger.error(text(content)),
};

export const metrics = new Metrics({
  namespace: METRICS_NAMESPACE,
  serviceName: SERVICE_NAME,
  defaultDimensions: { stage: process.env[ENV.stage] ?? 'unknown' },
  logger: metricsNotices,
});

/** The counts the platform team watches; each a CloudWatch metric of that name (unit Count). */
export const COUNTED_METRICS = [
  'ordersCreated',
  'negotiationsOpened',
  'negotiationsAccepted',
  'feedRowsApplied',
  'feedRowsFailed',
  'webhookDeliveriesFailed',
  /** Orders or sessions refused because they would pass an agent's spending limit. */
  'spendingLimitRefusals',
] as const;

export type CountedMetric = (typeof COUNTED_METRICS)[number];

/** Adds `count` (default 1) to the metric for this invocation; nothing for 0. */
export function countMetric(name: CountedMetric, count = 1): void {
  if (count > 0) metrics.addMetric(name, MetricUnit.Count, count);
}

/**
 * An order was created: `ordersCreated` and its value, `orderValue`, in the currency's minor unit. Both
 * are also emitted per currency (a second dimension set), since values in different currencies do not add up.
 */
export function recordOrderCreated(total: { amount: number; currency: string }): void {
  metrics.addDimensions({ currency: total.currency });
  metrics.addMetric('ordersCreated', MetricUnit.Count, 1);
  metrics.addMetric('orderValue', MetricUnit.NoUnit, total.amount);
}
