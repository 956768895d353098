import type { Format, Inference, ParamKind } from '../format.js';
import { applyFormats } from './apply.js';
import { candidateChains, chainsFromText, familyOf, PROBES, unpadded } from './candidates.js';
import { formatSpec } from './spec.js';

/** How `text` (typed, whole) renders `value`: one reading, several that disagree, or none. */
export function inferFormat(value: string, text: string, kind?: ParamKind): Inference {
  if (text === value) return { kind: 'match', formats: [] };
  const chains = [...candidateChains(value, kind), ...chainsFromText(value, text, kind)];
  return classify(value, text, chains.filter((chain) => applyFormats(value, chain) === text));
}

/**
 * Every distinct rendering of `value` at least 3 characters long, longest first (so a caller
 * searching a longer text tries "April 1, 1990" before "1990"), identity included.
 */
export function renderingsOf(value: string, kind?: ParamKind): { text: string; inference: Inference }[] {
  const byText = new Map<string, Format[][]>([[value, [[]]]]);
  for (const chain of candidateChains(value, kind)) {
    const text = applyFormats(value, chain);
    if (text === null) continue;
    byText.set(text, [...(byText.get(text) ?? []), chain]);
  }
  return [...byText]
    .filter(([text]) => text.length >= 3)
    .map(([text, chains]) => ({ text, inference: classify(value, text, chains) }))
    .filter((rendering) => rendering.inference.kind !== 'none')
    .sort((a, b) => b.text.length - a.text.length);
}

/**
 * Decides among the chains that all render `value` as `text`. Chains that render every probe
 * alike are one reading; readings that differ only in zero padding are one (the padded one);
 * anything else is ambiguous, since replaying the wrong reading would type a wrong value.
 */
function classify(value: string, text: string, matching: readonly Format[][]): Inference {
  if (text === value) return { kind: 'match', formats: [] };
  const specs = new Set(matching.map((chain) => formatSpec(chain)));
  // A case conversion is only a reading when the text needed it: 'Smith' is word:-1, not word:-1|title.
  const needed = matching.filter((chain) => {
    const last = chain[chain.length - 1];
    return !(chain.length > 1 && last?.kind === 'case' && specs.has(formatSpec(chain.slice(0, -1))));
  });
  const readings = new Map<string, Format[]>();
  for (const chain of needed) {
    const family = familyOf(chain);
    // Probes are canonical, which a reading passes through unread: readings that differ (month
    // or day first) are told apart by the reading itself, never merged because they render alike.
    const reading = chain[0]?.kind === 'from' ? formatSpec([chain[0]]) : '';
    const key = `${family}:${reading}:${JSON.stringify(PROBES[family].map((probe) => applyFormats(probe, chain)))}`;
    if (!readings.has(key)) readings.set(key, chain);
  }
  const distinct = canonicalFirst([...readings.values()]);
  if (distinct.length === 0) return { kind: 'none' };
  if (distinct.length === 1) return { kind: 'match', formats: distinct[0]! };
  const shapes = new Set(distinct.map((chain) => formatSpec(unpadded(chain))));
  if (shapes.size === 1) {
    const padded = distinct.reduce((best, chain) => (formatSpec(chain).length > formatSpec(best).length ? chain : best));
    return { kind: 'match', formats: padded };
  }
  return { kind: 'ambiguous', readings: distinct };
}

/**
 * A text that is the canonical form of the value read one way (2011-10-11, 20:04, 1234.50: what
 * a date, time or number input holds) is that reading alone: the renderings that happen to
 * agree with it on this value (HH:mm, 0.00) are not other readings of the same evidence.
 */
function canonicalFirst(readings: readonly Format[][]): Format[][] {
  const bare = new Set(readings.filter((chain) => chain.length === 1 && chain[0]!.kind === 'from').map((chain) => formatSpec(chain)));
  if (bare.size === 0) return [...readings];
  return readings.filter((chain) => chain[0]?.kind !== 'from' || chain.length === 1 || !bare.has(formatSpec([chain[0]])));
}
