// Webhook subscription rules that depend on the stack: which URLs it may call.
import { config } from '../config.ts';
import { validationError } from '../http/validation.ts';
import { checkWebhookUrl } from './webhook-urls.ts';

/** Throws the contract's 422 when this stack may not deliver to `url`. */
export async function assertDeliverableUrl(url: string): Promise<void> {
  const { STAGE, ALLOW_PRIVATE_WEBHOOK_URLS } = config();
  const problems = await checkWebhookUrl(url, { requireHttps: STAGE === 'live', allowPrivateAddresses: ALLOW_PRIVATE_WEBHOOK_URLS });
  if (problems.length > 0) throw validationError(problems);
}
