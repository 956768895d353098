import type { Page } from 'playwright';
import { COUNTABLE_ROLES, type Fingerprint } from './fingerprint.js';
import type { Box } from './geometry.js';
import { remainingMs, type Deadline } from '../progress/deadline.js';
import { foldedNamePattern } from '../params/fold.js';

type AriaRole = Parameters<Page['getByRole']>[0];

function roleLocator(page: Page, fingerprint: Fingerprint, folded = false) {
  if (!COUNTABLE_ROLES.has(fingerprint.role) || fingerprint.name === '') return undefined;
  const name = folded ? foldedNamePattern(fingerprint.name) : fingerprint.name;
  return page.getByRole(fingerprint.role as AriaRole, { name, exact: true });
}

/**
 * How many visible elements share this role and name; null when the role is not one
 * Playwright can query or the name is empty (uniqueness cannot be shown then).
 */
export async function countMatching(page: Page, fingerprint: Fingerprint): Promise<number | null> {
  const locator = roleLocator(page, fingerprint);
  if (!locator) return null;
  try {
    return await locator.count();
  } catch {
    return null;
  }
}

/**
 * The box of the one element with this role and name, when exactly one is visible. `folded`
 * matches the name case and punctuation aside (a name that came from a parameter).
 */
export async function locateUnique(page: Page, fingerprint: Fingerprint, folded: boolean, deadline: Deadline): Promise<Box | null> {
  const locator = roleLocator(page, fingerprint, folded);
  if (!locator) return null;
  try {
    if ((await locator.count()) !== 1) return null;
    // The element was just counted: a box that takes long means it is going away, not coming.
    return await locator.boundingBox({ timeout: Math.max(1, remainingMs(deadline, 1000)) });
  } catch {
    return null;
  }
}
