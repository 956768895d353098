import { describe, expect, it } from 'vitest';
import { bindParams } from '../params/params.js';
import { secret } from '../params/secret.js';
import { hideSecretsInCut, recordedName, renderSecrets, storedFingerprint, storedWatch } from './secretTarget.js';

const params = (value: string) => bindParams({ user: 'ada', password: secret(value) }, 'test');
const button = (name: string) => ({ role: 'button', name, tag: 'button', inputType: null });

describe('a secret shown in a target', () => {
  it('is stored as its placeholder in the name and rendered back with the new value', () => {
    const stored = storedFingerprint(button('Log in as hunter2'), params('hunter2'));
    expect(stored).toEqual(button('Log in as {{password}}'));
    expect(recordedName(stored, params('n3w pw'))).toBe('Log in as n3w pw');
    // A name that is the secret, case and punctuation aside, is stored whole.
    expect(storedFingerprint(button('HUNTER2'), params('hunter2!')).name).toBe('{{password}}');
    // Without secrets, nothing changes.
    expect(storedFingerprint(button('Log in as ada'), bindParams({ user: 'ada' }, 't'))).toEqual(button('Log in as ada'));
  });

  it('is stored as its placeholder in a page text, even where the text was cut inside it', () => {
    expect(hideSecretsInCut('Ada hunter2 admin', false, params('hunter2'))).toBe('Ada {{password}} admin');
    // Cut short, the text may end in the first characters of the secret: those go too.
    expect(hideSecretsInCut('Created for hunt', true, params('hunter2'))).toBe('Created for {{password}}');
    // Not cut, the same ending is just text.
    expect(hideSecretsInCut('Created for hunt', false, params('hunter2'))).toBe('Created for hunt');
  });

  it('is kept out of a watched control, whose selector is rendered back', () => {
    const watch = storedWatch({ param: 'user', selector: 'input[name="Hunter-2"]', label: 'hunter 2 user' }, params('Hunter-2'));
    expect(JSON.stringify(watch)).not.toMatch(/hunter/i);
    const plain = storedWatch({ param: 'user', selector: 'input[name="pw-hunter2"]', label: 'user' }, params('hunter2'));
    expect(renderSecrets(plain.selector, params('hunter2'))).toBe('input[name="pw-hunter2"]');
  });
});
