// Runs in every test worker before its test files load: points the worker's SDK clients and
// config() at the runtime the global setup started.
import { inject } from 'vitest';
import { CONCURRENT_INVOCATIONS_ENV } from '../../lib/local/lambda.ts';

Object.assign(process.env, inject('env'));
// The runtime's process runs each invocation in an invocation context of its own (lib/local/lambda.ts);
// a worker calls handlers directly, one at a time, as Lambda on demand does, so Powertools must not
// look for one (forks inherit the global setup's environment).
for (const name of Object.keys(CONCURRENT_INVOCATIONS_ENV)) delete process.env[name];
