// Where sellers' catalog feed files land (inline uploads stored by the API, presigned uploads made by
// agents), plus the bucket that receives the feeds bucket's S3 server access logs.
import { Duration } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import type { StageSettings } from './stage-settings.ts';

export interface FeedsStorageProps {
  settings: StageSettings;
}

export class FeedsStorage extends Construct {
  readonly feedsBucket: s3.Bucket;
  readonly accessLogsBucket: s3.Bucket;

  constructor(scope: Construct, id: string, props: FeedsStorageProps) {
    super(scope, id);
    const { settings } = props;
    // The sandbox's buckets are emptied and deleted with its stack; production's outlive it.
    const lifetime = { removalPolicy: settings.dataRemovalPolicy, autoDeleteObjects: settings.stage === 'test' };

    // cdk-nag's S1 (server access logging) does not apply to a bucket that is itself a log destination.
    this.accessLogsBucket = new s3.Bucket(this, 'AccessLogsBucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: s3.BucketEncryption.S3_MANAGED, // the only encryption S3 log delivery can write to
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      lifecycleRules: [{ id: 'expire-access-logs', expiration: settings.accessLogExpiration }],
      ...lifetime,
    });
    this.feedsBucket = new s3.Bucket(this, 'FeedsBucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: s3.BucketEncryption.S3_MANAGED,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      serverAccessLogsBucket: this.accessLogsBucket,
      serverAccessLogsPrefix: 'feeds-bucket/',
      lifecycleRules: [
        { id: 'abort-incomplete-multipart-uploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
        // A feed file is only read to process (or retry) its feed; the feed record and its results
        // stay in the table. 30 days in the sandbox, 90 in production for support investigations.
        { id: 'expire-feed-files', expiration: settings.feedFileExpiration },
      ],
      ...lifetime,
    });
  }
}
