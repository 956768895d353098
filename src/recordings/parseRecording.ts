import type { z } from 'zod';
import { ROOT_ID } from '../trajectory/nodeRef.js';
import { RoteError } from '../errors/roteError.js';
import { listProblems } from '../params/paramSchema.js';
import { isRelativeUrl, urlsOf } from './recordingUrls.js';
import { RECORDING_FILE, RECORDING_FORMAT, RECORDING_VERSION, recordingFileSchema, type RecordingFile } from './recordingSchema.js';

/**
 * Validates the parsed JSON of a recording.json: its format and version first (a newer file asks
 * for a newer rote rather than listing fields it does not know), then every field, then the tree.
 * Every problem is listed in one RoteError('invalid-argument'), naming the field.
 */
export function parseRecording(json: unknown, where: string): RecordingFile {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw invalid(where, `${RECORDING_FILE} must hold a JSON object, got ${describe(json)}`);
  }
  const { format, version } = json as Record<string, unknown>;
  if (format !== RECORDING_FORMAT) {
    throw invalid(where, `${RECORDING_FILE} is not a rote recording: "format" is ${describe(format)}, expected "${RECORDING_FORMAT}"`);
  }
  if (typeof version === 'number' && Number.isInteger(version) && version > RECORDING_VERSION) {
    throw invalid(where, `${RECORDING_FILE} has version ${version}; this rote reads version ${RECORDING_VERSION}: upgrade rote`);
  }
  if (version !== RECORDING_VERSION) {
    throw invalid(where, `${RECORDING_FILE}: "version" is ${describe(version)}, expected ${RECORDING_VERSION}`);
  }
  const parsed = recordingFileSchema.safeParse(json);
  if (!parsed.success) {
    throw invalid(where, listProblems(`${RECORDING_FILE} is not valid`, 'its fields', parsed.error.issues.map((issue) => describeIssue(issue, json))));
  }
  const problems = treeProblems(parsed.data);
  if (problems.length > 0) throw invalid(where, listProblems(`${RECORDING_FILE} is not valid`, 'its nodes', problems));
  return parsed.data;
}

/** Links that point nowhere, repeated ids, cycles, and relative URLs with no origin to resolve them. */
function treeProblems(file: RecordingFile): string[] {
  const problems: string[] = [];
  const index = new Map<string, number>();
  file.nodes.forEach((node, at) => {
    if (index.has(node.id)) problems.push(`nodes[${at}].id: ${JSON.stringify(node.id)} is also the id of nodes[${index.get(node.id)}]`);
    else index.set(node.id, at);
  });
  file.nodes.forEach((node, at) => {
    if (node.parentId !== null && !index.has(node.parentId)) problems.push(`nodes[${at}].parentId: no node has the id ${JSON.stringify(node.parentId)}`);
    if (node.resumeAtId !== null && node.resumeAtId !== ROOT_ID && !index.has(node.resumeAtId)) {
      problems.push(`nodes[${at}].resumeAtId: no node has the id ${JSON.stringify(node.resumeAtId)} (nor is it "${ROOT_ID}")`);
    }
  });
  if (problems.length === 0) {
    file.nodes.forEach((node, at) => {
      // Walking up from a node must reach the root within as many steps as there are nodes.
      let parent = node.parentId;
      for (let steps = 0; parent !== null; steps++) {
        if (steps > file.nodes.length) {
          problems.push(`nodes[${at}].parentId: the parents of ${JSON.stringify(node.id)} form a cycle`);
          break;
        }
        parent = file.nodes[index.get(parent)!]!.parentId;
      }
    });
  }
  if (file.origin === null) {
    for (const { path, url } of urlsOf(file)) {
      if (isRelativeUrl(url)) problems.push(`${path}: ${JSON.stringify(url)} is relative, but "origin" is null`);
    }
  }
  return problems;
}

function describeIssue(issue: z.core.$ZodIssue, json: unknown): string {
  const path = pathText(issue.path);
  const value = valueAt(json, issue.path);
  const got = issue.code === 'unrecognized_keys' || value === undefined ? '' : `, got ${describe(value)}`;
  return `${path || '(top level)'}: ${issue.message}${got}`;
}

function pathText(path: readonly PropertyKey[]): string {
  return path.map((part, at) => (typeof part === 'number' ? `[${part}]` : `${at === 0 ? '' : '.'}${String(part)}`)).join('');
}

function valueAt(json: unknown, path: readonly PropertyKey[]): unknown {
  let value = json;
  for (const part of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[part];
  }
  return value;
}

function describe(value: unknown): string {
  if (value === undefined) return 'missing';
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function invalid(where: string, message: string): RoteError {
  return new RoteError('invalid-argument', `${where}: ${message}`);
}
