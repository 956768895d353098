export { Rote, DEFAULT_STORE, type RoteOptions } from './rote.js';
export type { RunOptions } from './engine/runOptions.js';
export type { RunResult, RunStatus, RunMode, StepResult, Divergence } from './engine/runResult.js';
export type { Agent, AgentAnswer, AgentDecision, AgentDone, Observation, StepKind } from './agent/agent.js';
export { actionSchema, parseAction, describeAction, type Action, type ActionType } from './actions/action.js';
export { RoteError, type RoteErrorCode } from './errors/roteError.js';
export { launchBrowser, CHROMIUM_ARGS, type LaunchBrowserOptions } from './browser/launch.js';
export { findChromium } from './browser/findChromium.js';
export { scriptedAgent } from './agent/scriptedAgent.js';
