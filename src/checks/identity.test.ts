import { describe, expect, it } from 'vitest';
import { describeIdentity, facetReading, identityDifference, sameIdentity } from './identity.js';

describe('identity facets', () => {
  it('compare as a person reads them: case, spacing and a label\'s trailing colon aside, punctuation inside kept', () => {
    expect(facetReading('  Zip  code:* ')).toBe('zip code');
    expect(sameIdentity({ rowHeader: 'Genre:' }, { rowHeader: 'genre' })).toBe(true);
    expect(sameIdentity({ rowHeader: 'john_smith@acme.com' }, { rowHeader: 'john.smith@acme.com' })).toBe(false);
    expect(sameIdentity({ rowHeader: 'C#' }, { rowHeader: 'C++' })).toBe(false);
  });

  it('require every recorded facet and ignore the ones the recording did not keep', () => {
    expect(sameIdentity({ rowHeader: 'Genre', id: 'x' }, { rowHeader: 'Genre' })).toBe(true);
    expect(sameIdentity({ id: 'x' }, { rowHeader: 'Genre' })).toBe(false);
  });

  it('say what differs with the recorded templates, never the live value unshown', () => {
    const shown = (text: string) => text.replace('hunter2', '********');
    expect(identityDifference({ rowHeader: 'Title', item: 'key hunter2' }, { rowHeader: 'Genre', item: 'key hunter2' }, { rowHeader: 'Genre', item: 'key {{password}}' }, shown)).toBe('row "Title" (recorded "Genre")');
    expect(identityDifference({ item: 'key hunter2' }, { item: 'key x' }, { item: 'key {{password}}' }, shown)).toBe('item "key ********" (recorded "key {{password}}")');
    expect(describeIdentity({ rowHeader: 'Genre', labelBefore: 'Title:' })).toBe('row "Genre", text before "Title:"');
  });

  it('compare a recorded rowCell with the row\'s cell at its place only', () => {
    const row = { rowHeader: 'Ada Byrne', rowCells: ['Ada Byrne', '250.00', '80.00', ''] };
    expect(sameIdentity(row, { rowCell: '250.00', rowCellAt: 1 })).toBe(true);
    expect(sameIdentity(row, { rowCell: '80.00', rowCellAt: 1 })).toBe(false);
    expect(sameIdentity({ rowHeader: 'Ada Byrne' }, { rowCell: '250.00', rowCellAt: 1 })).toBe(false);
    expect(identityDifference(row, { rowCell: '80.00', rowCellAt: 1 }, { rowCell: '{{amount}}', rowCellAt: 1 }, (text) => text)).toBe('cell "250.00" (recorded "{{amount}}")');
    expect(describeIdentity({ rowCell: '{{amount}}', rowCellAt: 1 })).toBe('cell "{{amount}}"');
  });
});
