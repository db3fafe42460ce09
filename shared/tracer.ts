// X-Ray tracing with Powertools' Tracer: the handler (its Middy middleware, shared/powertools.ts) and
// the AWS SDK clients, each wrapped where it is created at module scope (traced). Enabled only in
// Lambda (Powertools reads AWS_EXECUTION_ENV; POWERTOOLS_TRACE_ENABLED=false turns it off anywhere).
// Nothing secret reaches a trace: handler responses are not recorded (they carry API keys and webhook
// secrets), outgoing HTTP requests are not captured (a webhook URL may carry a token), and the SDK
// clients' subsegments name operations and resources, not items or messages.
import { Tracer } from '@aws-lambda-powertools/tracer';
import { SERVICE_NAME } from './service.ts';

export const tracer = new Tracer({ serviceName: SERVICE_NAME, captureHTTPsRequests: false });

/** An AWS SDK v3 client whose calls become subsegments of the invocation's trace. */
export function traced<Client>(client: Client): Client {
  return tracer.captureAWSv3Client(client);
}
