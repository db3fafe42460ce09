// The syntax of a webhook URL, checked with the WHATWG URL parser (the one the delivery client uses).
// A URL must already be in the parser's normalised form, so what we store is exactly what we call:
// no silently dropped tabs or line breaks, no raw spaces, no host-less or port-0 URLs. The only
// normalisation we apply ourselves is the empty path (`https://host` → `https://host/`).
import { CONTROLS_SINGLE_LINE } from './common.ts';

/** What is wrong with the URL, or undefined when it is a usable absolute http(s) URL in normalised form. */
export function webhookUrlProblem(input: string): string | undefined {
  if (!/^https?:\/\/[^/\\?#\s]/i.test(input)) return 'Must be an absolute http(s) URL with a host: https://host/path';
  if (input.includes(' ') || CONTROLS_SINGLE_LINE.test(input)) return 'Must not contain spaces, tabs, line breaks or other control characters; percent-encode them';
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return 'Must be an absolute http(s) URL with a host: https://host/path';
  }
  if (url.hostname === '') return 'Must name a host';
  if (url.port === '0') return 'Must not use port 0';
  if (input !== url.href && `${input}/` !== url.href) return `Must be in normalised form; send ${url.href}`;
  return undefined;
}

/** The URL as stored: the parser's normalised form. */
export function normaliseWebhookUrl(input: string): string {
  return new URL(input).href;
}
