// The params of the requests this server answers (initialize, tools/list, tools/call), checked as the
// MCP SDK's request schemas check them: with plain code, so that no schema is built for a request
// that fits (every request of a working client). A request that does not fit is answered as the SDK
// answered it: a JSON-RPC error -32603 (a ZodError carries no JSON-RPC code) whose message is zod's
// list of issues. That text comes from zod schemas shaped like the SDK's, built only then.
import * as z from '../../shared/schemas/zod.ts';

type JsonObject = Record<string, unknown>;
type Check = (value: unknown) => boolean;

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);
const isString: Check = (value) => typeof value === 'string';
const isBoolean: Check = (value) => typeof value === 'boolean';
/** The SDK's AssertObjectSchema: any object (arrays too) or function. */
const isObjectLike: Check = (value) => value !== null && (typeof value === 'object' || typeof value === 'function');
const absentOr = (value: unknown, check: Check): boolean => value === undefined || check(value);
const optional = (check: Check): Check => (value) => absentOr(value, check);
/** An object whose members all pass (zod's record leaves `__proto__` out). */
const recordOf = (check: Check): Check => (value) => isObject(value) && Object.entries(value).every(([name, member]) => name === '__proto__' || check(member));
const arrayOf = (check: Check): Check => (value) => Array.isArray(value) && value.every(check);
/** An object whose named members pass their checks (any other member is let through, as zod's objects strip or keep it). */
const objectWith = (checks: Readonly<Record<string, Check>>): Check => (value) => isObject(value) && Object.entries(checks).every(([name, check]) => check(value[name]));

const icon = objectWith({ src: isString, mimeType: optional(isString), sizes: optional(arrayOf(isString)), theme: optional((theme) => theme === 'light' || theme === 'dark') });
const implementation = objectWith({
  name: isString,
  title: optional(isString),
  icons: optional(arrayOf(icon)),
  version: isString,
  websiteUrl: optional(isString),
  description: optional(isString),
});
const clientCapabilities = objectWith({
  experimental: optional(recordOf(isObjectLike)),
  sampling: optional(objectWith({ context: optional(isObjectLike), tools: optional(isObjectLike) })),
  elicitation: optional(objectWith({ form: optional(objectWith({ applyDefaults: optional(isBoolean) })), url: optional(isObjectLike) })),
  roots: optional(objectWith({ listChanged: optional(isBoolean) })),
  tasks: optional(
    objectWith({
      list: optional(isObjectLike),
      cancel: optional(isObjectLike),
      requests: optional(objectWith({ sampling: optional(objectWith({ createMessage: optional(isObjectLike) })), elicitation: optional(objectWith({ create: optional(isObjectLike) })) })),
    }),
  ),
  extensions: optional(recordOf(isObjectLike)),
});
const task = objectWith({ ttl: optional((ttl) => typeof ttl === 'number') });

/** Each method's params, as the SDK's schemas take them (their `_meta` is checked with the message). */
const PARAMS: Readonly<Record<string, Check>> = {
  initialize: objectWith({ protocolVersion: isString, capabilities: clientCapabilities, clientInfo: implementation }),
  'tools/list': optional(objectWith({ cursor: optional(isString) })),
  'tools/call': objectWith({ task: optional(task), name: isString, arguments: optional(recordOf(() => true)) }),
};

/** Whether a request's params fit its method (a method without a check takes any). */
export function paramsFit(method: string, params: unknown): boolean {
  return !Object.hasOwn(PARAMS, method) || (PARAMS[method] as Check)(params);
}

/** Why a request's params do not fit its method, in the SDK's words; undefined when they fit. */
export function paramsProblem(request: { method: string; params?: unknown }): string | undefined {
  if (paramsFit(request.method, request.params)) return undefined;
  const result = (sdkSchemas()[request.method] as z.ZodMiniType).safeParse(request);
  // Not reached while the checks above agree with the schemas below (the unit test holds them to the SDK's).
  return result.success ? `Invalid params for ${request.method}` : result.error.message;
}

let built: Readonly<Record<string, z.ZodMiniType>> | undefined;

/** The SDK's request schemas, as far as their issues go: built on the first request that does not fit. */
function sdkSchemas(): Readonly<Record<string, z.ZodMiniType>> {
  return (built ??= buildSdkSchemas());
}

function buildSdkSchemas(): Record<string, z.ZodMiniType> {
  const objectLike = z.custom<object>((value) => isObjectLike(value));
  const Icon = z.object({ src: z.string(), mimeType: z.optional(z.string()), sizes: z.optional(z.array(z.string())), theme: z.optional(z.enum(['light', 'dark'])) });
  const Implementation = z.object({
    name: z.string(),
    title: z.optional(z.string()),
    icons: z.optional(z.array(Icon)),
    version: z.string(),
    websiteUrl: z.optional(z.string()),
    description: z.optional(z.string()),
  });
  const anyRecord = z.record(z.string(), z.unknown());
  // An empty elicitation capability means form elicitation (the SDK's preprocess).
  const Elicitation = z.pipe(
    z.transform((value: unknown) => (isObject(value) && Object.keys(value).length === 0 ? { form: {} } : value)),
    z.intersection(z.object({ form: z.optional(z.intersection(z.object({ applyDefaults: z.optional(z.boolean()) }), anyRecord)), url: z.optional(objectLike) }), z.optional(anyRecord)),
  );
  const ClientCapabilities = z.object({
    experimental: z.optional(z.record(z.string(), objectLike)),
    sampling: z.optional(z.object({ context: z.optional(objectLike), tools: z.optional(objectLike) })),
    elicitation: z.optional(Elicitation),
    roots: z.optional(z.object({ listChanged: z.optional(z.boolean()) })),
    tasks: z.optional(
      z.looseObject({
        list: z.optional(objectLike),
        cancel: z.optional(objectLike),
        requests: z.optional(z.looseObject({ sampling: z.optional(z.looseObject({ createMessage: z.optional(objectLike) })), elicitation: z.optional(z.looseObject({ create: z.optional(objectLike) })) })),
      }),
    ),
    extensions: z.optional(z.record(z.string(), objectLike)),
  });
  return {
    initialize: z.object({ params: z.object({ protocolVersion: z.string(), capabilities: ClientCapabilities, clientInfo: Implementation }) }),
    'tools/list': z.object({ params: z.optional(z.object({ cursor: z.optional(z.string()) })) }),
    'tools/call': z.object({ params: z.object({ task: z.optional(z.object({ ttl: z.optional(z.number()) })), name: z.string(), arguments: z.optional(anyRecord) }) }),
  };
}
