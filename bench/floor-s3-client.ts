// A cold-start floor (bench/cold-start.ts): the minimal handler plus the S3 client and the commands and
// presigner the feed upload function uses, created at module scope as shared/data/feed-files.ts does.
// What it costs over the minimal handler is the least any function that needs S3 can cost.
import { CopyObjectCommand, DeleteObjectsCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { documentClient } from './minimal-handler.ts';

export const s3 = new S3Client({});
export const commands = [CopyObjectCommand, DeleteObjectsCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, getSignedUrl];

export const handler = () => Promise.resolve({ statusCode: 204, client: documentClient });
