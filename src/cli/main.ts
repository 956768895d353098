#!/usr/bin/env node
import { CommanderError } from 'commander';
import { RoteError } from '../errors/roteError.js';
import { buildProgram } from './program.js';

buildProgram().parseAsync(process.argv).catch((error: unknown) => {
  if (error instanceof CommanderError) {
    // Commander printed the problem (and help) already; --help and --version are not errors.
    process.exitCode = error.exitCode === 0 ? 0 : 2;
    return;
  }
  process.stderr.write(`${RoteError.isInstance(error) ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = RoteError.isInstance(error) && error.code === 'invalid-argument' ? 2 : 1;
});
