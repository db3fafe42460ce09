// The feeds bucket's layout, shared by the functions and the CDK stack (which grants on the prefix).
export const FEED_FILES_PREFIX = 'feeds/';
