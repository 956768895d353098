import type { BoundParams } from './boundParams.js';
import { formatSpec } from './format.js';
import { dateTimeReadings } from './formats/datetime.js';

/**
 * What a datetime-local field's value (`2020-08-29T14:30`) stands for: the one parameter given as
 * that date and time in its own format, as `{{name|datetime:YYYY/MM/DD h:mm A}}` (or `{{name}}`
 * when given in the field's form); or, where the reading cannot be told (05/05/2024 14:30, or two
 * parameters that read as it), the names to guard, and no template.
 */
export function dateTimeTemplate(held: string, params: BoundParams): { template: string; ambiguous: string[][] } | { literal: string[] } | undefined {
  const sure: { name: string; value: string; spec: string }[] = [];
  const unsure: string[] = [];
  for (const [name, value] of params.plainEntries()) {
    if (value.trim() === '') continue;
    const readings = dateTimeReadings(value, held);
    if (readings === 'ambiguous') unsure.push(name);
    else if (readings !== 'none') sure.push({ name, value, spec: formatSpec(readings) });
  }
  if (sure.length === 0 && unsure.length === 0) return undefined;
  const first = sure[0];
  // Several parameters are one only when they hold the same value the same way (a start and a
  // planned start given alike): an ordinary ambiguity, resolved when their new values agree.
  if (first && unsure.length === 0 && sure.every((reading) => reading.value === first.value && reading.spec === first.spec)) {
    const template = first.spec === '' ? `{{${first.name}}}` : `{{${first.name}|${first.spec}}}`;
    return { template, ambiguous: sure.length > 1 ? [sure.map((reading) => reading.name)] : [] };
  }
  return { literal: [...sure.map((reading) => reading.name), ...unsure] };
}
