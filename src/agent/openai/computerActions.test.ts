import { describe, expect, it } from 'vitest';
import { fromComputerAction, pngSize, screenshotScale, toComputerAction } from './computerActions.js';

describe('fromComputerAction', () => {
  it('maps every computer-use action to rote and back', () => {
    const wire = [
      { type: 'click', x: 10, y: 20, button: 'left' },
      { type: 'click', x: 10, y: 20, button: 'right' },
      { type: 'click', x: 10, y: 20, button: 'wheel' },
      { type: 'double_click', x: 1, y: 2 },
      { type: 'type', text: 'Ada' },
      { type: 'keypress', keys: ['CTRL', 'A'] },
      { type: 'scroll', x: 5, y: 6, scroll_x: 0, scroll_y: 300 },
      { type: 'drag', path: [{ x: 1, y: 2 }, { x: 3, y: 4 }] },
      { type: 'move', x: 7, y: 8 },
      { type: 'wait' },
    ];
    for (const raw of wire) {
      const mapped = fromComputerAction(raw);
      if (!mapped.ok || !('action' in mapped.value)) throw new Error(`not mapped: ${JSON.stringify(raw)} ${JSON.stringify(mapped)}`);
      expect(toComputerAction(mapped.value.action)).toEqual(raw);
    }
    expect(fromComputerAction({ type: 'click', x: 10, y: 20, button: 'wheel' })).toEqual({ ok: true, value: { action: { type: 'click', x: 10, y: 20, button: 'middle' } } });
    expect(fromComputerAction({ type: 'wait' })).toEqual({ ok: true, value: { action: { type: 'wait', ms: 1000 } } });
  });

  it('takes a drag path of [x, y] pairs and a click without a button', () => {
    expect(fromComputerAction({ type: 'drag', path: [[1, 2], [3, 4]] })).toEqual({ ok: true, value: { action: { type: 'drag', path: [{ x: 1, y: 2 }, { x: 3, y: 4 }] } } });
    expect(fromComputerAction({ type: 'click', x: 1, y: 2 })).toEqual({ ok: true, value: { action: { type: 'click', x: 1, y: 2, button: 'left' } } });
  });

  it('asks for a look on screenshot, and names what is wrong otherwise', () => {
    expect(fromComputerAction({ type: 'screenshot' })).toEqual({ ok: true, value: { screenshot: true } });
    expect(fromComputerAction({ type: 'teleport', x: 1 })).toMatchObject({ ok: false, reason: expect.stringContaining('unknown action type "teleport"') });
    expect(fromComputerAction({ type: 'click', x: 'left', y: 2 })).toMatchObject({ ok: false, reason: expect.stringContaining('x: expected number') });
    expect(fromComputerAction({ type: 'click', x: -4, y: 2 })).toMatchObject({ ok: false, reason: expect.stringMatching(/x: .*>=0/) });
    expect(fromComputerAction({ type: 'click', x: 1, y: 2, button: 'back' })).toMatchObject({ ok: false, reason: expect.stringContaining('"back" mouse button') });
    expect(fromComputerAction({ type: 'keypress', keys: [] })).toMatchObject({ ok: false, reason: expect.stringContaining('keys') });
    expect(fromComputerAction('click')).toMatchObject({ ok: false, reason: expect.stringContaining('must be an object') });
  });

  it('scales screenshot pixels to CSS pixels and back', () => {
    const scale = { x: 0.5, y: 0.5 };
    expect(fromComputerAction({ type: 'click', x: 200, y: 100, button: 'left' }, scale)).toEqual({ ok: true, value: { action: { type: 'click', x: 100, y: 50, button: 'left' } } });
    expect(toComputerAction({ type: 'scroll', x: 100, y: 50, scroll_x: 0, scroll_y: 150 }, scale)).toEqual({ type: 'scroll', x: 200, y: 100, scroll_x: 0, scroll_y: 300 });
    expect(toComputerAction({ type: 'goto', url: 'https://example.test/' })).toEqual({ type: 'goto', url: 'https://example.test/' });
  });
});

describe('pngSize', () => {
  const png = Buffer.from('89504e470d0a1a0a0000000d49484452000005000000032008060000', 'hex');
  it('reads the size from the IHDR chunk', () => {
    expect(pngSize(png)).toEqual({ width: 1280, height: 800 });
    expect(pngSize(Buffer.from('not a png, not at all'))).toBeUndefined();
  });
  it('gives the scale of a screenshot taken at device pixel ratio 2', () => {
    const double = Buffer.from(png);
    double.writeUInt32BE(2560, 16);
    double.writeUInt32BE(1600, 20);
    expect(screenshotScale(double, { width: 1280, height: 800 })).toEqual({ scale: { x: 0.5, y: 0.5 }, display: { width: 2560, height: 1600 } });
    expect(screenshotScale(png, { width: 1280, height: 800 })).toEqual({ scale: { x: 1, y: 1 }, display: { width: 1280, height: 800 } });
  });
});
