#!/usr/bin/env node
// The `agent-marketplace` command: runs the built CLI (src/cli.ts → dist/cli.js). This launcher is
// committed so that `npm ci` links the command before the SDK is built; until `npm run sdk:build` has
// built it, it says so.
import process from 'node:process';

import('../dist/cli.js').catch((error) => {
  if (error && error.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/cli.js')) {
    process.stderr.write('agent-marketplace: the SDK is not built yet: run npm run sdk:build (in the repository) first\n');
    process.exit(2);
  }
  throw error;
});
