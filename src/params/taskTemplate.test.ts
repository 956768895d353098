import { describe, expect, it } from 'vitest';
import { BoundParams } from './boundParams.js';
import { bindParams } from './params.js';
import { secret } from './secret.js';
import { taskIdentity } from './taskKey.js';
import { taskTemplate } from './taskTemplate.js';

const start = 'http://app.test/form';

describe('taskTemplate', () => {
  it('keeps the key when only a long free-text value changes, even when its words stand in the task', () => {
    const task = 'Fill in the "Contact us" form with the given values and submit it.';
    const one = taskIdentity(task, BoundParams.of({ comment: 'I would like the brochure and the price list', name: 'Ada' }), [], start, 'w');
    const two = taskIdentity(task, BoundParams.of({ comment: 'Please call me back in the afternoon and leave a message', name: 'Alan' }), [], start, 'w');
    expect(one.template).toBe(task);
    expect(two.key).toBe(one.key);
  });

  it('replaces a quoted value whatever its length, and not inside a word', () => {
    expect(taskTemplate('Enter the username "vina" and the password "US" and log in', BoundParams.of({ username: 'vina', password: 'US' }))).toBe('Enter the username "{{username}}" and the password "{{password}}" and log in');
    const one = taskIdentity('Enter the username "vina" and the password "US"', BoundParams.of({ username: 'vina', password: 'US' }), [], start, 'w');
    const two = taskIdentity('Enter the username "otto" and the password "q"', BoundParams.of({ username: 'otto', password: 'q' }), [], start, 'w');
    expect(two.key).toBe(one.key);
  });

  it('replaces whole words of the whole value only', () => {
    expect(taskTemplate('Register Ada Lovelace from London', BoundParams.of({ first: 'Ada', last: 'Lovelace' }))).toBe('Register {{first}} {{last}} from London');
    expect(taskTemplate('Register Adams', BoundParams.of({ first: 'Ada' }))).toBe('Register Adams');
    expect(taskTemplate('Order 12 boxes, not 12.5', BoundParams.of({ qty: '12' }))).toBe('Order {{qty}} boxes, not 12.5');
  });

  it('names a value several parameters share by the words before it, so the key does not depend on the others', () => {
    expect(taskTemplate('Catalogue it on shelf A, copy 1', BoundParams.of({ loanable: '1', copy: '1' }))).toBe('Catalogue it on shelf A, copy {{copy}}');
    expect(taskTemplate('Catalogue it on shelf A, copy 1', BoundParams.of({ copy: '1', loanable: '0' }))).toBe('Catalogue it on shelf A, copy {{copy}}');
    expect(taskTemplate('Pay 12 for 12', BoundParams.of({ a: '12', b: '12' }))).toBe('Pay 12 for 12');
  });

  it('keeps a short value that stands twice literal where nothing names it: "option 2" is not the quantity 2', () => {
    expect(taskTemplate('Select option 2 and set quantity 2', BoundParams.of({ qty: '2' }))).toBe('Select option 2 and set quantity 2');
    expect(taskTemplate('Select option 2 and set quantity 2', BoundParams.of({ quantity: '2' }))).toBe('Select option 2 and set quantity {{quantity}}');
    const two = taskIdentity('Select option 2 and set quantity 2', BoundParams.of({ qty: '2' }), [], start, 'w');
    const three = taskIdentity('Select option 3 and set quantity 3', BoundParams.of({ qty: '3' }), [], start, 'w');
    expect(three.key).not.toBe(two.key);
    expect(taskTemplate('Set quantity 2 for item 2', BoundParams.of({ quantity: '2' }))).toBe('Set quantity {{quantity}} for item 2');
    expect(taskTemplate('Book 2 tickets for 2 adults', BoundParams.of({ tickets: '2' }))).toBe('Book {{tickets}} tickets for 2 adults');
    // Once, it is the value: the key holds across values.
    expect(taskTemplate('Set quantity 2 and save', BoundParams.of({ qty: '2' }))).toBe('Set quantity {{qty}} and save');
  });

  it('takes the longest value first', () => {
    expect(taskTemplate('Greet John Smith and John', BoundParams.of({ full: 'John Smith', first: 'John' }))).toBe('Greet {{full}} and {{first}}');
  });

  it('never applies a derived rendering: a date in another format, a case change, a word of a value', () => {
    expect(taskTemplate('Book 04/01/1990 for ADA', BoundParams.of({ dob: '1990-04-01', name: 'Ada' }))).toBe('Book 04/01/1990 for ADA');
    expect(taskTemplate('Book the room', BoundParams.of({ note: 'the room is cold' }))).toBe('Book the room');
  });

  it('leaves a short lowercase word alone unless it is quoted', () => {
    expect(taskTemplate('Fill in the form on the page', BoundParams.of({ subscribe: 'on' }))).toBe('Fill in the form on the page');
    expect(taskTemplate('Set newsletter to "on"', BoundParams.of({ subscribe: 'on' }))).toBe('Set newsletter to "{{subscribe}}"');
    expect(taskTemplate('Ship to US now', BoundParams.of({ country: 'US' }))).toBe('Ship to {{country}} now');
    expect(taskTemplate('Fill in the form and send it', BoundParams.of({ comment: 'the', other: 'and' }))).toBe('Fill in the form and send it');
    expect(taskTemplate('Book the evening shift', BoundParams.of({ shift: 'evening' }))).toBe('Book the {{shift}} shift');
  });

  it('hides a secret wherever it stands', () => {
    const params = bindParams({ password: secret('hunter2'), user: 'ann' }, 'w');
    expect(taskTemplate('log in as ann with hunter2x', params)).toBe('log in as {{user}} with {{password}}x');
  });

  it('matches typographic quotes in pairs only', () => {
    expect(taskTemplate('Pick \u201Con\u201D and \u201Con\u2019', BoundParams.of({ c: 'on' }))).toBe('Pick \u201C{{c}}\u201D and \u201Con\u2019');
  });
});
