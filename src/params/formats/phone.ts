import type { Format } from '../format.js';

/** Common layouts; any other typed layout is read from the text itself (see phoneChainFromText). */
export const PHONE_PATTERNS = [
  '(###) ###-####', '###-###-####', '###.###.####', '### ### ####', '##########', '(###)###-####',
  '+1 ### ### ####', '+1 (###) ###-####', '+1-###-###-####', '1-###-###-####', '###-####',
];

export const PHONE_PROBES = ['2125550199', '1 415 555 0132', '+44 20 7946 0958', '555-0100'];

export const PHONE_RULE = 'a phone pattern has # for each digit, plus digits, spaces and ( ) + - . as written';

const PHONE_TEXT = /^[\d\s()+\-./]*$/;

export function isPhonePattern(pattern: string): boolean {
  return pattern.includes('#') && /^[#\d\s()+\-.]+$/.test(pattern);
}

/** A value that reads as a phone number: only digits and phone punctuation, 7 to 15 digits. */
export function isPhoneLike(value: string): boolean {
  const digits = value.replace(/\D/g, '').length;
  return PHONE_TEXT.test(value) && digits >= 7 && digits <= 15;
}

/**
 * Fills the pattern's '#' with the value's digits (its punctuation is ignored). A North American
 * value with the leading 1 fits a ten-digit pattern; any other digit count mismatch is null.
 */
export function renderPhone(value: string, pattern: string): string | null {
  if (!PHONE_TEXT.test(value) || !isPhonePattern(pattern)) return null;
  const slots = pattern.split('#').length - 1;
  let digits = value.replace(/\D/g, '');
  if (digits.length === 11 && digits.startsWith('1') && slots === 10) digits = digits.slice(1);
  if (digits.length !== slots) return null;
  let next = 0;
  return pattern.replace(/#/g, () => digits[next++]!);
}

export function phoneChains(value: string): Format[][] {
  if (!isPhoneLike(value)) return [];
  return PHONE_PATTERNS.map((pattern) => [{ kind: 'phone', pattern }]);
}

/**
 * The layout read from what was typed: each digit becomes '#'. When the text adds or keeps a
 * leading country 1 before ten digits, that 1 stays literal so ten-digit values fit on replay.
 */
export function phoneChainFromText(value: string, text: string): Format[][] {
  if (!isPhoneLike(value) || !isPhoneLike(text)) return [];
  const valueDigits = value.replace(/\D/g, '');
  const textDigits = text.replace(/\D/g, '');
  const northAmerican = valueDigits.length === 10 || (valueDigits.length === 11 && valueDigits.startsWith('1'));
  let pattern = text.replace(/\d/g, '#');
  if (textDigits.length === 11 && textDigits.startsWith('1') && northAmerican) {
    pattern = pattern.replace('#', '1');
  }
  return [[{ kind: 'phone', pattern }]];
}
