import { createHash } from 'node:crypto';
import { RoteError } from '../errors/roteError.js';
import type { BoundParams } from './params.js';
import { hideSecrets, isTemplate, missingNames, templatize } from './template.js';
import { normalizeUrl } from './url.js';

export type TaskIdentity = { key: string; template: string; tags: string[]; startUrl: string };

/**
 * The cache key of a task: its text with parameter values replaced by their names, its tags
 * and the normalized start URL. "select the 2nd option" and "select the 3rd option" differ
 * unless the ordinal is a parameter.
 */
export function taskIdentity(task: string, params: BoundParams, tags: readonly string[], startUrl: string, where: string): TaskIdentity {
  let template: string;
  if (isTemplate(task)) {
    const missing = missingNames(task, params);
    if (missing.length > 0) {
      throw new RoteError(
        'invalid-argument',
        `${where}: the task names ${missing.map((name) => `{{${name}}}`).join(', ')}, but params has no ${missing.join(', ')} (given: ${Object.keys(params).join(', ') || 'none'})`,
      );
    }
    // A secret value in the task text is never part of the key (nor stored with the task).
    template = hideSecrets(task, params).template;
  } else {
    template = templatize(task, params).template;
  }
  const sortedTags = [...new Set(tags)].sort();
  const normalizedStart = normalizeUrl(startUrl, params);
  const key = createHash('sha256').update(JSON.stringify([template.trim(), sortedTags, normalizedStart])).digest('hex').slice(0, 32);
  return { key, template, tags: sortedTags, startUrl: normalizedStart };
}
