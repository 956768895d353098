import { formatSpec, kindImpliedBy, type Format } from '../params/format.js';
import type { ParamKind, ParamSchema } from '../params/paramType.js';
import { templateUses } from '../params/template.js';
import type { TrajectoryNode } from '../trajectory/trajectoryNode.js';

/**
 * The parameter types to store with the task after a run: what the caller declared, plus a type
 * inferred from every format the new steps typed a value in (a date typed as 04/01/1990 makes
 * `dob` a date), so a later run with a value that cannot be rendered that way is refused before
 * any action instead of diverging halfway.
 */
export function learnedSchema(declared: ParamSchema, newNodes: readonly TrajectoryNode[], secretNames: ReadonlySet<string> = new Set()): ParamSchema | null {
  const schema: ParamSchema = { ...declared };
  for (const node of newNodes) {
    for (const template of templatesOf(node)) {
      for (const use of safeUses(template)) {
        // A secret is typed as it is, never read as a date or a number: no type is learned for it.
        if (schema[use.name] || secretNames.has(use.name)) continue;
        const kind = kindImpliedBy(use.formats) ?? (isWholePlaceholder(template) ? valueInputKind(node) : undefined);
        if (!kind) continue;
        // A value read from the user's own format (10/11/2011) keeps that reading: later values
        // are read the same way, and refused before any action when they cannot be.
        // A year alone reads the same month first or day first: its reading was picked, not learned.
        const from = use.formats[0]?.kind === 'from' && !yearOnly(use.formats) ? use.formats[0] : undefined;
        schema[use.name] = from ? { type: kind, optional: true, inferred: true, given: formatSpec([from.given]) } : { type: kind, optional: true, inferred: true };
      }
    }
  }
  return Object.keys(schema).length > 0 ? schema : null;
}

/** A date rendered only as its year (a year box of a date asked in parts). */
function yearOnly(formats: readonly Format[]): boolean {
  const dates = formats.filter((format): format is Extract<Format, { kind: 'date' }> => format.kind === 'date');
  return dates.length > 0 && dates.every((format) => !/[MD]/.test(format.pattern));
}

/** A native date or time input set by value takes only an ISO date or a 24-hour time. */
function valueInputKind(node: TrajectoryNode): ParamKind | undefined {
  if (node.state.typeMode !== 'value' || node.action.type !== 'type') return undefined;
  switch (node.fingerprint?.inputType) {
    case 'date':
      return 'date';
    case 'time':
      return 'time';
    default:
      return undefined;
  }
}

/** Only a value that is the whole of what a date input holds is a date: {{pin}}-06-01 makes no date of pin. */
function isWholePlaceholder(template: string): boolean {
  return /^\{\{[^{}]+\}\}$/.test(template.trim());
}

function templatesOf(node: TrajectoryNode): string[] {
  const templates: string[] = [];
  if (node.action.type === 'type') templates.push(node.action.text);
  if (node.action.type === 'goto') templates.push(node.action.url);
  if (node.state.nameTemplate) templates.push(node.state.nameTemplate);
  return templates;
}

function safeUses(template: string): ReturnType<typeof templateUses> {
  try {
    return templateUses(template);
  } catch {
    // A placeholder with an unknown format came from an agent's own text; it types as written.
    return [];
  }
}
