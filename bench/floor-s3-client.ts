// A cold-start floor (bench/cold-start.ts): the minimal handler plus the S3 client, created at module
// scope with the feeds bucket's settings (shared/data/feeds-bucket.ts, which also traces it, as every
// function's clients are: what Powertools costs is every function's, not the S3 client's), with every
// command, the presigner and the multipart upload the functions use. What it costs over the minimal
// handler is the least any function that touches the feeds bucket can cost.
import { CopyObjectCommand, DeleteObjectsCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { documentClient } from './minimal-handler.ts';

export const s3 = new S3Client({ forcePathStyle: process.env.AWS_ENDPOINT_URL_S3 !== undefined, requestChecksumCalculation: 'WHEN_REQUIRED' });
export const used = [CopyObjectCommand, DeleteObjectsCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, getSignedUrl, Upload];

export const handler = () => Promise.resolve({ statusCode: 204, client: documentClient });
