// The shared logger (shared/logger.ts), under the name the HTTP layer has always imported.
export { logger } from '../logger.ts';
