import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The documentation cannot drift from the code it shows: each TypeScript block in docs/ and the
 * README is the region of a file in docs/examples/ that the build type-checks (a marker line
 * `<!-- example: examples/firstReplay.ts -->`, relative to docs/, says which), and every link
 * between the pages, and from the README into them, points at a page and a heading that exist.
 * ROTE_UPDATE_DOCS=1 rewrites the blocks from their files instead.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DOCS = join(ROOT, 'docs');
const EXAMPLE_BLOCK = /<!-- example: (examples\/[\w.-]+\.ts) -->\n```ts\n([\s\S]*?)```\n/g;
const ANY_TS_BLOCK = /(^|\n)(<!-- example: [^\n]+ -->\n)?```(ts|typescript)\n/g;
const REGION = /\/\/ #region docs\n([\s\S]*?)\/\/ #endregion\n/;

const pages = readdirSync(DOCS).filter((name) => name.endsWith('.md')).map((name) => join(DOCS, name));
const readme = join(ROOT, 'README.md');

function regionOf(file: string): string {
  const text = readFileSync(join(DOCS, file), 'utf8');
  return REGION.exec(text)?.[1] ?? text;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-');
}

function anchorsOf(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((match) => slug(match[1]!)));
}

describe('docs/', () => {
  if (process.env.ROTE_UPDATE_DOCS === '1') {
    it('takes its examples from docs/examples (ROTE_UPDATE_DOCS=1)', () => {
      for (const page of [readme, ...pages]) {
        const text = readFileSync(page, 'utf8');
        writeFileSync(page, text.replace(EXAMPLE_BLOCK, (_, file: string) => `<!-- example: ${file} -->\n\`\`\`ts\n${regionOf(file)}\`\`\`\n`));
      }
      expect(pages.length).toBeGreaterThan(0);
    });
    return;
  }

  it('has a page for every topic, each starting with what it is for', () => {
    const names = pages.map((page) => page.slice(DOCS.length + 1));
    for (const topic of ['getting-started.md', 'concepts.md', 'parameters.md', 'checks.md', 'agents.md', 'recordings.md', 'playwright-test.md', 'unattended.md', 'many-machines.md', 'reports.md', 'cli.md', 'performance.md', 'reliability.md', 'limits.md']) {
      expect(names).toContain(topic);
    }
    for (const page of pages) {
      const [title, blank, lead] = readFileSync(page, 'utf8').split('\n');
      expect(title, page).toMatch(/^# \S/);
      expect(blank, page).toBe('');
      expect(lead, `${page} starts with a sentence on what it is for`).toMatch(/^[A-Z`]/);
    }
  });

  for (const page of [readme, ...pages]) {
    const name = page.slice(ROOT.length);
    const text = readFileSync(page, 'utf8');

    it(`${name}: every TypeScript block is an example the build type-checks`, () => {
      const unmarked = [...text.matchAll(ANY_TS_BLOCK)].filter((match) => !match[2]);
      expect(unmarked.length, `${name} has a \`\`\`ts block with no <!-- example: ... --> marker`).toBe(0);
      for (const match of text.matchAll(EXAMPLE_BLOCK)) {
        const file = match[1]!;
        expect(existsSync(join(DOCS, file)), `${name} names ${file}`).toBe(true);
        expect(match[2], `${name}'s block of ${file} (ROTE_UPDATE_DOCS=1 rewrites it)`).toBe(regionOf(file));
      }
    });
  }

  for (const file of [readme, ...pages]) {
    it(`${file.slice(ROOT.length)}: every link to a page of the repository resolves, headings included`, () => {
      const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
      const broken: string[] = [];
      for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = match[1]!;
        if (/^[a-z]+:/i.test(target)) continue;
        const [path, anchor] = target.split('#') as [string, string | undefined];
        const linked = path === '' ? file : resolve(dirname(file), path);
        if (!existsSync(linked)) {
          broken.push(`${target}: no such file`);
          continue;
        }
        if (anchor !== undefined && linked.endsWith('.md') && !anchorsOf(linked).has(anchor)) broken.push(`${target}: no heading with that anchor`);
      }
      expect(broken).toEqual([]);
    });
  }
});
