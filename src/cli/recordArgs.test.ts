import { describe, expect, it } from 'vitest';
import { displayProblem, parseParam, validateRecordArgs } from './recordArgs.js';

describe('parseParam', () => {
  it('splits at the first =, so a value may hold = and be empty', () => {
    expect(parseParam('firstName=Ada')).toEqual({ ok: true, value: { name: 'firstName', value: 'Ada' } });
    expect(parseParam('query=a=b')).toEqual({ ok: true, value: { name: 'query', value: 'a=b' } });
    expect(parseParam('notes=')).toEqual({ ok: true, value: { name: 'notes', value: '' } });
  });

  it('says what is wrong', () => {
    expect(parseParam('firstName')).toEqual({ ok: false, reason: '--param "firstName": expected name=value, such as --param firstName=Ada' });
    expect(parseParam('=Ada')).toEqual({ ok: false, reason: '--param "=Ada": the name "" must be letters, digits and _, not starting with a digit' });
    expect(parseParam('2nd=x')).toMatchObject({ ok: false, reason: expect.stringContaining('the name "2nd"') });
  });
});

describe('validateRecordArgs', () => {
  const base = { url: 'http://127.0.0.1:3000/intake', task: 'Register patient Ada', store: '.rote/rote.db' };

  it('returns the arguments, with secrets among the params', () => {
    expect(validateRecordArgs({ ...base, param: ['firstName=Ada', 'pin=1234'], secret: ['pin', 'pin'], headless: true })).toEqual({
      args: { ...base, params: [['firstName', 'Ada'], ['pin', '1234']], secrets: ['pin'], headless: true },
    });
  });

  it('lists every problem at once', () => {
    const result = validateRecordArgs({ url: 'ftp://example.com', task: '', param: ['a=1', 'a=2', 'b'], secret: ['c'], store: 'x.db' });
    expect(result).toEqual({
      problems: [
        '--url: expected an http(s) or file URL, such as https://example.com/form, got "ftp://example.com"',
        '--task is required: what the recording does, in words, such as --task "Register patient Ada Lovelace"',
        '--param a is given twice',
        '--param "b": expected name=value, such as --param firstName=Ada',
        '--secret "c" names no parameter (the params are a); give its value with --param c=VALUE',
      ],
    });
    expect(validateRecordArgs({ ...base, url: undefined })).toEqual({ problems: ['--url is required: the page to start on, such as https://example.com/form'] });
  });
});

describe('displayProblem', () => {
  it('needs DISPLAY or WAYLAND_DISPLAY for a window on Linux, nothing for --headless, macOS or Windows', () => {
    expect(displayProblem({}, 'linux', false)).toContain('xvfb-run -a rote record');
    expect(displayProblem({ DISPLAY: ':0' }, 'linux', false)).toBeUndefined();
    expect(displayProblem({ WAYLAND_DISPLAY: 'wayland-0' }, 'linux', false)).toBeUndefined();
    expect(displayProblem({}, 'linux', true)).toBeUndefined();
    expect(displayProblem({}, 'darwin', false)).toBeUndefined();
    expect(displayProblem({}, 'win32', false)).toBeUndefined();
  });
});
