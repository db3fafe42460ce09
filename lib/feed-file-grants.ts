// Grants a function exactly the feed-file actions its route or worker row declares, on the feeds
// bucket's `feeds/` prefix, and tells it the bucket's name.
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import { FEED_FILES_PREFIX } from '../shared/data/feed-file-keys.ts';
import { ENV, type FeedFileAction } from '../shared/resources.ts';
import type { ApiFunction } from './api-function.ts';
import { acknowledgeFinding, wildcardResourceFinding } from './compliance.ts';

export function grantFeedFiles(fn: ApiFunction, bucket: s3.IBucket, actions: readonly FeedFileAction[] | undefined): void {
  if (!actions || actions.length === 0) return;
  fn.addEnvironment(ENV.feedsBucketName, bucket.bucketName);
  const objects = bucket.arnForObjects(`${FEED_FILES_PREFIX}*`);
  const objectActions = actions.filter((action) => action !== 's3:ListBucket');
  if (objectActions.length > 0) {
    fn.role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: objectActions, resources: [objects] }));
    acknowledgeFinding(
      fn.role,
      wildcardResourceFinding(fn, objects),
      `Feed files are stored under generated per-seller, per-feed keys; the grant is limited to the ${FEED_FILES_PREFIX} prefix and to ${objectActions.join(', ')}.`,
    );
  }
  if (actions.includes('s3:ListBucket')) {
    fn.role.addToPrincipalPolicy(
      new iam.PolicyStatement({ actions: ['s3:ListBucket'], resources: [bucket.bucketArn], conditions: { StringLike: { 's3:prefix': [`${FEED_FILES_PREFIX}*`] } } }),
    );
  }
}
