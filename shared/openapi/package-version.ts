// The marketplace's version (package.json's), read where documents are built (synth, local start): the
// OpenAPI document's info.version, the reference page that shows it, the A2A agent card.
import { readFileSync } from 'node:fs';

export const PACKAGE_VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
