// A tool's result schema: the route's `data`, as one object (MCP requires `type: "object"` at the root
// of a tool's outputSchema, and the client checks every structuredContent against it).
import * as z from '../../shared/schemas/zod.ts';
import type { RouteWithDocument } from '../../shared/http/route-table.ts';

const isObject = (schema: z.core.$ZodType): schema is z.ZodMiniObject => schema instanceof z.ZodMiniObject;
const isUnion = (schema: z.core.$ZodType): schema is z.ZodMiniUnion => schema instanceof z.ZodMiniUnion;
const isArray = (schema: z.core.$ZodType): schema is z.ZodMiniArray => schema instanceof z.ZodMiniArray;

/**
 * The route's `data` schema as one object, as MCP requires of a tool's result: a union of objects (a
 * product as its seller or anyone else sees it) becomes one object with the fields of either.
 */
export function dataOf(route: RouteWithDocument): z.ZodMiniObject {
  const schema = route.response.schema;
  // A copy without the component name, so that the JSON Schema's root is the object itself (MCP
  // requires `type: "object"` there), not a reference to a named definition.
  if (isObject(schema)) return z.object(schema.shape);
  if (isUnion(schema) && schema.def.options.every(isObject)) {
    const [first, ...rest] = schema.def.options;
    return rest.reduce(eitherObject, first as z.ZodMiniObject);
  }
  throw new Error(`${route.operationId} answers ${schema.def.type}, which a tool result cannot be`);
}

/** Either object's fields: one only one of them has is optional; one they type differently is either type. */
export function eitherObject(first: z.ZodMiniObject, second: z.ZodMiniObject): z.ZodMiniObject {
  const shape: Record<string, z.ZodMiniType> = {};
  for (const name of new Set([...Object.keys(first.shape), ...Object.keys(second.shape)])) {
    const a = first.shape[name] as z.ZodMiniType | undefined;
    const b = second.shape[name] as z.ZodMiniType | undefined;
    if (a && b) shape[name] = a === b ? a : eitherField(a, b);
    else shape[name] = z.optional((a ?? b)!);
  }
  return z.object(shape);
}

/** Two types of one field: arrays of either item, objects merged, anything else a union. */
function eitherField(a: z.ZodMiniType, b: z.ZodMiniType): z.ZodMiniType {
  if (isArray(a) && isArray(b)) return z.array(eitherField(a.def.element as z.ZodMiniType, b.def.element as z.ZodMiniType));
  if (isObject(a) && isObject(b)) return eitherObject(a, b);
  return z.union([a, b]);
}
