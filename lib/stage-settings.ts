// Everything that differs between the sandbox (`test`) and production (`live`) stacks, in one place,
// so that a reviewer can see every difference at a glance. Both stacks are otherwise identical.
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Stage } from '../shared/resources.ts';

export const STAGES: readonly Stage[] = ['test', 'live'];

export interface StageSettings {
  stage: Stage;
  /** CloudWatch Logs retention of function logs, API access logs and S3 server access logs. */
  logRetention: RetentionDays;
  /** Days the same logs stay in the S3 access-log bucket (matches `logRetention`). */
  accessLogExpiration: Duration;
  /** Uploaded feed files are only needed to process (and retry) a feed; the feed record outlives them. */
  feedFileExpiration: Duration;
  /** Production data survives a stack deletion; the sandbox can be torn down completely. */
  dataRemovalPolicy: RemovalPolicy;
  tableDeletionProtection: boolean;
  /** API Gateway stage throttling: far above the plans' per-agent limits, it only guards the account. */
  throttle: { rateLimit: number; burstLimit: number };
  /** A webhook subscription whose deliveries have all failed this long is disabled (WEBHOOK_DISABLE_AFTER_SECONDS). */
  webhookDisableAfter: Duration;
  /**
   * How long an order placed over a restricted key's `approvalAbove` waits for the main key before it is
   * declined (`approval_expired`): contract §5.2, 72 h. Functions read it as ORDER_APPROVAL_SECONDS,
   * which `npm start` takes from the environment (shorter, to try expiry locally).
   */
  orderApprovalWindow: Duration;
  /**
   * The soonest a request for quotes may close after it is made: contract §5.7, 1 h. Functions read it
   * as RFQ_MIN_CLOSE_SECONDS, which `npm start` takes from the environment (seconds, to try closing locally).
   */
  rfqMinCloseWindow: Duration;
  /**
   * Origins of web pages allowed to call POST /mcp besides the API's own (the MCP specification's
   * DNS-rebinding defence refuses every other page with 403): a custom domain in front of the API, or
   * a browser-based MCP client the platform trusts. MCP clients that are not browsers send no Origin.
   */
  mcpAllowedOrigins: readonly string[];
  /**
   * The sandbox's house seller (contract §5.3; the test stage only): how long after confirming an
   * order it ships it, and how long after shipping it delivers it. Functions read them as
   * HOUSE_SHIP_AFTER_SECONDS and HOUSE_DELIVER_AFTER_SECONDS (the same variables set them for `npm start`).
   */
  houseFulfilment?: { shipAfter: Duration; deliverAfter: Duration };
}

const SETTINGS: Record<Stage, StageSettings> = {
  test: {
    stage: 'test',
    logRetention: RetentionDays.ONE_MONTH,
    accessLogExpiration: Duration.days(30),
    feedFileExpiration: Duration.days(30),
    dataRemovalPolicy: RemovalPolicy.DESTROY,
    tableDeletionProtection: false,
    throttle: { rateLimit: 100, burstLimit: 200 },
    webhookDisableAfter: Duration.days(5),
    orderApprovalWindow: Duration.hours(72),
    rfqMinCloseWindow: Duration.hours(1),
    mcpAllowedOrigins: [],
    houseFulfilment: { shipAfter: Duration.minutes(2), deliverAfter: Duration.minutes(3) },
  },
  live: {
    stage: 'live',
    logRetention: RetentionDays.ONE_YEAR,
    accessLogExpiration: Duration.days(365),
    feedFileExpiration: Duration.days(90),
    dataRemovalPolicy: RemovalPolicy.RETAIN,
    tableDeletionProtection: true,
    throttle: { rateLimit: 1000, burstLimit: 2000 },
    webhookDisableAfter: Duration.days(5),
    orderApprovalWindow: Duration.hours(72),
    rfqMinCloseWindow: Duration.hours(1),
    mcpAllowedOrigins: [],
  },
};

export function stageSettings(stage: Stage): StageSettings {
  return SETTINGS[stage];
}

/** The `stage` context value (`-c stage=…`), defaulting to the sandbox; anything else is an error. */
export function parseStage(value: unknown): Stage {
  if (value === undefined) return 'test';
  if (value === 'test' || value === 'live') return value;
  throw new Error(`Unknown stage ${JSON.stringify(value)}: pass -c stage=test (the sandbox) or -c stage=live (production)`);
}
