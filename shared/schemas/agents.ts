// Agent records and requests (contract §2, §3 "Agent").
import * as z from './zod.ts';
import { CountryCode, TEXT_PATTERN_SINGLE_LINE, Timestamp, bounded, idOf, text, unlessMissing, ONLY_IF_OTHERWISE_VALID } from './common.ts';
import { CallingKey } from './keys.ts';

export const Role = z.annotated(z.enum(['buyer', 'seller']), { id: 'Role' });
export type Role = z.infer<typeof Role>;

export const Plan = z.annotated(z.enum(['free', 'pro', 'enterprise']), { id: 'Plan' });
export type Plan = z.infer<typeof Plan>;

const Name = text({ min: 1, max: 200 });

export const Organization = z.annotated(
  z.strictObject({ legalName: z.withMeta(Name, { example: 'Acme Manufacturing GmbH' }), country: CountryCode }),
  { id: 'Organization' },
);

const ContactEmail = z.annotated(
  z.email({ error: unlessMissing('Must be an e-mail address') }).check(z.maxLength(254)),
  { example: 'procurement@acme.example' },
);

export const RegisterAgentRequest = z.annotated(z.strictObject({
  name: z.withMeta(Name, { example: 'Acme procurement agent' }),
  role: Role,
  organization: Organization,
  contactEmail: ContactEmail,
}), { id: 'RegisterAgentRequest' });

export const UpdateAgentRequest = z.annotated(z.strictObject({
  name: z.optional(Name),
  organization: z.optional(Organization),
  contactEmail: z.optional(ContactEmail),
}).check(z.refine((body) => Object.keys(body).length > 0, { message: 'Send at least one of name, organization, contactEmail', ...ONLY_IF_OTHERWISE_VALID })), { id: 'UpdateAgentRequest' });

export const Agent = z.annotated(z.object({
  agentId: idOf('agent'),
  role: Role,
  name: bounded(200, { pattern: TEXT_PATTERN_SINGLE_LINE }),
  organization: Organization,
  contactEmail: bounded(254, { format: 'email' }),
  plan: Plan,
  environment: z.enum(['test', 'live']),
  apiKeyPrefix: bounded(12, { pattern: '^mk_(test|live)_[0-9A-Za-z]{4}$' }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
}), { id: 'Agent' });
export type Agent = z.infer<typeof Agent>;

/** The profile as GET /v1/agents/me shows it to the key that asks: the agent, and that key. */
export const AgentProfile = z.annotated(z.extend(Agent, {
  key: CallingKey,
}), { id: 'AgentProfile' });
export type AgentProfile = z.infer<typeof AgentProfile>;

export const AgentWithApiKey = z.annotated(z.extend(Agent, {
  apiKey: bounded(48, { pattern: '^mk_(test|live)_[0-9A-Za-z]{40}$' }),
}), { id: 'AgentWithApiKey' });
