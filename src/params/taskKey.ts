import { createHash } from 'node:crypto';
import { RoteError } from '../errors/roteError.js';
import type { BoundParams } from './boundParams.js';
import { hideSecrets, isTemplate, missingNames } from './template.js';
import { taskTemplate } from './taskTemplate.js';
import { normalizeUrl } from './url.js';

export type TaskIdentity = {
  key: string;
  template: string;
  tags: string[];
  startUrl: string;
  /** Salts the hashes of recorded values: the task without its origin, so a recording imported onto another host keeps them. */
  valueSalt: string;
};

/**
 * The cache key of a task: its text with whole parameter values replaced by their names (see
 * taskTemplate), its tags and the normalized start URL. "select the 2nd option" and "select the 3rd option" differ
 * unless the ordinal is a parameter.
 */
export function taskIdentity(task: string, params: BoundParams, tags: readonly string[], startUrl: string, where: string): TaskIdentity {
  let template: string;
  if (isTemplate(task)) {
    const missing = missingNames(task, params);
    if (missing.length > 0) {
      throw new RoteError(
        'invalid-argument',
        `${where}: the task names ${missing.map((name) => `{{${name}}}`).join(', ')}, but params has no ${missing.join(', ')} (given: ${params.names().join(', ') || 'none'})`,
      );
    }
    // A secret value in the task text is never part of the key (nor stored with the task).
    template = hideSecrets(task, params).template;
  } else {
    template = taskTemplate(task, params);
  }
  const sortedTags = sortTags(tags);
  const normalizedStart = normalizeUrl(startUrl, params);
  return { key: taskKeyOf(template, sortedTags, normalizedStart), template, tags: sortedTags, startUrl: normalizedStart, valueSalt: valueSaltOf(template, sortedTags, normalizedStart) };
}

/**
 * The key of a task already in its stored form (a template, tags, a normalized start URL): what
 * `taskIdentity` computes for a run, so an imported trajectory is found by a later run.
 */
export function taskKeyOf(template: string, tags: readonly string[], normalizedStartUrl: string): string {
  return createHash('sha256').update(JSON.stringify([template.trim(), sortTags(tags), normalizedStartUrl])).digest('hex').slice(0, 32);
}

/**
 * What recorded value hashes are keyed by: the task's template, tags and start path, without the
 * origin (staging and production, or a test app on a random port, are the same task's values).
 */
export function valueSaltOf(template: string, tags: readonly string[], normalizedStartUrl: string): string {
  let path = normalizedStartUrl;
  try {
    const url = new URL(normalizedStartUrl);
    path = `${url.pathname}${url.search}`;
  } catch {
    // Not an absolute URL (about:blank, a relative one): used as it is.
  }
  return createHash('sha256').update(JSON.stringify(['values', template.trim(), sortTags(tags), path])).digest('hex').slice(0, 32);
}

function sortTags(tags: readonly string[]): string[] {
  return [...new Set(tags)].sort();
}
