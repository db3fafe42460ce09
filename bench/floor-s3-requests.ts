// A cold-start floor (bench/cold-start.ts): the minimal handler plus every S3 request of ours
// (shared/data/s3-requests.ts: the AWS SDK's signer, HTTP handler, retry strategy and XML parser,
// without its S3 client). What it costs over the minimal handler is the least any function that
// touches the feeds bucket can cost.
import * as s3 from '../shared/data/s3-requests.ts';
import { documentClient } from './minimal-handler.ts';

export const requests = Object.values(s3);

export const handler = () => Promise.resolve({ statusCode: 204, client: documentClient });
