import type { Page } from 'playwright';
import type { Agent } from '../agent/agent.js';

/** The agents an unattended run may be given, by name: what a job, a schedule and a queued row store. */
export const AGENT_NAMES = ['none', 'demo', 'openai'] as const;
export type AgentName = (typeof AGENT_NAMES)[number];

/** A named agent, checked: `create` makes one for a row's page (undefined: the run has no agent). */
export type AgentFactory = { name: AgentName; description: string; create: ((page: Page) => Agent) | undefined };

/**
 * Makes the agent a job names, or throws a RoteError ('invalid-argument') naming what is missing.
 * The CLI gives the table (src/cli/agentByName.ts): the unattended runtime does not import the
 * demo agent or the OpenAI agent itself, and a program that embeds the scheduler gives its own.
 */
export type AgentCatalog = (name: AgentName, options: { model?: string }, env: NodeJS.ProcessEnv, where: string) => AgentFactory;
