/** Where search index snapshots live in the feeds bucket (shared with the CDK stack's grants). */
export const SEARCH_SNAPSHOTS_PREFIX = 'search-index/';
