import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { invalidFields } from '../../shared/failures.ts';
import { dotPath, zodProblems } from '../../shared/schemas/problems.ts';
import { RegisterAgentRequest } from '../../shared/schemas/agents.ts';

describe('validation details', () => {
  it('give dot paths, name unknown fields and say what is required', () => {
    const result = RegisterAgentRequest.safeParse({ name: 'A', role: 'buyer', organization: { legalName: 'L', extra: 1 }, nickname: 'x' });
    expect(result.success).toBe(false);
    const details = zodProblems(result.error?.issues ?? []);
    expect(details).toEqual(
      expect.arrayContaining([
        { path: 'organization.country', message: 'Required (string)' },
        { path: 'organization.extra', message: 'Unknown field; remove it' },
        { path: 'nickname', message: 'Unknown field; remove it' },
        { path: 'contactEmail', message: 'Required (string)' },
      ]),
    );
  });

  it('index into arrays', () => {
    const result = z.strictObject({ events: z.array(z.enum(['a', 'b'])) }).safeParse({ events: ['a', 'c'] });
    expect(zodProblems(result.error?.issues ?? [])).toEqual([{ path: 'events.1', message: expect.any(String) }]);
  });

  it('quote a key that a dot path would make ambiguous, and only such a key', () => {
    const result = RegisterAgentRequest.safeParse({ name: 'A', role: 'buyer', contactEmail: 'a@example.com', organization: { legalName: 'L', country: 'DE', 'tax.id': 1 }, 'organization.country': 'FR', '': 0, 'has space': 1, 'kebab-case': 2 });
    expect(result.success).toBe(false);
    expect(zodProblems(result.error?.issues ?? []).map((problem) => problem.path).sort()).toEqual(['["organization.country"]', '[""]', '["has space"]', 'kebab-case', 'organization["tax.id"]'].sort());
    expect(dotPath(['attributes', 'a.b', 0, 'c'])).toBe('attributes["a.b"].0.c');
    expect(dotPath(['products', 3, 'price', 'amount'])).toBe('products.3.price.amount');
  });

  it('summarise the first problem and the count in the message', () => {
    const error = invalidFields([
      { path: 'a', message: 'bad' },
      { path: 'b', message: 'worse' },
    ]);
    expect(error.kind).toBe('invalid');
    expect(error.message).toBe('Request validation failed — a: bad (and 1 more; see details)');
  });
});
