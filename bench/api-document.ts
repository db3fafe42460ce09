// The size of what an agent reads about the API: GET /v1/openapi.json and GET /llms.txt as built from
// the route index, in bytes and in tokens (OpenAI's o200k_base encoding, through gpt-tokenizer).
// `node bench/api-document.ts` prints them; docs/api-document.md records them. A test holds the
// document under its 150 KB budget (test/unit/openapi-document.test.ts); this only measures.
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { routeList } from '../functions/registry.ts';
import { buildLlmsTxt } from '../shared/openapi/llms-txt.ts';
import { buildOpenApiDocument } from '../shared/openapi/document.ts';

export interface DocumentSize {
  bytes: number;
  tokens: number;
}

export function measure(text: string): DocumentSize {
  return { bytes: Buffer.byteLength(text, 'utf8'), tokens: countTokens(text) };
}

/** The document as GET /v1/openapi.json serves it to a deployed stage (servers: the stage's URL). */
export function servedOpenApiDocument(): string {
  return JSON.stringify(buildOpenApiDocument(routeList, { serverUrl: 'https://abcdef1234.execute-api.eu-central-1.amazonaws.com' }));
}

if (import.meta.main) {
  const document = servedOpenApiDocument();
  const parsed = JSON.parse(document) as { paths: Record<string, Record<string, unknown>>; components: Record<string, unknown> };
  const sections = Object.fromEntries(
    Object.entries(JSON.parse(document) as Record<string, unknown>).map(([key, value]) => [key, measure(JSON.stringify(value))]),
  );
  console.log(
    JSON.stringify(
      {
        openApiDocument: measure(document),
        operations: Object.values(parsed.paths).reduce((count, item) => count + Object.keys(item).length, 0),
        sections,
        llmsTxt: measure(buildLlmsTxt(routeList)),
      },
      null,
      2,
    ),
  );
}
