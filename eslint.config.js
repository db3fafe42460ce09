// Type-aware lint for every TypeScript file in the project.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * Lambda code (shared/, functions/) imports zod only through shared/schemas/zod.ts: zod/mini with the
 * English messages. Classic zod adds ~35 M instructions to every cold start before any schema is
 * built, and classic schemas cost twice as much to build (docs/decisions/zod-mini-in-functions.md); zod/mini set up anywhere else would answer without the English messages.
 */
const ZOD_ONLY_THROUGH_SHARED_SCHEMAS = {
  regex: '^zod(/(v3|v4|v4/classic(/.*)?|mini|v4/mini(/.*)?|v4-mini))?$',
  message: 'Import zod from shared/schemas/zod.ts (zod/mini with the English messages): classic zod costs every cold start ~35 M instructions (docs/decisions/zod-mini-in-functions.md).',
};

/** Files under `files` may not import from the named shared/ layers (which sit above them) or from outside shared/. */
function layer(files, forbidden, why) {
  const patterns = [{ regex: '(^|/)(functions|lib|bench|test|bin)/', message: `Upward import: ${why}.` }, ZOD_ONLY_THROUGH_SHARED_SCHEMAS];
  if (forbidden.length > 0) patterns.push({ regex: `(^|/)(${forbidden.join('|')})/`, message: `Upward import: ${why}.` });
  return [{ files: [files], rules: { 'no-restricted-imports': ['error', { patterns }] } }];
}

export default tseslint.config(
  { ignores: ['node_modules/**', 'cdk.out/**', '.data/**', 'bench/.tmp/**', 'coverage/**', 'sdk/typescript/dist/**', 'sdk/typescript/src/generated/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ['eslint.config.js', 'sdk/typescript/bin/*.js'] }, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  // Layers only point down: functions → shared/http → shared/domain → shared/data → shared/schemas →
  // shared/*.ts (core). Handlers load only their own route; event workers never load HTTP code; nothing
  // a function bundles reaches into the CDK app, the local runtime, tests or benchmarks.
  { files: ['shared/**/*.ts', 'functions/**/*.ts'], rules: { 'no-restricted-imports': ['error', { patterns: [ZOD_ONLY_THROUGH_SHARED_SCHEMAS] }] } },
  ...layer('shared/*.ts', ['schemas', 'data', 'domain', 'http', 'openapi'], 'the core (shared/*.ts) is the bottom layer'),
  ...layer('shared/schemas/**', ['data', 'domain', 'http', 'openapi'], 'schemas describe records; they do not read or write them'),
  ...layer('shared/data/**', ['domain', 'http', 'openapi'], 'the data layer knows entities and the table, not use cases or HTTP'),
  ...layer('shared/domain/**', ['http', 'openapi'], 'domain rules are transport-neutral: throw a Failure (shared/failures.ts), never an HTTP error'),
  ...layer('shared/http/**', ['openapi'], 'the OpenAPI document is built at synth and start, never in a function'),
  ...layer('shared/openapi/**', [], 'the OpenAPI builder takes the route list as a parameter'),
  ...layer('functions/**/*.worker.ts', ['http'], 'event workers must not load the HTTP middleware stack'),
  {
    files: ['functions/**/*.ts'],
    ignores: ['functions/registry.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '(^|/)registry(\\.generated)?(\\.ts)?$', message: 'A handler imports only its own route module (./<action>.route.ts); the index of routes, tools and workers is for CDK, the local runtime and the documents.' },
            { regex: '(^|/)(lib|bench|test|bin)/', message: 'Functions must not reach into the CDK app, the local runtime, tests or benchmarks.' },
            { regex: '(^|/)shared/openapi/', message: 'The OpenAPI document is built at synth and start, never in a function.' },
            ZOD_ONLY_THROUGH_SHARED_SCHEMAS,
          ],
        },
      ],
    },
  },
  {
    // The MCP tool table reads the tools from the generated index: the routes that declare one, and the compositions.
    files: ['functions/mcp/tool-table.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '(^|/)registry(\\.ts)?$', message: 'The tool table reads the generated index (registry.generated.ts), not the views of the CDK app and the documents.' },
            { regex: '(^|/)(lib|bench|test|bin)/', message: 'Functions must not reach into the CDK app, the local runtime, tests or benchmarks.' },
            { regex: '(^|/)shared/openapi/', message: 'The OpenAPI document is built at synth and start, never in a function.' },
            ZOD_ONLY_THROUGH_SHARED_SCHEMAS,
          ],
        },
      ],
    },
  },
  {
    files: ['functions/**/*.route.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ZOD_ONLY_THROUGH_SHARED_SCHEMAS,
            {
              regex: '^(?!.*(shared/http/route-table|shared/http/route-states|shared/schemas/|mcp/tool-declaration)).*',
              message:
                'A route module declares its row and its MCP tool: it may import shared/http/route-table.ts, shared/http/route-states.ts (what the state machines say), shared/schemas (zod from shared/schemas/zod.ts) and functions/mcp/tool-declaration.ts only.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['functions/**/*.worker-row.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ZOD_ONLY_THROUGH_SHARED_SCHEMAS,
            {
              regex: '^(?!.*shared/(workers|resources)\\.ts$).*',
              message: 'A worker row is data for the CDK stack and the local runtime: it may import shared/workers.ts and shared/resources.ts only, never its handler.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['bin/**', 'bench/**', 'lib/local/**', 'test/**', 'sdk/typescript/test/**'],
    rules: { 'no-console': 'off' },
  },
  {
    // Tests inspect arbitrary JSON bodies; typing every one of them would add noise, not safety.
    files: ['test/**', 'sdk/typescript/test/**'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  { files: ['eslint.config.js', 'sdk/typescript/bin/*.js'], ...tseslint.configs.disableTypeChecked },
);
