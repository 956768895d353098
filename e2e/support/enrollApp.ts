import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A legacy-style enrollment form whose fields never take a value the way it is given: a date
 * typed as MM/DD/YYYY, a time in 12-hour form, selects whose labels differ from the values, a
 * customer picked by clicking their name in a table, a checkbox, and a field that already holds
 * a default. Served on 127.0.0.1; every submission is kept for the test to check.
 */
export type Enrollment = Record<string, string>;
export type EnrollApp = { url: string; submissions: Enrollment[]; close(): Promise<void> };

export const CUSTOMERS = ['Ann Lee', 'Bob Stone', 'Cara Diaz'];

function formPage(): string {
  const rows = CUSTOMERS.map((name) => `<tr><td><a href="#" data-customer="${name}">${name}</a></td><td>Active</td></tr>`).join('');
  return `<!doctype html><html><head><title>Enrollment</title>
<style>body{font:15px sans-serif;margin:16px} label{display:block;margin:8px 0} input,select{font:15px sans-serif;margin-left:8px} table{border-collapse:collapse} td{border:1px solid #999;padding:4px 10px}</style></head>
<body><h1>Enrollment</h1>
<table aria-label="Customers"><tbody>${rows}</tbody></table>
<p id="picked">Selected customer: none</p>
<form method="post" action="/enroll">
<input type="hidden" name="customer" id="customer">
<label>Date of birth <input name="dob" placeholder="MM/DD/YYYY"></label>
<label>Appointment <input name="appointment" placeholder="h:mm AM/PM"></label>
<label>State <select name="state"><option value="">Choose</option><option value="CA">California</option><option value="NY">New York</option><option value="TX">Texas</option></select></label>
<label>Employment <select name="employment"><option value="">Choose</option><option value="ft">Full time</option><option value="pt">Part time</option></select></label>
<label>Shift <select name="shift"><option value="">Choose</option><option value="m">Morning (6-12)</option><option value="a">Afternoon (12-6 PM)</option><option value="e">Evening (6-9 PM)</option></select></label>
<label><input type="checkbox" name="newsletter" value="yes"> Newsletter</label>
<label>Country <input name="country" value="USA"></label>
<button type="submit">Submit</button>
</form>
<script>
document.querySelectorAll('a[data-customer]').forEach(function (a) {
  a.addEventListener('click', function (event) {
    event.preventDefault();
    document.getElementById('customer').value = a.dataset.customer;
    document.getElementById('picked').textContent = 'Selected customer: ' + a.dataset.customer;
  });
});
</script></body></html>`;
}

/** Native date and time inputs, whose typed segments follow the browser's locale. */
function datesPage(): string {
  return `<!doctype html><html><head><title>Schedule</title><style>body{font:15px sans-serif;margin:16px} label{display:block;margin:10px 0}</style></head>
<body><h1>Schedule</h1><form method="post" action="/enroll">
<label>Start date <input type="date" name="start"></label>
<label>Start time <input type="time" name="at"></label>
<button type="submit">Submit</button></form></body></html>`;
}

export async function startEnrollApp(): Promise<EnrollApp> {
  const submissions: Enrollment[] = [];
  const server: Server = createServer((req, res) => {
    if (req.method === 'POST' && req.url === '/enroll') {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        submissions.push(Object.fromEntries(new URLSearchParams(body)));
        res.writeHead(303, { location: '/done' }).end();
      });
      return;
    }
    if (req.url === '/dates') return void res.writeHead(200, { 'content-type': 'text/html' }).end(datesPage());
    if (req.url === '/done') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Saved</title><h1>Saved</h1>');
    res.writeHead(200, { 'content-type': 'text/html' }).end(formPage());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/enroll`;
  return { url, submissions, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
