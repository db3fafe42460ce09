// A cold-start floor (bench/cold-start.ts): the minimal handler plus the feeds bucket's S3 client
// (shared/data/feeds-bucket.ts, created at module scope) with every command, the presigner and the
// multipart upload the functions use. What it costs over the minimal handler is the least any function
// that touches the feeds bucket can cost.
import { CopyObjectCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { deleteObjects, feedsBucketClient } from '../shared/data/feeds-bucket.ts';
import { documentClient } from './minimal-handler.ts';

export const s3 = [feedsBucketClient, deleteObjects, CopyObjectCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, getSignedUrl, Upload];

export const handler = () => Promise.resolve({ statusCode: 204, client: documentClient });
