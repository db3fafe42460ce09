// Expressions of DynamoDB requests. A condition (of a conditional write, a query's filter or its key)
// is a value built with eq, and, notExists … (as ElectroDB's where() builds them), not a string: it is
// rendered once per request by the request's Placeholders, which put every attribute name and value
// behind a placeholder numbered for that request, so that two conditions (or a condition and an
// update expression) never collide and no value is ever spliced into the text.

/** The primary key's attributes, which every item has but no entity schema names. */
type KeyAttribute = 'pk' | 'sk';

type Comparator = '=' | '<>' | '<' | '<=' | '>' | '>=';

type Node =
  | { kind: 'compare'; comparator: Comparator; name: string; value: unknown }
  | { kind: 'between'; name: string; low: unknown; high: unknown }
  | { kind: 'in'; name: string; values: readonly unknown[] }
  | { kind: 'exists' | 'notExists'; name: string }
  | { kind: 'beginsWith' | 'contains'; name: string; value: unknown }
  | { kind: 'and' | 'or'; children: readonly Node[] }
  | { kind: 'not'; child: Node };

/** A condition, built with a ConditionBuilder; rendered by Placeholders.condition(). */
export class Condition {
  /** The condition's tree (read by the renderer and by tests, never built by hand). */
  readonly node: Node;
  constructor(node: Node) {
    this.node = node;
  }
}

/** IN takes at most 100 operands. */
const IN_LIMIT = 100;

/** Attribute names a builder accepts: the item's attributes (typed builders) and the primary key's. */
type Name<T> = (Extract<keyof T, string> | KeyAttribute) & string;
/** The value an attribute is compared with: the attribute's own type (a missing attribute is notExists()). */
type ValueOf<T, K> = K extends keyof T ? Exclude<T[K], undefined> : string;

export interface ConditionBuilder<T> {
  eq: <K extends Name<T>>(name: K, value: ValueOf<T, K>) => Condition;
  ne: <K extends Name<T>>(name: K, value: ValueOf<T, K>) => Condition;
  lt: <K extends Name<T>>(name: K, value: ValueOf<T, K>) => Condition;
  le: <K extends Name<T>>(name: K, value: ValueOf<T, K>) => Condition;
  gt: <K extends Name<T>>(name: K, value: ValueOf<T, K>) => Condition;
  ge: <K extends Name<T>>(name: K, value: ValueOf<T, K>) => Condition;
  /** low ≤ value ≤ high. */
  between: <K extends Name<T>>(name: K, low: ValueOf<T, K>, high: ValueOf<T, K>) => Condition;
  /** One of 1 to 100 values. */
  in: <K extends Name<T>>(name: K, values: readonly ValueOf<T, K>[]) => Condition;
  exists: (name: Name<T>) => Condition;
  notExists: (name: Name<T>) => Condition;
  beginsWith: (name: Name<T>, prefix: string) => Condition;
  /** A string attribute containing `part`, or a set or list containing the element `part`. */
  contains: (name: Name<T>, part: unknown) => Condition;
  /** All of the conditions (undefined ones are left out; at least one must remain). */
  and: (...conditions: readonly (Condition | undefined)[]) => Condition;
  /** Any of the conditions (undefined ones are left out; at least one must remain). */
  or: (...conditions: readonly (Condition | undefined)[]) => Condition;
  not: (condition: Condition) => Condition;
}

function group(kind: 'and' | 'or', conditions: readonly (Condition | undefined)[]): Condition {
  const children: Node[] = [];
  for (const condition of conditions) {
    if (!condition) continue;
    // and(a, and(b, c)) is a AND b AND c: the same condition, with fewer parentheses.
    if (condition.node.kind === kind) children.push(...condition.node.children);
    else children.push(condition.node);
  }
  if (children.length === 0) throw new Error(`${kind}() needs at least one condition`);
  return new Condition(children.length === 1 ? (children[0] as Node) : { kind, children });
}

const compare = (comparator: Comparator) => (name: string, value: unknown) => new Condition({ kind: 'compare', comparator, name, value });

const builder: ConditionBuilder<Record<string, unknown>> = {
  eq: compare('='),
  ne: compare('<>'),
  lt: compare('<'),
  le: compare('<='),
  gt: compare('>'),
  ge: compare('>='),
  between: (name, low, high) => new Condition({ kind: 'between', name, low, high }),
  in: (name, values) => {
    if (values.length === 0 || values.length > IN_LIMIT) throw new Error(`in() takes 1 to ${IN_LIMIT} values, not ${values.length}`);
    return new Condition({ kind: 'in', name, values: [...values] });
  },
  exists: (name) => new Condition({ kind: 'exists', name }),
  notExists: (name) => new Condition({ kind: 'notExists', name }),
  beginsWith: (name, prefix) => new Condition({ kind: 'beginsWith', name, value: prefix }),
  contains: (name, part) => new Condition({ kind: 'contains', name, value: part }),
  and: (...conditions) => group('and', conditions),
  or: (...conditions) => group('or', conditions),
  not: (condition) => new Condition({ kind: 'not', child: condition.node }),
};

/** A builder whose attribute names and values are checked against the item type T. */
export function conditionsOf<T>(): ConditionBuilder<T> {
  return builder as unknown as ConditionBuilder<T>;
}

/** The builder for conditions on any attribute (names are strings, values unchecked). */
export const where: ConditionBuilder<Record<string, unknown>> = builder;

/**
 * The ExpressionAttributeNames and ExpressionAttributeValues of one request: every expression of the
 * request (key condition, filter, condition, update) takes its placeholders from the same instance.
 * An attribute has one name placeholder per request; every value has its own.
 */
export class Placeholders {
  readonly names: Record<string, string> = {};
  readonly values: Record<string, unknown> = {};
  private readonly byAttribute = new Map<string, string>();
  private valueCount = 0;

  name(attribute: string): string {
    let placeholder = this.byAttribute.get(attribute);
    if (!placeholder) {
      placeholder = `#n${this.byAttribute.size}`;
      this.byAttribute.set(attribute, placeholder);
      this.names[placeholder] = attribute;
    }
    return placeholder;
  }

  value(value: unknown): string {
    const placeholder = `:v${this.valueCount++}`;
    this.values[placeholder] = value;
    return placeholder;
  }

  /** The condition as DynamoDB's expression grammar writes it (undefined for no condition). */
  condition(condition: Condition | undefined): string | undefined {
    return condition ? this.render(condition.node) : undefined;
  }

  /** The request's ExpressionAttributeNames/Values, each only when not empty (DynamoDB refuses empty maps). */
  attributes() {
    return {
      ...(this.byAttribute.size > 0 ? { ExpressionAttributeNames: this.names } : {}),
      ...(this.valueCount > 0 ? { ExpressionAttributeValues: this.values } : {}),
    };
  }

  private render(node: Node): string {
    switch (node.kind) {
      case 'compare':
        return `${this.name(node.name)} ${node.comparator} ${this.value(node.value)}`;
      case 'between':
        return `${this.name(node.name)} BETWEEN ${this.value(node.low)} AND ${this.value(node.high)}`;
      case 'in':
        return `${this.name(node.name)} IN (${node.values.map((value) => this.value(value)).join(', ')})`;
      case 'exists':
        return `attribute_exists(${this.name(node.name)})`;
      case 'notExists':
        return `attribute_not_exists(${this.name(node.name)})`;
      case 'beginsWith':
        return `begins_with(${this.name(node.name)}, ${this.value(node.value)})`;
      case 'contains':
        return `contains(${this.name(node.name)}, ${this.value(node.value)})`;
      case 'and':
      case 'or':
        return node.children.map((child) => this.operand(child)).join(node.kind === 'and' ? ' AND ' : ' OR ');
      case 'not':
        return `NOT ${this.operand(node.child)}`;
    }
  }

  /** A compound operand of AND, OR or NOT in parentheses, so that precedence never decides. */
  private operand(node: Node): string {
    const text = this.render(node);
    return node.kind === 'and' || node.kind === 'or' || node.kind === 'not' ? `(${text})` : text;
  }
}
