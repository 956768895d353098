import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { RoteError } from '../errors/roteError.js';
import { basename, dirname, join, resolve } from 'node:path';
import { isProcessAlive } from '../store/processAlive.js';
import type { Store } from '../store/store.js';
import { ImageLinks } from './imageLinks.js';
import { reportPaths } from './links.js';
import { overviewPage } from './overviewPage.js';
import { loadReport, type ReportFilter, type ReportModel } from './reportModel.js';
import { runPage } from './runPage.js';
import { schedulePage } from './schedulePage.js';
import { taskPage } from './taskPage.js';
import { totalsOf, type Totals } from './totals.js';

export type WrittenReport = { dir: string; index: string; runs: number; files: number; bytes: number; totals: Totals };

/**
 * Writes a self-contained HTML report of the runs the filter picks into `dir`: an overview, a page
 * per run, task and schedule, and the pictures they show, nothing outside the folder and nothing
 * from the network. Written beside the folder and moved into place, so a reader (or the daemon's
 * next refresh) never sees half a report.
 */
export async function writeReport(store: Store, filter: ReportFilter, dir: string): Promise<WrittenReport> {
  const model = await loadReport(store, filter);
  return writeModel(store, model, dir);
}

/** Marks a folder as a rote report, so writing the next one may replace it. */
const MARKER = 'rote-report.json';
/** Beside the report: the next one being written, and the last one on its way out (each with its writer's pid). */
const STAGING = '.writing-';
const RETIRED = '.replaced-';

/** Folders a killed writer left beside the report: removed once their process is gone. */
function removeStaleStaging(target: string): void {
  const parent = dirname(target);
  if (!existsSync(parent)) return;
  const prefix = basename(target);
  for (const name of readdirSync(parent)) {
    const match = name.startsWith(prefix) ? /^(?:\.writing-|\.replaced-)(\d+)$/.exec(name.slice(prefix.length)) : null;
    if (match && !isProcessAlive(Number(match[1]))) rmSync(join(parent, name), { recursive: true, force: true });
  }
}

export async function writeModel(store: Store, model: ReportModel, dir: string): Promise<WrittenReport> {
  const target = resolve(dir);
  checkReportFolder(target, 'rote report');
  removeStaleStaging(target);
  const staging = `${target}${STAGING}${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  const images = await ImageLinks.of(store, model.runs);
  const totals = totalsOf(model.runs);
  const files: { path: string; content: string | Buffer }[] = [];
  const scope = model.scope;
  files.push({ path: 'index.html', content: overviewPage(model, totals) });
  files.push({ path: MARKER, content: `${JSON.stringify({ generatedAt: new Date(model.generatedAt).toISOString(), scope: model.scope, runs: model.runs.length })}\n` });
  for (const run of model.runs) files.push({ path: reportPaths.run(run.id), content: runPage(run, images, scope) });
  for (const task of model.tasks) files.push({ path: reportPaths.task(task.id), content: taskPage(task, model.runs.filter((run) => run.taskId === task.id), scope) });
  const knownRuns = new Set(model.runs.map((run) => run.id));
  for (const schedule of model.schedules) files.push({ path: reportPaths.schedule(schedule.name), content: schedulePage(schedule, knownRuns, scope) });
  for (const image of images.written()) files.push({ path: image.path, content: image.bytes });
  let bytes = 0;
  try {
    for (const file of files) {
      const path = join(staging, file.path);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, file.content);
      bytes += typeof file.content === 'string' ? Buffer.byteLength(file.content) : file.content.length;
    }
    // The earlier report is moved aside, not deleted, until the new one stands in its place.
    checkReportFolder(target, 'rote report');
    const previous = existsSync(target) ? `${target}${RETIRED}${process.pid}` : undefined;
    if (previous) renameSync(target, previous);
    try {
      renameSync(staging, target);
    } catch (error) {
      if (previous) renameSync(previous, target);
      throw error;
    }
    if (previous) rmSync(previous, { recursive: true, force: true });
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
  return { dir: target, index: join(target, 'index.html'), runs: model.runs.length, files: files.length, bytes, totals };
}

/**
 * Only a new or empty folder, or an earlier report, is written to: a report replaces the folder,
 * and `--out .` must never wipe a project. Called before a job runs, too, so a bad folder is a
 * usage error before anything happens.
 */
export function checkReportFolder(dir: string, where: string): void {
  const target = resolve(dir);
  if (!existsSync(target)) return;
  if (!statSync(target).isDirectory()) throw new RoteError('invalid-argument', `${where}: the report folder ${target} is a file, not a folder`);
  const entries = readdirSync(target);
  if (entries.length > 0 && !entries.includes(MARKER)) {
    throw new RoteError('invalid-argument', `${where}: the report folder ${target} is not empty and holds no earlier report (no ${MARKER}); give a new or empty folder`);
  }
}
