import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from './program.js';

/**
 * docs/cli.md shows every command's `--help` as the command prints it, after a marker line
 * `<!-- help: rote run -->`. This test fails when a command, an option or a word of help differs
 * from the page, so the reference cannot rot; ROTE_UPDATE_DOCS=1 rewrites the blocks from the
 * program instead (and adds a section for a command the page lacks).
 */
const PAGE = fileURLToPath(new URL('../../docs/cli.md', import.meta.url));
const MARKER = /<!-- help: (rote(?: [a-z-]+)*) -->\n```text\n([\s\S]*?)```\n/g;

/** Every command of the program, depth first, with its full name (`rote schedule add`). */
function commandsOf(command: Command, prefix = ''): { name: string; command: Command }[] {
  const name = prefix ? `${prefix} ${command.name()}` : command.name();
  return [{ name, command }, ...command.commands.flatMap((child) => commandsOf(child, name))];
}

/** What `<name> --help` prints, at 80 columns as in a pipe, with the help text added after it. */
function helpOf(command: Command): string {
  let text = '';
  command.configureOutput({ writeOut: (chunk) => (text += chunk), getOutHelpWidth: () => 80 });
  command.outputHelp();
  return text.replace(/[ \t]+$/gm, '').trimEnd() + '\n';
}

describe('docs/cli.md', () => {
  const commands = commandsOf(buildProgram()).filter(({ name }) => name !== 'rote help');
  const page = readFileSync(PAGE, 'utf8');
  const shown = new Map([...page.matchAll(MARKER)].map((match) => [match[1]!, match[2]!]));

  if (process.env.ROTE_UPDATE_DOCS === '1') {
    it('is rewritten from the program (ROTE_UPDATE_DOCS=1)', () => {
      const help = new Map(commands.map(({ name, command }) => [name, helpOf(command)]));
      let next = page.replace(MARKER, (_whole, name: string) => (help.has(name) ? `<!-- help: ${name} -->\n\`\`\`text\n${help.get(name)}\`\`\`\n` : ''));
      for (const [name, text] of help) {
        if (!shown.has(name)) next = `${next.trimEnd()}\n\n## ${name}\n\n<!-- help: ${name} -->\n\`\`\`text\n${text}\`\`\`\n`;
      }
      writeFileSync(PAGE, next);
      expect(next).toContain('<!-- help: rote run -->');
    });
    return;
  }

  it('shows every command of the program', () => {
    const missing = commands.map(({ name }) => name).filter((name) => !shown.has(name));
    expect(missing, 'commands with no <!-- help: ... --> block in docs/cli.md (ROTE_UPDATE_DOCS=1 adds them)').toEqual([]);
  });

  it('shows no command the program does not have', () => {
    const names = new Set(commands.map(({ name }) => name));
    expect([...shown.keys()].filter((name) => !names.has(name))).toEqual([]);
  });

  for (const { name, command } of commands) {
    it(`shows \`${name} --help\` as the command prints it`, () => {
      expect(shown.get(name), `docs/cli.md's block for ${name} (ROTE_UPDATE_DOCS=1 rewrites it)`).toBe(helpOf(command));
    });
  }
});
