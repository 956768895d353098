import { describe, expect, it } from 'vitest';
import type { Action } from '../actions/action.js';
import type { Target } from '../checks/fingerprint.js';
import { bindParams } from '../params/params.js';
import { incidentalOrder, movedRecord, namesSomething, rowCellOf, showsWithin, valueNotHeld, valuesHeld } from './whichRecord.js';

const params = bindParams({ amount: '250.00', copies: '2', customer: 'Ada Byrne' }, 'test');
const box = (y: number) => ({ x: 10, y, width: 60, height: 20 });
const button = (y: number, identity: Target['identity'] = {}): Target =>
  ({ fingerprint: { role: 'button', name: 'Approve', tag: 'button', inputType: null }, box: box(y), checked: null, hasText: false, disabled: false, showsValue: false, identity, ownText: 'Approve', roleOwn: true }) as unknown as Target;
const lookalikes = [box(0), box(30), box(60)].map((b) => ({ box: b, identity: {} }));
const click: Action = { type: 'click', x: 40, y: 40, button: 'left' };

describe('which record a target stands in', () => {
  it('takes a value for a name only when it could hardly match by chance', () => {
    expect(namesSomething('2')).toBe(false);
    expect(namesSomething('310')).toBe(false);
    expect(namesSomething('$310.00')).toBe(true);
    expect(namesSomething('$9.50')).toBe(true);
    expect(namesSomething('1234')).toBe(true);
    expect(namesSomething('Ada')).toBe(true);
  });

  it('finds a value as whole words only', () => {
    expect(showsWithin('$250.00', '250.00')).toBe(true);
    expect(showsWithin('250.00 USD', '250.00')).toBe(true);
    expect(showsWithin('1250.00', '250.00')).toBe(false);
    expect(showsWithin('250.001', '250.00')).toBe(false);
  });

  it('keeps the cell that shows a value, templated in its words and by its column, not the row header', () => {
    expect(rowCellOf({ rowHeader: 'Ben Okafor', rowCells: ['Ben Okafor', '$250.00', '$0.00', ''] }, params)).toEqual({ text: '$250.00', template: '${{amount}}', at: 1 });
    // A short number is no name, a long description no value, and the header is templated on its own.
    expect(rowCellOf({ rowCells: ['2', 'Refund of 250.00 requested by the customer after the second visit', ''] }, params)).toBeUndefined();
    expect(rowCellOf({ rowHeader: 'Ada Byrne', rowCells: ['Ada Byrne', ''] }, params)).toBeUndefined();
  });

  it('holds a value its record shows only where nothing of its identity is a template', () => {
    expect(valuesHeld({ item: 'Ben Okafor', itemText: 'Ben Okafor claims $250.00 Approve' }, { item: 'Ben Okafor' }, params)).toEqual(['amount']);
    expect(valuesHeld({ rowCells: ['Ada Byrne', '250.00'] }, { rowHeader: '{{customer}}' }, params)).toEqual([]);
    const picked = { box: box(0), identity: { itemText: 'Ben Okafor claims $80.00 Approve' } };
    expect(valueNotHeld(picked, ['amount'], params)).toContain('{{amount}}');
    expect(valueNotHeld(picked, ['amount'], bindParams({ amount: '80.00' }, 'test'))).toBeUndefined();
  });

  it('keeps the place of a click known by words nothing gave, and refuses that name at another place', () => {
    const order = incidentalOrder(button(30), click, { labelBefore: 'Dana Reyes' }, lookalikes, 'Approve the first request');
    expect(order).toEqual({ index: 1, of: 3 });
    expect(movedRecord(lookalikes, lookalikes[1]!, order)).toBeUndefined();
    expect(movedRecord(lookalikes, lookalikes[2]!, order)).toContain('place 3 of 3');
  });

  it('follows words the task says, a template, a column header, a field\'s label and a radio\'s question', () => {
    expect(incidentalOrder(button(30), click, { labelBefore: 'Dana Reyes' }, lookalikes, 'Approve the request of Dana Reyes')).toBeUndefined();
    expect(incidentalOrder(button(30), click, { rowHeader: '{{customer}}' }, lookalikes, 'Approve {{customer}}')).toBeUndefined();
    expect(incidentalOrder(button(30), click, { columnHeader: 'Actions' }, lookalikes, 'Approve')).toBeUndefined();
    const field = { ...button(30), showsValue: true } as Target;
    expect(incidentalOrder(field, click, { rowHeader: 'Author' }, lookalikes, 'Add a book')).toBeUndefined();
    const radio = { ...button(30), fingerprint: { role: 'radio', name: 'Yes', tag: 'input', inputType: 'radio' } } as Target;
    expect(incidentalOrder(radio, click, { group: 'Do you smoke?' }, lookalikes, 'Fill the survey')).toBeUndefined();
    expect(incidentalOrder(radio, click, { rowHeader: 'Dana Reyes' }, lookalikes, 'Fill the survey')).toEqual({ index: 1, of: 3 });
  });
});
