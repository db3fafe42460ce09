// One structured JSON logger per container (Powertools), for handlers and workers alike. Log lines
// carry ids, routes, statuses and durations — never request bodies, headers, keys or secrets.
import { Logger } from '@aws-lambda-powertools/logger';

export const logger = new Logger({
  serviceName: 'agent-marketplace',
  logLevel: (process.env.LOG_LEVEL ?? 'INFO') as 'INFO',
});
