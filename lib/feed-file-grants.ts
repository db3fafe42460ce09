// Grants a function exactly the bucket actions its route or worker row declares: feed files under the
// feeds bucket's `feeds/` prefix, search index snapshots under `search-index/`; and tells it the bucket's name.
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import { FEED_FILES_PREFIX } from '../shared/data/feed-file-keys.ts';
import { SEARCH_SNAPSHOTS_PREFIX } from '../shared/data/search-snapshot-keys.ts';
import { ENV, type FeedFileAction, type SearchIndexAction } from '../shared/resources.ts';
import type { ApiFunction } from './api-function.ts';
import { acknowledgeFinding, wildcardResourceFinding } from './compliance.ts';

export function grantFeedFiles(fn: ApiFunction, bucket: s3.IBucket, actions: readonly FeedFileAction[] | undefined): void {
  grantPrefix(fn, bucket, FEED_FILES_PREFIX, actions, 'Feed files are stored under generated per-seller, per-feed keys');
}

export function grantSearchIndexFiles(fn: ApiFunction, bucket: s3.IBucket, actions: readonly SearchIndexAction[] | undefined): void {
  grantPrefix(fn, bucket, SEARCH_SNAPSHOTS_PREFIX, actions, 'Search index snapshots are stored under keys named by their log sequence');
}

function grantPrefix(fn: ApiFunction, bucket: s3.IBucket, prefix: string, actions: readonly string[] | undefined, why: string): void {
  if (!actions || actions.length === 0) return;
  fn.addEnvironment(ENV.feedsBucketName, bucket.bucketName);
  const objects = bucket.arnForObjects(`${prefix}*`);
  const objectActions = actions.filter((action) => action !== 's3:ListBucket');
  if (objectActions.length > 0) {
    fn.role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: objectActions, resources: [objects] }));
    acknowledgeFinding(
      fn.role,
      wildcardResourceFinding(fn, objects),
      `${why}; the grant is limited to the ${prefix} prefix and to ${objectActions.join(', ')}.`,
    );
  }
  if (actions.includes('s3:ListBucket')) {
    fn.role.addToPrincipalPolicy(
      new iam.PolicyStatement({ actions: ['s3:ListBucket'], resources: [bucket.bucketArn], conditions: { StringLike: { 's3:prefix': [`${prefix}*`] } } }),
    );
  }
}
