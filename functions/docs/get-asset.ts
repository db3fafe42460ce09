// GET /docs/assets/{file} — serves the reference's files from memory, read at cold start from the
// folder shipped beside this bundle (shared/http/reference-assets.ts chooses the encoding).
import { readFileSync } from 'node:fs';
import { errors } from '../../shared/http/errors.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { assetResponse, readAssets, type ReferenceAssetsManifest } from '../../shared/http/reference-assets.ts';
import { bundledFilePath } from '../../shared/resources.ts';
import { route } from './get-asset.route.ts';

const manifest = JSON.parse(readFileSync(bundledFilePath('reference-assets.json', import.meta.url), 'utf8')) as ReferenceAssetsManifest;
const assets = readAssets(bundledFilePath('reference-assets', import.meta.url), manifest);

export const handler = apiHandler(route, ({ params, headers }) => {
  const asset = assets.get(params.file);
  if (!asset) throw errors.notFound(`No file ${params.file} in the reference's assets: the page at /docs names the current ones`);
  return Promise.resolve(assetResponse(asset, headers));
});
