/**
 * The intake form's fields, in form order, and the parameter each one takes. Shared by the
 * pages, the agent, the baseline and verify() so that a field is named in one place only.
 */

/** The states offered by the State select: value = two-letter code, label = full name. */
export const STATES: readonly { code: string; name: string }[] = [
  { code: 'AZ', name: 'Arizona' },
  { code: 'CA', name: 'California' },
  { code: 'CO', name: 'Colorado' },
  { code: 'FL', name: 'Florida' },
  { code: 'GA', name: 'Georgia' },
  { code: 'ID', name: 'Idaho' },
  { code: 'IL', name: 'Illinois' },
  { code: 'MA', name: 'Massachusetts' },
  { code: 'MN', name: 'Minnesota' },
  { code: 'NM', name: 'New Mexico' },
  { code: 'NY', name: 'New York' },
  { code: 'OH', name: 'Ohio' },
  { code: 'OR', name: 'Oregon' },
  { code: 'TX', name: 'Texas' },
  { code: 'UT', name: 'Utah' },
  { code: 'VT', name: 'Vermont' },
];

/** The insurance type radios: value (the parameter) and label. */
export const INSURANCE: readonly { value: string; label: string }[] = [
  { value: 'hmo', label: 'HMO' },
  { value: 'ppo', label: 'PPO' },
  { value: 'none', label: 'None' },
];

export type FieldKind = 'text' | 'textarea' | 'select' | 'radio' | 'checkbox';

export type IntakeField = {
  /** The parameter that gives its value. */
  param: string;
  /** The form control's `name` (and, except for radios, its `id`). */
  name: string;
  /** The label as rendered on the unperturbed page. */
  label: string;
  kind: FieldKind;
};

/** Form order. */
export const FIELDS: readonly IntakeField[] = [
  { param: 'firstName', name: 'first_name', label: 'First name', kind: 'text' },
  { param: 'lastName', name: 'last_name', label: 'Last name', kind: 'text' },
  { param: 'dob', name: 'dob', label: 'Date of birth', kind: 'text' },
  { param: 'street', name: 'street', label: 'Street address', kind: 'text' },
  { param: 'city', name: 'city', label: 'City', kind: 'text' },
  { param: 'state', name: 'state', label: 'State', kind: 'select' },
  { param: 'zip', name: 'zip', label: 'ZIP code', kind: 'text' },
  { param: 'phone', name: 'phone', label: 'Phone', kind: 'text' },
  { param: 'email', name: 'email', label: 'Email', kind: 'text' },
  { param: 'insurance', name: 'insurance', label: 'Insurance type', kind: 'radio' },
  { param: 'smsReminders', name: 'sms_reminders', label: 'SMS reminders', kind: 'checkbox' },
  { param: 'emailNewsletter', name: 'email_newsletter', label: 'Email newsletter', kind: 'checkbox' },
  { param: 'notes', name: 'notes', label: 'Notes', kind: 'textarea' },
];

/** What a checked checkbox posts. */
export const CHECKED_VALUE = 'yes';

/** The label the renamedLabel perturbation changes, and what it becomes. */
export const RENAMED_LABEL = { name: 'phone', from: 'Phone', to: 'Phone number' } as const;

/** The required checkbox of the requiredField perturbation. */
export const CONFIRM_FIELD = { name: 'confirm_correct', label: 'I confirm the information above is correct' } as const;

/** The stored form of a parameter value: what the server must have received for it. */
export function expectedFieldValue(field: IntakeField, value: string | boolean): string | undefined {
  switch (field.kind) {
    case 'checkbox':
      return value === true || value === 'true' ? CHECKED_VALUE : undefined;
    case 'select': {
      const text = String(value);
      const state = STATES.find((s) => s.name.toLowerCase() === text.toLowerCase() || s.code.toLowerCase() === text.toLowerCase());
      return state ? state.code : text;
    }
    case 'radio':
      return String(value).toLowerCase();
    case 'text':
    case 'textarea':
      return String(value);
  }
}
