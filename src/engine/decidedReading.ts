import type { BoundParams } from '../params/boundParams.js';
import { applyFormats, parseFormatSpec } from '../params/format.js';
import type { TrajectoryNode } from '../trajectory/trajectoryNode.js';

/**
 * The text a step kept literal for one parameter read more than one way (NodeState.readings)
 * types with this run's value, when the value decides: only one reading can read it (a day over
 * 12), or every reading renders it alike. Undefined when it does not.
 */
export function decidedReading(node: TrajectoryNode, params: BoundParams): string | undefined {
  const readings = node.state.readings;
  const value = readings ? params.get(readings.param) : undefined;
  if (!readings || value === undefined || params.isSecret(readings.param) || Object.keys(node.state.literalOf ?? {}).length !== 1) return undefined;
  const rendered = new Set<string>();
  for (const spec of readings.formats) {
    try {
      const text = applyFormats(value, parseFormatSpec(spec));
      if (text !== null) rendered.add(text);
    } catch {
      return undefined;
    }
  }
  return rendered.size === 1 ? [...rendered][0] : undefined;
}
