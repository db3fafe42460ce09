// Configuration from the environment: defaults, whole numbers within bounds, URLs, the retry schedule,
// and one error that names every problem.
import { describe, expect, it } from 'vitest';
import { DEFAULT_WEBHOOK_DISABLE_AFTER_SECONDS, DEFAULT_WEBHOOK_RETRY_DELAYS, loadConfig } from '../../shared/config.ts';

const required = { STAGE: 'test', TABLE_NAME: 'table', CURSOR_SIGNING_KEY: 'k'.repeat(32) };

describe('loadConfig', () => {
  it('fills the defaults and leaves unset optional settings out', () => {
    const config = loadConfig(required);
    expect(config).toEqual({
      ...required,
      ALLOW_PRIVATE_WEBHOOK_URLS: false,
      API_KEY_CACHE_SECONDS: 30,
      RESTRICTED_KEY_CACHE_MS: 1000,
      LOG_LEVEL: 'INFO',
      FEED_LEASE_SECONDS: 60,
      SEARCH_INDEX_REFRESH_MS: 1000,
      SEARCH_SNAPSHOT_MIN_ENTRIES: 200,
      WEBHOOK_RETRY_DELAYS: [...DEFAULT_WEBHOOK_RETRY_DELAYS],
      WEBHOOK_DISABLE_AFTER_SECONDS: DEFAULT_WEBHOOK_DISABLE_AFTER_SECONDS,
      MCP_ALLOWED_ORIGINS: [],
      NEGOTIATION_TTL_SECONDS: 72 * 60 * 60,
      ORDER_APPROVAL_SECONDS: 72 * 60 * 60,
      HOUSE_SHIP_AFTER_SECONDS: 120,
      HOUSE_DELIVER_AFTER_SECONDS: 180,
      RFQ_MIN_CLOSE_SECONDS: 60 * 60,
    });
    expect(DEFAULT_WEBHOOK_DISABLE_AFTER_SECONDS).toBe(432_000);
    expect('FEEDS_BUCKET_NAME' in config).toBe(false);
    expect('MCP_ALLOWED_HOSTS' in config).toBe(false);
  });

  it('reads numbers, flags, levels, lists and URLs', () => {
    const config = loadConfig({
      ...required,
      STAGE: 'live',
      ALLOW_PRIVATE_WEBHOOK_URLS: 'true',
      API_KEY_CACHE_SECONDS: '0',
      LOG_LEVEL: 'SILENT',
      FEEDS_BUCKET_NAME: 'bucket',
      FEEDS_UPLOAD_ENDPOINT: 'http://127.0.0.1:4566',
      FEED_LEASE_SECONDS: ' 5 ',
      WEBHOOK_RETRY_DELAYS: '1, 2,3',
      API_BASE_URL: 'https://api.example.com',
      MCP_ALLOWED_ORIGINS: 'https://app.example.com, http://localhost:6274',
      MCP_ALLOWED_HOSTS: 'localhost,127.0.0.1,[::1]',
      NEGOTIATION_TTL_SECONDS: '2',
      WEBHOOK_DISABLE_AFTER_SECONDS: '20',
      ORDER_APPROVAL_SECONDS: '3',
      RFQ_MIN_CLOSE_SECONDS: '4',
      RESTRICTED_KEY_CACHE_MS: '0',
      HOUSE_SHIP_AFTER_SECONDS: '4',
      HOUSE_DELIVER_AFTER_SECONDS: '0',
    });
    expect(config).toMatchObject({
      WEBHOOK_DISABLE_AFTER_SECONDS: 20,
      STAGE: 'live',
      ALLOW_PRIVATE_WEBHOOK_URLS: true,
      API_KEY_CACHE_SECONDS: 0,
      LOG_LEVEL: 'SILENT',
      FEEDS_BUCKET_NAME: 'bucket',
      FEEDS_UPLOAD_ENDPOINT: 'http://127.0.0.1:4566',
      FEED_LEASE_SECONDS: 5,
      WEBHOOK_RETRY_DELAYS: [1, 2, 3],
      API_BASE_URL: 'https://api.example.com',
      MCP_ALLOWED_ORIGINS: ['https://app.example.com', 'http://localhost:6274'],
      MCP_ALLOWED_HOSTS: ['localhost', '127.0.0.1', '[::1]'],
      NEGOTIATION_TTL_SECONDS: 2,
      ORDER_APPROVAL_SECONDS: 3,
      RFQ_MIN_CLOSE_SECONDS: 4,
      RESTRICTED_KEY_CACHE_MS: 0,
      HOUSE_SHIP_AFTER_SECONDS: 4,
      HOUSE_DELIVER_AFTER_SECONDS: 0,
    });
  });

  it('names every problem in one error', () => {
    expect(() =>
      loadConfig({
        STAGE: 'prod',
        CURSOR_SIGNING_KEY: 'short',
        ALLOW_PRIVATE_WEBHOOK_URLS: 'yes',
        API_KEY_CACHE_SECONDS: '31',
        FEED_LEASE_SECONDS: '1.5',
        FEEDS_BUCKET_NAME: '',
        API_BASE_URL: 'ftp://example.com',
        FEEDS_UPLOAD_ENDPOINT: 'not a url',
        WEBHOOK_RETRY_DELAYS: '60,0',
        MCP_ALLOWED_ORIGINS: 'https://app.example.com/path',
        MCP_ALLOWED_HOSTS: 'localhost:3000',
      }),
    ).toThrow(
      'Invalid configuration: WEBHOOK_RETRY_DELAYS: Must be 1 to 10 comma-separated whole seconds, each 1 to 86400; ' +
        'STAGE: Must be one of test, live; TABLE_NAME: Required; CURSOR_SIGNING_KEY: Must be at least 32 characters; ' +
        'ALLOW_PRIVATE_WEBHOOK_URLS: Must be one of true, false; API_KEY_CACHE_SECONDS: Must be 0 to 30; ' +
        'FEEDS_BUCKET_NAME: Must be at least 1 character; FEEDS_UPLOAD_ENDPOINT: Must be a URL; ' +
        'FEED_LEASE_SECONDS: Must be a whole number; API_BASE_URL: Must be a URL (http: or https:); ' +
        'MCP_ALLOWED_ORIGINS: Must be comma-separated origins (https://example.com); MCP_ALLOWED_HOSTS: Must be comma-separated host names without a port (localhost)',
    );
  });
});
