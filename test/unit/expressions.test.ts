// The condition builder: what it renders is DynamoDB's condition grammar (parsed here by the grammar's
// own precedence: NOT, then AND, then OR; parentheses balanced), every placeholder it writes is defined
// and every one it defines is used (DynamoDB refuses either mistake), an attribute never shares a
// placeholder with another, and the rendered text means what the builder's tree means.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Placeholders, where, type Condition } from '../../shared/data/expressions.ts';

type Value = number | string;
type Item = Record<string, Value>;

// ---- A reader of DynamoDB's condition grammar -----------------------------------------------------

type Ast =
  | { kind: 'cmp'; op: string; left: string; right: string }
  | { kind: 'between'; operand: string; low: string; high: string }
  | { kind: 'in'; operand: string; list: string[] }
  | { kind: 'fn'; name: string; args: string[] }
  | { kind: 'and' | 'or'; left: Ast; right: Ast }
  | { kind: 'not'; child: Ast };

const TOKEN = /\s*(#[A-Za-z0-9_]+|:[A-Za-z0-9_]+|<>|<=|>=|[=<>(),]|[A-Za-z_]+)/y;

function tokens(text: string): string[] {
  const out: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    const start = TOKEN.lastIndex;
    const match = TOKEN.exec(text);
    if (!match) throw new Error(`Unreadable at ${start}: ${text.slice(start)}`);
    out.push(match[1] as string);
  }
  return out;
}

function parse(text: string): Ast {
  const list = tokens(text);
  let at = 0;
  const peek = () => list[at];
  const take = (expected?: string) => {
    const token = list[at++];
    if (token === undefined || (expected !== undefined && token !== expected)) throw new Error(`Expected ${expected ?? 'a token'}, found ${token} in ${text}`);
    return token;
  };
  const operand = () => {
    const token = take();
    if (!/^[#:]/.test(token)) throw new Error(`Expected an operand, found ${token} in ${text}`);
    return token;
  };
  const or = (): Ast => {
    let left = and();
    while (peek() === 'OR') {
      take();
      left = { kind: 'or', left, right: and() };
    }
    return left;
  };
  const and = (): Ast => {
    let left = not();
    while (peek() === 'AND') {
      take();
      left = { kind: 'and', left, right: not() };
    }
    return left;
  };
  const not = (): Ast => {
    if (peek() === 'NOT') {
      take();
      return { kind: 'not', child: not() };
    }
    return primary();
  };
  const primary = (): Ast => {
    const token = peek();
    if (token === '(') {
      take();
      const inner = or();
      take(')');
      return inner;
    }
    if (token && /^(attribute_exists|attribute_not_exists|begins_with|contains)$/.test(token)) {
      take();
      take('(');
      const args = [operand()];
      while (peek() === ',') {
        take();
        args.push(operand());
      }
      take(')');
      return { kind: 'fn', name: token, args };
    }
    const left = operand();
    const op = take();
    if (op === 'BETWEEN') {
      const low = operand();
      take('AND');
      return { kind: 'between', operand: left, low, high: operand() };
    }
    if (op === 'IN') {
      take('(');
      const values = [operand()];
      while (peek() === ',') {
        take();
        values.push(operand());
      }
      take(')');
      return { kind: 'in', operand: left, list: values };
    }
    if (!['=', '<>', '<', '<=', '>', '>='].includes(op)) throw new Error(`Expected a comparator, found ${op} in ${text}`);
    return { kind: 'cmp', op, left, right: operand() };
  };
  const ast = or();
  if (at !== list.length) throw new Error(`Trailing tokens in ${text}: ${list.slice(at).join(' ')}`);
  return ast;
}

// ---- Meaning: of the parsed text, and of the builder's tree ---------------------------------------

const sameType = (a: Value | undefined, b: Value): a is Value => a !== undefined && typeof a === typeof b;
function compare(op: string, a: Value | undefined, b: Value): boolean {
  if (!sameType(a, b)) return false;
  switch (op) {
    case '=': return a === b;
    case '<>': return a !== b;
    case '<': return a < b;
    case '<=': return a <= b;
    case '>': return a > b;
    default: return a >= b;
  }
}
const startsWith = (a: Value | undefined, b: Value) => typeof a === 'string' && typeof b === 'string' && a.startsWith(b);
const includes = (a: Value | undefined, b: Value) => typeof a === 'string' && typeof b === 'string' && a.includes(b);

function evaluateText(ast: Ast, item: Item, names: Record<string, string>, values: Record<string, unknown>): boolean {
  const attribute = (token: string) => item[names[token] as string];
  const value = (token: string) => values[token] as Value;
  switch (ast.kind) {
    case 'cmp': return compare(ast.op, attribute(ast.left), value(ast.right));
    case 'between': return compare('>=', attribute(ast.operand), value(ast.low)) && compare('<=', attribute(ast.operand), value(ast.high));
    case 'in': return ast.list.some((token) => compare('=', attribute(ast.operand), value(token)));
    case 'fn': {
      const [first, second] = ast.args as [string, string];
      if (ast.name === 'attribute_exists') return attribute(first) !== undefined;
      if (ast.name === 'attribute_not_exists') return attribute(first) === undefined;
      if (ast.name === 'begins_with') return startsWith(attribute(first), value(second));
      return includes(attribute(first), value(second));
    }
    case 'and': return evaluateText(ast.left, item, names, values) && evaluateText(ast.right, item, names, values);
    case 'or': return evaluateText(ast.left, item, names, values) || evaluateText(ast.right, item, names, values);
    case 'not': return !evaluateText(ast.child, item, names, values);
  }
}

function evaluateTree(node: Condition['node'], item: Item): boolean {
  switch (node.kind) {
    case 'compare': return compare(node.comparator, item[node.name], node.value as Value);
    case 'between': return compare('>=', item[node.name], node.low as Value) && compare('<=', item[node.name], node.high as Value);
    case 'in': return node.values.some((value) => compare('=', item[node.name], value as Value));
    case 'exists': return item[node.name] !== undefined;
    case 'notExists': return item[node.name] === undefined;
    case 'beginsWith': return startsWith(item[node.name], node.value as Value);
    case 'contains': return includes(item[node.name], node.value as Value);
    case 'and': return node.children.every((child) => evaluateTree(child, item));
    case 'or': return node.children.some((child) => evaluateTree(child, item));
    case 'not': return !evaluateTree(node.child, item);
  }
}

// ---- Random conditions --------------------------------------------------------------------------

// Reserved words, characters that would break an expression, and strings that look like placeholders.
const NAMES = ['status', 'count', 'a.b', '#n0', ':v0', 'pk', 'size', 'x y', 'leaseUntil'] as const;
const name = fc.constantFrom(...NAMES);
const value: fc.Arbitrary<Value> = fc.oneof(fc.integer({ min: 0, max: 3 }), fc.constantFrom('', 'a', 'ab', 'b', ':v1', '#n1', ') OR ('));

const { condition } = fc.letrec<{ condition: Condition; leaf: Condition }>((tie) => ({
  leaf: fc.oneof(
    fc.tuple(fc.constantFrom('eq', 'ne', 'lt', 'le', 'gt', 'ge' as const), name, value).map(([op, n, v]) => where[op](n, v)),
    fc.tuple(name, value, value).map(([n, low, high]) => where.between(n, low, high)),
    fc.tuple(name, fc.array(value, { minLength: 1, maxLength: 4 })).map(([n, vs]) => where.in(n, vs)),
    name.map((n) => where.exists(n)),
    name.map((n) => where.notExists(n)),
    fc.tuple(name, fc.constantFrom('', 'a', 'b')).map(([n, prefix]) => where.beginsWith(n, prefix)),
    fc.tuple(name, fc.constantFrom('a', 'b')).map(([n, part]) => where.contains(n, part)),
  ),
  condition: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    tie('leaf'),
    fc.array(tie('condition'), { minLength: 1, maxLength: 3 }).map((children) => where.and(...children)),
    fc.array(tie('condition'), { minLength: 1, maxLength: 3 }).map((children) => where.or(...children)),
    tie('condition').map((child) => where.not(child)),
  ),
}));
const item: fc.Arbitrary<Item> = fc.dictionary(name, value, { maxKeys: NAMES.length });

function placeholdersIn(text: string): { names: Set<string>; values: Set<string> } {
  const list = tokens(text);
  return { names: new Set(list.filter((token) => token.startsWith('#'))), values: new Set(list.filter((token) => token.startsWith(':'))) };
}

describe('the condition builder', () => {
  it('renders the DynamoDB grammar with placeholders only, defines exactly what it uses, and means what was built', () => {
    fc.assert(
      fc.property(fc.array(condition, { minLength: 1, maxLength: 3 }), fc.array(item, { minLength: 1, maxLength: 5 }), (conditions, items) => {
        // Several expressions of one request (as a key condition, a filter and an update share one).
        const placeholders = new Placeholders();
        placeholders.name('status');
        placeholders.value('set by an update');
        const texts = conditions.map((built) => placeholders.condition(built) as string);
        const { ExpressionAttributeNames: names = {}, ExpressionAttributeValues: values = {} } = placeholders.attributes();

        const used = texts.map(placeholdersIn);
        const usedNames = new Set(['#n0', ...used.flatMap((each) => [...each.names])]);
        const usedValues = new Set([':v0', ...used.flatMap((each) => [...each.values])]);
        expect(new Set(Object.keys(names))).toEqual(usedNames);
        expect(new Set(Object.keys(values))).toEqual(usedValues);
        // One placeholder per attribute: distinct attributes never share one, and no attribute has two.
        expect(new Set(Object.values(names)).size).toBe(Object.keys(names).length);
        for (const [index, text] of texts.entries()) {
          // No attribute name or value text leaks into the expression: only placeholders, keywords and punctuation.
          for (const token of tokens(text)) expect(token).toMatch(/^(#n\d+|:v\d+|AND|OR|NOT|BETWEEN|IN|attribute_exists|attribute_not_exists|begins_with|contains|<>|<=|>=|[=<>(),])$/);
          const ast = parse(text);
          for (const one of items) expect(evaluateText(ast, one, names, values)).toBe(evaluateTree((conditions[index] as Condition).node, one));
        }
      }),
      { numRuns: 500 },
    );
  });

  it('writes conditions as DynamoDB reads them, compound operands in parentheses', () => {
    const { and, eq, exists, gt, in: isIn, le, lt, not, notExists, or } = where;
    const render = (built: Condition) => {
      const placeholders = new Placeholders();
      return { text: placeholders.condition(built), ...placeholders.attributes() };
    };
    expect(render(notExists('pk'))).toEqual({ text: 'attribute_not_exists(#n0)', ExpressionAttributeNames: { '#n0': 'pk' } });
    expect(render(and(eq('status', 'open'), gt('expiresAt', '2026')))).toEqual({
      text: '#n0 = :v0 AND #n1 > :v1',
      ExpressionAttributeNames: { '#n0': 'status', '#n1': 'expiresAt' },
      ExpressionAttributeValues: { ':v0': 'open', ':v1': '2026' },
    });
    expect(render(or(eq('status', 'expired'), and(eq('status', 'open'), le('expiresAt', 'now')))).text).toBe('#n0 = :v0 OR (#n0 = :v1 AND #n1 <= :v2)');
    expect(render(and(exists('pk'), not(isIn('status', ['queued', 'processing'])))).text).toBe('attribute_exists(#n0) AND (NOT #n1 IN (:v0, :v1))');
    // and() inside and() is one AND; undefined operands are left out, and one operand is itself.
    expect(render(and(eq('a', 1), and(eq('b', 2), undefined, lt('c', 3)))).text).toBe('#n0 = :v0 AND #n1 = :v1 AND #n2 < :v2');
    expect(render(and(undefined, eq('a', 1))).text).toBe('#n0 = :v0');
  });

  it('refuses an empty and()/or() and an IN of no or more than 100 values', () => {
    expect(() => where.and()).toThrow(/at least one/);
    expect(() => where.or(undefined)).toThrow(/at least one/);
    expect(() => where.in('status', [])).toThrow(/1 to 100/);
    expect(() => where.in('status', Array.from({ length: 101 }, (_, index) => index))).toThrow(/1 to 100/);
    expect(() => where.in('status', Array.from({ length: 100 }, (_, index) => index))).not.toThrow();
  });

  it('renders no condition as none, and leaves the attribute maps out when empty', () => {
    const placeholders = new Placeholders();
    expect(placeholders.condition(undefined)).toBeUndefined();
    expect(placeholders.attributes()).toEqual({});
  });
});
