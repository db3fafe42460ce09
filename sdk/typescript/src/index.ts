// @agent-marketplace/sdk: the TypeScript client of the Agent Marketplace API.
export { Marketplace } from './client.ts';
export type { ClientOptions, RequestOptions, ResponseInfo, WithResponse } from './http.ts';
export { PagePromise, type Page, type PageData } from './pagination.ts';
export type { FeedFile, FeedFormat, FeedUpload, WaitOptions } from './resources/feeds.ts';
export type { FollowOptions } from './resources/events.ts';
export {
  AuthenticationError,
  ConflictError,
  IdempotencyError,
  InsufficientScopeError,
  InternalServerError,
  InvalidRequestError,
  MarketplaceConnectionError,
  MarketplaceError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  SpendingLimitError,
  WaitTimeoutError,
  WebhookVerificationError,
} from './errors.ts';
export { verifyWebhook, type VerifyWebhookInput, type WebhookHeaders } from './verify-webhook.ts';
export type * from './types.ts';
export type { operations } from './generated/openapi.ts';
