// Invoking an operation in this process (lib/local/in-process.ts), with the JSON body read.
import { invokeInProcess, type InProcessRequest, type OperationTarget } from '../../lib/local/in-process.ts';

export interface InvokeResult {
  status: number;
  /** Lowercase names. */
  headers: Record<string, string>;
  body: string | Buffer;
  json: any;
}

/** `target`: a function's `handler` export or an operation; `path` may carry a query string. */
export async function invoke(target: OperationTarget, path: string, options: InProcessRequest = {}): Promise<InvokeResult> {
  const response = await invokeInProcess(target, path, options);
  const json = typeof response.body === 'string' && /json/.test(response.headers['content-type'] ?? '') ? JSON.parse(response.body) : undefined;
  return { ...response, json };
}
