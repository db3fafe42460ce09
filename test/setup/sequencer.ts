// The order test files start in. Files run several at a time, and the run lasts at least as long as
// its longest file from the moment that file starts: the files that start runtimes of their own (a
// JVM each, then restarts and lease waits), synthesize the CDK app or run Spectral start first, the
// longest first, so that they overlap the many short files instead of trailing after them. Within a
// rank, and for every other file, vitest's own order applies (the last run's durations when it has
// them, else the largest files first; a fresh clone has none).
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Slowest first, as measured (`--reporter=json`); a file matching none of these keeps vitest's order after them. */
const STARTS_FIRST: RegExp[] = [
  /\/test\/local\/runtime\.test\.ts$/,
  /\/test\/local\/feed-resume\.test\.ts$/,
  /\/test\/cdk\/stack-size\.test\.ts$/,
  /\/test\/e2e\/catalog-feeds\.test\.ts$/, // before the next JVM start: no more than two start together
  /\/test\/local\/webhook-restart\.test\.ts$/,
  /\/test\/e2e\/trade\.test\.ts$/,
  /\/test\/unit\/openapi-document\.test\.ts$/,
  /\/test\/local\/negotiation-expiry\.test\.ts$/,
  /\/test\/cdk\//,
  /\/test\/local\/worker-dead-letters\.test\.ts$/,
  /\/test\/e2e\/webhook-delivery\.test\.ts$/,
  /\/test\/e2e\/platform\.test\.ts$/,
];

function rank(spec: TestSpecification): number {
  const file = spec.moduleId.replaceAll('\\', '/');
  const index = STARTS_FIRST.findIndex((pattern) => pattern.test(file));
  return index === -1 ? STARTS_FIRST.length : index;
}

export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const position = new Map(sorted.map((spec, index) => [spec, index]));
    return [...sorted].sort((a, b) => rank(a) - rank(b) || position.get(a)! - position.get(b)!);
  }
}
