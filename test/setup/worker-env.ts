// Runs in every test worker before its test files load: points the worker's SDK clients and
// config() at the runtime the global setup started.
import { inject } from 'vitest';

Object.assign(process.env, inject('env'));
