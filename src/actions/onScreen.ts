import { actionPoint, type Action } from './action.js';

/**
 * Why an action cannot be done where it points: a point outside the viewport (CSS pixels) lands
 * on nothing a person could see, or on whatever Playwright scrolls there. Undefined when it is on
 * the screen, or points nowhere (typing, keys, a goto). A drag is checked at every point of its path.
 */
export function offScreen(action: Action, viewport: { width: number; height: number }): string | undefined {
  const points = action.type === 'drag' ? action.path : [actionPoint(action)].filter((point) => point !== undefined);
  const outside = points.find((point) => point.x < 0 || point.y < 0 || point.x >= viewport.width || point.y >= viewport.height);
  if (!outside) return undefined;
  return `the ${action.type} at (${Math.round(outside.x)}, ${Math.round(outside.y)}) is outside the ${viewport.width}x${viewport.height} screen`;
}
