/**
 * Forms where a value reaches the page in pieces or nearly alike, unlike the demo apps and the
 * formats corpus: a blood group select whose options fold alike (A+ and A-), a date of birth split
 * into a month select and day and year fields, a time split into a text and an AM/PM select, a
 * count select whose 0 and 1 look like a yes/no, and a PIN that happens to stand inside a date the
 * form always gets. A replay must never submit the old piece, the look-alike option or the PIN
 * spliced into the date; where it cannot tell, it hands over.
 *
 * Each page carries an oracle (window.__plan, reading the live DOM and data-hint attributes rote
 * never reads) that does what a person would.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { formFields, listenLocal, readBody, redirect, requestTarget, sendHtml } from '../../src/demo/app/http.js';

export type PartsSubmission = { page: string; fields: Record<string, string> };

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const BLOOD_GROUPS = ['A+', 'A-', 'B+', 'B-', 'AB+', 'AB-', 'O+', 'O-'];

const STYLE = `<style>body { font: 13px Verdana, sans-serif; margin: 16px; background: #f4f6f0; } td { padding: 3px 6px; } input, select { font: 13px Verdana, sans-serif; }</style>`;

/** The oracle's helpers: a click at an element's centre, then optional more actions. */
const HELPERS = `
  function centre(el) { var r = el.getBoundingClientRect(); return { x: Math.round(r.x + r.width / 2), y: Math.round(r.y + r.height / 2) }; }
  function click(el, intent, more) { var c = centre(el); return { actions: [{ type: 'click', x: c.x, y: c.y }].concat(more || []), intent: intent }; }
  function fill(el, text, intent) { return click(el, intent, (el.value ? [{ type: 'keypress', keys: ['CTRL', 'A'] }] : []).concat([{ type: 'type', text: text }])); }
  function choose(el, label, intent) { return click(el, intent, [{ type: 'type', text: label }]); }
  function hint(name) { return document.querySelector('[data-hint="' + name + '"]'); }
  function chosenLabel(el) { return el.selectedIndex >= 0 ? el.options[el.selectedIndex].label : ''; }
`;

const PAGES: Record<string, { title: string; body: string; plan: string }> = {
  blood: {
    title: 'Transfusion record',
    body: `<table>
<tr><td>Patient</td><td><input name="patient" data-hint="patient"></td></tr>
<tr><td>Blood group</td><td><select name="group" data-hint="bloodGroup"><option value="">--</option>${BLOOD_GROUPS.map((group, i) => `<option value="${i + 1}">${group}</option>`).join('')}</select></td></tr>
<tr><td>Units</td><td><input name="units" size="3" data-hint="units"></td></tr>
</table>`,
    plan: `function (params) {
      var patient = hint('patient'), group = hint('bloodGroup'), units = hint('units');
      if (patient.value !== params.patient) return fill(patient, params.patient, 'Enter the patient');
      if (units.value !== params.units) return fill(units, params.units, 'Enter the units');
      // A person reads a typographic minus as a minus.
      var want = params.bloodGroup.replace(/\\u2212/g, '-').toUpperCase();
      if (chosenLabel(group) !== want) return choose(group, want, 'Choose the blood group');
      return null;
    }`,
  },
  visit: {
    title: 'Clinic visit',
    body: `<table>
<tr><td>Patient</td><td><input name="patient" data-hint="patient"></td></tr>
<tr><td>Date of birth</td><td><select name="month" data-hint="month"><option value="">Month</option>${MONTHS.map((month, i) => `<option value="${i + 1}">${month}</option>`).join('')}</select>
 <input name="day" size="2" placeholder="DD" data-hint="day"> <input name="year" size="4" placeholder="YYYY" data-hint="year"></td></tr>
<tr><td>Appointment</td><td><input name="time" size="5" placeholder="hh:mm" data-hint="time"> <select name="ampm" data-hint="ampm"><option>AM</option><option>PM</option></select></td></tr>
</table>`,
    plan: `function (params) {
      // dob as the user gives it: MM/DD/YYYY; the time as h:mm AM.
      var d = /^(\\d{1,2})\\/(\\d{1,2})\\/(\\d{4})$/.exec(params.dob), t = /^(\\d{1,2}:\\d{2}) ?([AP]M)$/i.exec(params.at);
      var months = ${JSON.stringify(MONTHS)};
      var patient = hint('patient'), month = hint('month'), day = hint('day'), year = hint('year'), time = hint('time'), ampm = hint('ampm');
      if (patient.value !== params.patient) return fill(patient, params.patient, 'Enter the patient');
      if (chosenLabel(month) !== months[+d[1] - 1]) return choose(month, months[+d[1] - 1], 'Choose the month of birth');
      if (day.value !== String(+d[2])) return fill(day, String(+d[2]), 'Enter the day of birth');
      if (year.value !== d[3]) return fill(year, d[3], 'Enter the year of birth');
      if (time.value !== t[1]) return fill(time, t[1], 'Enter the appointment time');
      if (chosenLabel(ampm) !== t[2].toUpperCase()) return choose(ampm, t[2].toUpperCase(), 'Choose AM or PM');
      return null;
    }`,
  },
  household: {
    title: 'Household',
    body: `<table>
<tr><td><label for="applicant">Applicant</label></td><td><input id="applicant" name="applicant" data-hint="applicant"></td></tr>
<tr><td><label for="children">Children under 18</label></td><td><select id="children" name="children" data-hint="children">${['0', '1', '2', '3'].map((n) => `<option>${n}</option>`).join('')}</select></td></tr>
</table>`,
    plan: `function (params) {
      var applicant = hint('applicant'), children = hint('children');
      if (applicant.value !== params.applicant) return fill(applicant, params.applicant, 'Enter the applicant');
      if (children.value !== params.children) return choose(children, params.children, 'Choose the number of children');
      return null;
    }`,
  },
  order: {
    title: 'Supply order',
    body: `<table>
<tr><td><label for="item">Item</label></td><td><input id="item" name="item" data-hint="item"></td></tr>
<tr><td><label for="quantity">Quantity</label></td><td><input id="quantity" name="quantity" size="3" data-hint="quantity"></td></tr>
<tr><td><label for="delivery">Delivery</label></td><td><input id="delivery" type="date" name="delivery" data-hint="delivery"></td></tr>
</table>`,
    plan: `function (params) {
      // One of each, always: the quantity is no parameter. The delivery date is typed month first.
      var item = hint('item'), quantity = hint('quantity'), delivery = hint('delivery');
      if (item.value !== params.item) return fill(item, params.item, 'Enter the item');
      if (quantity.value !== '1') return fill(quantity, '1', 'Order one');
      var d = /^(\\d{4})-(\\d{2})-(\\d{2})$/.exec(params.delivery);
      if (delivery.value !== params.delivery) { var r = delivery.getBoundingClientRect(); return { actions: [{ type: 'click', x: Math.round(r.x + 6), y: Math.round(r.y + r.height / 2) }, { type: 'type', text: d[2] + '/' + d[3] + '/' + d[1] }], intent: 'Set the delivery date' }; }
      return null;
    }`,
  },
  access: {
    title: 'Access request',
    body: `<table>
<tr><td>PIN</td><td><input type="password" name="pin" data-hint="pin"></td></tr>
<tr><td>Valid from</td><td><input type="date" name="from" data-hint="from"></td></tr>
<tr><td>Reference</td><td><input name="reference" data-hint="reference"></td></tr>
</table>`,
    plan: `function (params) {
      // Every request starts on 1 June 2024 with reference REF-2024-06; the PIN is the user's secret.
      var pin = hint('pin'), from = hint('from'), reference = hint('reference');
      if (pin.value === '') return fill(pin, '{{pin}}', 'Enter the PIN');
      // A native date input is typed from its first segment (the month), as a person clicks it.
      if (from.value !== '2024-06-01') { var r = from.getBoundingClientRect(); return { actions: [{ type: 'click', x: Math.round(r.x + 6), y: Math.round(r.y + r.height / 2) }, { type: 'type', text: '06/01/2024' }], intent: 'Set the start date' }; }
      if (reference.value !== 'REF-2024-06') return fill(reference, 'REF-2024-06', 'Enter the reference');
      return null;
    }`,
  },
};

function formPage(name: string): string {
  const page = PAGES[name]!;
  return `<!doctype html><html><head><meta charset="utf-8"><title>${page.title}</title>${STYLE}</head><body>
<h3>${page.title}</h3><form method="post" action="/${name}">${page.body}<p><button type="submit" id="submit">Save</button></p></form>
<script>(function () { ${HELPERS}
  var plan = ${page.plan};
  window.__plan = function (params) {
    if (document.getElementById('saved')) return { done: true, answer: 'Saved' };
    return plan(params) || click(document.getElementById('submit'), 'Save the form');
  };
})();</script></body></html>`;
}

const SAVED = `<!doctype html><html><head><meta charset="utf-8"><title>Saved</title></head><body><p id="saved">Saved.</p>
<script>window.__plan = function () { return { done: true, answer: 'Saved' }; };</script></body></html>`;

export type PartsApp = { url(path: string): string; readonly submissions: PartsSubmission[]; close(): Promise<void> };

export async function startPartsApp(): Promise<PartsApp> {
  const submissions: PartsSubmission[] = [];
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { method, path } = requestTarget(req);
    const name = path.slice(1);
    if (method === 'POST' && PAGES[name]) {
      const fields = formFields(await readBody(req, 64 * 1024));
      // The blood group travels as its option's code; the server stores what it means.
      if (name === 'blood') fields.group = BLOOD_GROUPS[Number(fields.group) - 1] ?? `?${fields.group}`;
      if (name === 'visit') fields.month = MONTHS[Number(fields.month) - 1] ?? `?${fields.month}`;
      submissions.push({ page: name, fields });
      return redirect(res, 303, '/saved');
    }
    if (path === '/saved') return sendHtml(res, 200, SAVED);
    if (!PAGES[name]) return sendHtml(res, 404, '<p>Not found</p>');
    return sendHtml(res, 200, formPage(name));
  }
  const server = await listenLocal(handle);
  return { url: (path) => `${server.origin}${path}`, submissions, close: server.close };
}
