import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { writeReport } from '../report/writeReport.js';
import { reportFilterOf, type ReportFilterOptions } from './reportFilter.js';
import { openExistingStore } from './storeArgument.js';

export type ReportCommandOptions = ReportFilterOptions & { out: string; open?: boolean; store: string; json?: boolean };

/** `rote report`: a self-contained HTML report of the runs the filters pick. */
export async function reportCommand(options: ReportCommandOptions): Promise<number> {
  const store = await openExistingStore(options.store, 'report');
  try {
    const written = await writeReport(store, await reportFilterOf(store, options, 'report'), options.out);
    if (options.json) process.stdout.write(`${JSON.stringify({ dir: written.dir, index: written.index, runs: written.runs, files: written.files, bytes: written.bytes })}\n`);
    else process.stdout.write(`Report of ${written.runs} run${written.runs === 1 ? '' : 's'} written to ${written.index} (${written.files} files, ${(written.bytes / 1024).toFixed(0)} KB)\n`);
    if (options.open) openInBrowser(written.index);
    return 0;
  } finally {
    await store.close();
  }
}

/** Hands the report to the system's browser; where there is none (a server), says how to look at it. */
function openInBrowser(path: string): void {
  const url = pathToFileURL(path).href;
  const [command, args] = process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '', url]] : ['xdg-open', [url]];
  const child = spawn(command, args, { detached: true, stdio: 'ignore' });
  child.on('error', () => process.stderr.write(`Could not open a browser (${command} is missing); open ${url} in one.\n`));
  child.unref();
}
