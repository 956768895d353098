/**
 * Forms filled from values as users have them, unlike the demo apps: a free-text comment whose
 * words also stand in the task, one- and two-character values, dates, times and amounts given in
 * the user's own formats and typed into native and text inputs the way each field takes them,
 * yes/no given as Yes, true, on or 1, and selects whose labels differ from the values given.
 *
 * Each page carries an oracle (window.__plan, reading only the live DOM and the data-* hints rote
 * never reads) that does what a person would: it reads each value the way the user wrote it
 * (data-given) and types it the way the field takes it (data-typed).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { formFields, listenLocal, readBody, redirect, requestTarget, sendHtml } from '../../src/demo/app/http.js';

export type FormSubmission = { page: string; fields: Record<string, string> };

/** How the user writes a value: read by the oracle into ISO date, 24-hour time, plain number or yes/no. */
export type GivenKind = 'text' | 'mdy' | 'dmy' | 'ymd' | 'mon' | 'iso' | '12h' | '24h' | 'grouped' | 'yesno';
/** How a text field wants a value typed; native date and time inputs are typed as a person in en-US would. */
export type TypedKind = 'as-given' | 'mdy' | 'dmy.' | 'iso' | '12h' | 'plain';

type Field =
  | { name: string; label: string; control: 'text' | 'password' | 'textarea'; given?: GivenKind; typed?: TypedKind }
  | { name: string; label: string; control: 'date' | 'time'; given: GivenKind }
  /** A native datetime-local: a date given as `given` and a time (12- or 24-hour) after it, typed segment by segment. */
  | { name: string; label: string; control: 'datetime-local'; given: GivenKind }
  /** A text field with a calendar that opens beside it (as jQuery UI's): the value is typed as given. */
  | { name: string; label: string; control: 'picker'; given: GivenKind }
  /** `commit: 'enter'`: the option is typed into the list the click opened and taken with Enter, as computer-use models do. */
  | { name: string; label: string; control: 'select'; given: GivenKind; options: { value: string; label: string }[]; commit?: 'enter' }
  | { name: string; label: string; control: 'checkbox'; given: GivenKind };

/** `echo`: the page after saving shows the values in its URL, as many old apps' GET-after-POST do. */
type FormPage = { title: string; submit: string; fields: Field[]; echo?: boolean };

/** A visit booked with a native date, a native time and a text field with a picker, dates and times given as `date` and `time`. */
function visitPage(date: GivenKind, time: GivenKind): FormPage {
  return {
    title: 'Schedule a visit',
    submit: 'Schedule',
    fields: [
      { name: 'patient', label: 'Patient', control: 'text' },
      { name: 'visitDate', label: 'Visit date', control: 'date', given: date },
      { name: 'visitTime', label: 'Visit time', control: 'time', given: time },
      { name: 'followUp', label: 'Follow-up on', control: 'picker', given: date },
      { name: 'checkIn', label: 'Check-in', control: 'datetime-local', given: date },
      { name: 'room', label: 'Room', control: 'text' },
    ],
  };
}

/** A long application form: fourteen text fields and a native birth date given month first. */
const APPLICATION: FormPage = {
  title: 'Membership application',
  submit: 'Send application',
  fields: [
    ...['First name', 'Last name', 'Email', 'Phone', 'Street', 'City', 'Postcode'].map((label): Field => ({ name: camel(label), label, control: 'text' })),
    { name: 'birthDate', label: 'Date of birth', control: 'date', given: 'mdy' },
    ...['Employer', 'Position', 'Years employed', 'Referee', 'Referee phone', 'Club', 'Remarks'].map((label): Field => ({ name: camel(label), label, control: 'text' })),
  ],
};

function camel(label: string): string {
  return label.toLowerCase().replace(/ (\w)/g, (_whole, letter: string) => letter.toUpperCase());
}

export const FORM_PAGES: Record<string, FormPage> = {
  'visit-ymd': visitPage('ymd', '12h'),
  'visit-mdy': visitPage('mdy', '24h'),
  'visit-dmy': visitPage('dmy', '12h'),
  application: APPLICATION,
  contact: {
    title: 'Contact us',
    submit: 'Send',
    fields: [
      { name: 'name', label: 'Your name', control: 'text' },
      { name: 'comment', label: 'Comment', control: 'textarea' },
    ],
  },
  login: {
    title: 'Sign in',
    submit: 'Log in',
    fields: [
      { name: 'username', label: 'Username', control: 'text' },
      { name: 'password', label: 'Password', control: 'password' },
    ],
  },
  booking: {
    title: 'Room booking',
    submit: 'Book',
    fields: [
      { name: 'date', label: 'Date', control: 'date', given: 'mdy' },
      { name: 'time', label: 'Time', control: 'time', given: '12h' },
      { name: 'arrival', label: 'Arrival', control: 'date', given: 'dmy' },
      { name: 'newsletter', label: 'Newsletter', control: 'select', given: 'yesno', options: [{ value: '', label: 'Choose' }, { value: 'Y', label: 'Yes' }, { value: 'N', label: 'No' }] },
      { name: 'reminders', label: 'Send reminders', control: 'checkbox', given: 'yesno' },
      { name: 'country', label: 'Country', control: 'select', given: 'text', options: [{ value: '', label: 'Choose' }, { value: 'DE', label: 'Germany' }, { value: 'FR', label: 'France' }, { value: 'PT', label: 'Portugal' }, { value: 'US', label: 'United States' }] },
    ],
  },
  shipping: {
    title: 'Shipping address',
    submit: 'Save address',
    fields: [
      { name: 'holder', label: 'Name', control: 'text' },
      { name: 'state', label: 'State', control: 'select', given: 'text', commit: 'enter', options: [{ value: '', label: '--' }, ...['Iowa', 'Maine', 'Ohio', 'Texas', 'Utah'].map((state) => ({ value: state, label: state }))] },
      { name: 'city', label: 'City', control: 'text' },
    ],
  },
  legacy: {
    title: 'Payment order',
    submit: 'Submit',
    echo: true,
    fields: [
      { name: 'start', label: 'Start date (MM/DD/YYYY)', control: 'text', given: 'ymd', typed: 'mdy' },
      { name: 'due', label: 'Due date (DD.MM.YYYY)', control: 'text', given: 'mon', typed: 'dmy.' },
      { name: 'opening', label: 'Opening time', control: 'text', given: '24h', typed: '12h' },
      { name: 'amount', label: 'Amount', control: 'text', given: 'grouped', typed: 'plain' },
    ],
  },
};

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function control(field: Field): string {
  const id = `f_${field.name}`;
  const hints = `data-hint="${field.name}" data-given="${field.given ?? 'text'}" data-control="${field.control}"${'typed' in field && field.typed ? ` data-typed="${field.typed}"` : ''}${'commit' in field && field.commit ? ` data-commit="${field.commit}"` : ''}`;
  switch (field.control) {
    case 'text':
    case 'password':
      return `<label for="${id}">${escape(field.label)}</label><input id="${id}" type="${field.control}" name="${field.name}" ${hints}>`;
    case 'textarea':
      return `<label for="${id}">${escape(field.label)}</label><textarea id="${id}" name="${field.name}" rows="3" ${hints}></textarea>`;
    case 'date':
    case 'time':
    case 'datetime-local':
      return `<label for="${id}">${escape(field.label)}</label><input id="${id}" type="${field.control}" name="${field.name}" ${hints}>`;
    case 'picker':
      return `<label for="${id}">${escape(field.label)}</label><input id="${id}" type="text" name="${field.name}" autocomplete="off" data-picker ${hints} data-typed="as-given">`;
    case 'select':
      return `<label for="${id}">${escape(field.label)}</label><select id="${id}" name="${field.name}" ${hints}>${field.options.map((option) => `<option value="${escape(option.value)}">${escape(option.label)}</option>`).join('')}</select>`;
    case 'checkbox':
      return `<input id="${id}" type="checkbox" name="${field.name}" value="yes" ${hints}><label for="${id}">${escape(field.label)}</label>`;
  }
}

/** The oracle: reads each value the way the user gave it and fixes the first field that does not hold it yet. */
const ORACLE = `<script>
(function () {
  var MONTHS = ['jan','feb','mar','apr','may','jun','jul','aug','sep','oct','nov','dec'];
  var pad = function (n) { return (n < 10 ? '0' : '') + n; };
  function iso(y, m, d) { return y + '-' + pad(m) + '-' + pad(d); }
  function read(value, given) {
    var m;
    switch (given) {
      case 'mdy': m = /^(\\d{1,2})\\/(\\d{1,2})\\/(\\d{4})$/.exec(value); return m && iso(+m[3], +m[1], +m[2]);
      case 'dmy': m = /^(\\d{1,2})[.\\/](\\d{1,2})[.\\/](\\d{4})$/.exec(value); return m && iso(+m[3], +m[2], +m[1]);
      case 'ymd': m = /^(\\d{4})\\/(\\d{1,2})\\/(\\d{1,2})$/.exec(value); return m && iso(+m[1], +m[2], +m[3]);
      case 'mon': m = /^([A-Za-z]{3})[a-z]*\\.? (\\d{1,2}),? (\\d{4})$/.exec(value); return m && iso(+m[3], MONTHS.indexOf(m[1].toLowerCase()) + 1, +m[2]);
      case '12h': m = /^(\\d{1,2}):(\\d{2}) ?([AaPp])[Mm]$/.exec(value); return m && pad((+m[1] % 12) + (/p/i.test(m[3]) ? 12 : 0)) + ':' + m[2];
      case 'grouped': return value.replace(/[,$]/g, '');
      case 'yesno': return /^(yes|true|on|1|y)$/i.test(value) ? 'yes' : 'no';
      default: return value;
    }
  }
  function typed(canonical, as) {
    var p = canonical.split(/[-:]/);
    switch (as) {
      case 'mdy': return p[1] + '/' + p[2] + '/' + p[0];
      case 'dmy.': return p[2] + '.' + p[1] + '.' + p[0];
      case '12h': var h = +p[0]; return ((h % 12) || 12) + ':' + p[1] + ' ' + (h < 12 ? 'AM' : 'PM');
      // Chromium's time input takes its segments' digits and the AM/PM letter, not ':' or a space.
      case 'native-time': var k = +p[0]; return pad((k % 12) || 12) + p[1] + (k < 12 ? 'AM' : 'PM');
      default: return canonical;
    }
  }
  function centre(el) { var r = el.getBoundingClientRect(); return { x: Math.round(r.x + r.width / 2), y: Math.round(r.y + r.height / 2) }; }
  function click(el, intent, more) { var c = centre(el); return { actions: [{ type: 'click', x: c.x, y: c.y }].concat(more || []), intent: intent }; }
  window.__plan = function (params) {
    if (document.getElementById('saved')) return { done: true, answer: 'Saved' };
    var fields = document.querySelectorAll('[data-hint]');
    for (var i = 0; i < fields.length; i++) {
      var el = fields[i], name = el.getAttribute('data-hint');
      if (!(name in params)) continue;
      var canonical = read(params[name], el.getAttribute('data-given'));
      var kind = el.getAttribute('data-control');
      if (kind === 'checkbox') { if (el.checked !== (canonical === 'yes')) return click(el, 'Set ' + name); continue; }
      if (kind === 'select') {
        var want = null;
        for (var j = 0; j < el.options.length; j++) {
          var o = el.options[j];
          if (o.value === '') continue;
          var word = o.label.toLowerCase();
          if (el.getAttribute('data-given') === 'yesno' ? word === canonical : (o.value.toLowerCase() === canonical.toLowerCase() || word === canonical.toLowerCase())) want = o;
        }
        if (!want) return { done: true, answer: 'No option for ' + name };
        var commit = el.getAttribute('data-commit') === 'enter' ? [{ type: 'keypress', keys: ['ENTER'] }] : [];
        if (el.value !== want.value) return click(el, 'Choose ' + name, [{ type: 'type', text: want.label }].concat(commit));
        continue;
      }
      if (kind === 'datetime-local') {
        // Chromium's datetime-local takes the date's digits, then (its year taking up to six) an arrow to the time's.
        var dt = /^(.*?)[ ,T]+(\\d{1,2}:\\d{2}\\s*(?:[AaPp][Mm])?)$/.exec(params[name]);
        var day = dt && read(dt[1], el.getAttribute('data-given'));
        var hour = dt && read(dt[2], /[ap]m/i.test(dt[2]) ? '12h' : '24h');
        if (!day || !hour) return { done: true, answer: 'Cannot read ' + name };
        if (el.value !== day + 'T' + hour) {
          var d = day.split('-'), box = el.getBoundingClientRect();
          // At the month, its first segment: a click in the middle lands on a later one.
          return { intent: 'Fill ' + name, actions: [{ type: 'click', x: Math.round(box.x + 12), y: Math.round(box.y + box.height / 2) }, { type: 'type', text: d[1] + d[2] + d[0] }, { type: 'keypress', keys: ['ARROWRIGHT'] }, { type: 'type', text: typed(hour, 'native-time') }] };
        }
        continue;
      }
      if (kind === 'date' || kind === 'time') {
        if (el.value !== canonical) return click(el, 'Fill ' + name, [{ type: 'type', text: typed(canonical, kind === 'date' ? 'mdy' : 'native-time') }]);
        continue;
      }
      var as = el.getAttribute('data-typed');
      var text = as && as !== 'as-given' ? typed(canonical, as) : params[name];
      if (el.value !== text) return click(el, 'Fill ' + name, (el.value ? [{ type: 'keypress', keys: ['CTRL', 'A'] }] : []).concat([{ type: 'type', text: text }]));
    }
    return click(document.getElementById('submit'), 'Submit the form');
  };
})();
</script>`;

/**
 * A calendar that opens beside a picker field while it has the focus (a month of day buttons, as
 * jQuery UI's datepicker), and closes when the focus leaves. Typing works as in any text field.
 */
const PICKER = `<script>
(function () {
  var calendar = document.createElement('div');
  calendar.id = 'calendar';
  calendar.style.cssText = 'position:absolute;display:none;background:#fff;border:1px solid #888;padding:4px;font:12px Tahoma;box-shadow:2px 2px 6px #aaa';
  var head = document.createElement('div'); head.textContent = 'September 2024'; calendar.appendChild(head);
  for (var d = 1; d <= 30; d++) { var b = document.createElement('button'); b.type = 'button'; b.textContent = d; b.style.cssText = 'width:26px;margin:1px'; calendar.appendChild(b); if (d % 7 === 0) calendar.appendChild(document.createElement('br')); }
  document.body.appendChild(calendar);
  document.querySelectorAll('[data-picker]').forEach(function (field) {
    field.addEventListener('focus', function () { var r = field.getBoundingClientRect(); calendar.style.left = (r.right + 12 + window.scrollX) + 'px'; calendar.style.top = (r.top + window.scrollY) + 'px'; calendar.style.display = 'block'; });
    field.addEventListener('blur', function () { setTimeout(function () { calendar.style.display = 'none'; }, 100); });
  });
})();
</script>`;

function formPage(page: FormPage, path: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escape(page.title)}</title>
<style>body { font: 14px Tahoma, Arial, sans-serif; margin: 18px; background: #fbfaf5; } form div { margin: 6px 0; } label { display: inline-block; width: 190px; } input[type=checkbox] + label { width: auto; margin-left: 6px; } input, textarea, select { font: 14px Tahoma, Arial, sans-serif; width: 240px; } input[type=checkbox] { width: auto; }</style>
</head><body><h2>${escape(page.title)}</h2><form method="post" action="/${path}">${page.fields.map((field) => `<div>${control(field)}</div>`).join('')}<button type="submit" id="submit">${escape(page.submit)}</button></form>${ORACLE}${page.fields.some((field) => field.control === 'picker') ? PICKER : ''}</body></html>`;
}

function savedPage(fields: Record<string, string>): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>Saved</title></head><body><p id="saved">Saved.</p><dl>${Object.entries(fields).map(([k, v]) => `<dt>${escape(k)}</dt><dd>${escape(v)}</dd>`).join('')}</dl>${ORACLE}</body></html>`;
}

export type FormatsApp = { url(path: string): string; readonly submissions: FormSubmission[]; close(): Promise<void> };

export async function startFormatsApp(): Promise<FormatsApp> {
  const submissions: FormSubmission[] = [];
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { method, path } = requestTarget(req);
    const name = path.slice(1);
    if (method === 'POST' && FORM_PAGES[name]) {
      const fields = formFields(await readBody(req, 64 * 1024));
      submissions.push({ page: name, fields });
      return redirect(res, 303, FORM_PAGES[name]!.echo ? `/saved?${new URLSearchParams(fields).toString()}` : '/saved');
    }
    if (path === '/saved') return sendHtml(res, 200, savedPage(submissions.at(-1)?.fields ?? {}));
    const page = FORM_PAGES[name];
    if (!page) return sendHtml(res, 404, '<p>Not found</p>');
    return sendHtml(res, 200, formPage(page, name));
  }
  const server = await listenLocal(handle);
  return { url: (path) => `${server.origin}${path}`, submissions, close: server.close };
}
