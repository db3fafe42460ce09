/// <reference lib="dom" />
// The page calls the public API from its own origin with the key the user pasted, which it keeps in
// this tab's sessionStorage only.

export const KEY = 'marketplaceApiKey';

/** An answer the API refused: its status, code and message. */
export class ApiFailure extends Error {
  readonly status: number;
  readonly code: string | undefined;
  constructor(status: number, code: string | undefined, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { authorization: `Bearer ${sessionStorage.getItem(KEY) ?? ''}`, accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(path, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const parsed = (await response.json().catch(() => ({}))) as { data?: T; error?: string; code?: string };
  if (!response.ok) throw new ApiFailure(response.status, parsed.code, parsed.error ?? `HTTP ${response.status}`);
  return parsed.data as T;
}

/** What the page reads of the API's records. */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}
export interface Money {
  amount: number;
  currency: string;
}
