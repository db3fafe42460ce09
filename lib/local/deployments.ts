// Workers that run at every deploy (a CloudFormation custom resource whose service token is the
// function), emulated at every start of the local runtime: the handler gets the custom resource's
// `Create` request, and answers at its response URL — here a one-request server on loopback — as it
// answers CloudFormation. A FAILED answer (or none within the function's time) stops the start with its reason.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CloudFormationCustomResourceCreateEvent } from 'aws-lambda';
import { LOCAL_ACCOUNT_ID, LOCAL_REGION } from './aws.ts';
import { LocalRuntimeError } from './errors.ts';
import { lambdaContext, type LambdaHandler } from './lambda.ts';

interface CustomResourceResponse {
  Status: 'SUCCESS' | 'FAILED';
  Reason?: string;
  Data?: Record<string, unknown>;
}

export async function runAtDeploy(options: { functionName: string; timeoutMs: number; handler: LambdaHandler<CloudFormationCustomResourceCreateEvent, unknown>; stackName: string }): Promise<CustomResourceResponse> {
  let answered: (response: CustomResourceResponse) => void = () => undefined;
  const answer = new Promise<CustomResourceResponse>((resolve) => {
    answered = resolve;
  });
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      response.writeHead(200).end();
      try {
        answered(JSON.parse(Buffer.concat(chunks).toString('utf8')) as CustomResourceResponse);
      } catch {
        answered({ Status: 'FAILED', Reason: 'The answer at the response URL was not JSON' });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const stackId = `arn:aws:cloudformation:${LOCAL_REGION}:${LOCAL_ACCOUNT_ID}:stack/${options.stackName}/${randomUUID()}`;
    const event: CloudFormationCustomResourceCreateEvent = {
      RequestType: 'Create',
      ServiceToken: `arn:aws:lambda:${LOCAL_REGION}:${LOCAL_ACCOUNT_ID}:function:${options.functionName}`,
      ResponseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/response`,
      StackId: stackId,
      RequestId: randomUUID(),
      LogicalResourceId: `${options.functionName}Run`,
      ResourceType: `Custom::${options.functionName}`,
      ResourceProperties: { ServiceToken: `arn:aws:lambda:${LOCAL_REGION}:${LOCAL_ACCOUNT_ID}:function:${options.functionName}` },
    };
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<CustomResourceResponse>((resolve) => {
      timer = setTimeout(() => resolve({ Status: 'FAILED', Reason: `No answer within ${options.timeoutMs} ms` }), options.timeoutMs);
    });
    const invoked = options.handler(event, lambdaContext(options.functionName, options.timeoutMs)).catch((error: unknown) => answered({ Status: 'FAILED', Reason: error instanceof Error ? error.message : String(error) }));
    const response = await Promise.race([answer, timedOut]);
    clearTimeout(timer);
    await Promise.race([invoked, timedOut]);
    if (response.Status !== 'SUCCESS') throw new LocalRuntimeError(`${options.functionName} failed at start: ${response.Reason ?? 'no reason given'}`);
    return response;
  } finally {
    server.close();
  }
}
