import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import type { ToolFunction } from '../../src/tools/toolRegistry.js';
import { test } from '../fixtures.js';

/** A tiny bank for the custom-tool specs, on 127.0.0.1. */
export const BANK_TASK = 'Pay {{amount}} from the account';

// Absolutely placed, so the scripted agent clicks by coordinates.
export const PAY = { x: 20, y: 230 };
const place = (top: number) => `position:absolute;left:20px;top:${top}px;width:220px;height:30px;box-sizing:border-box;margin:0`;

export type Payment = { amount: string; pin: string };
export type BankApp = { url: string; accountType: string; balance: number; limit: number; payments: Payment[]; close(): Promise<void> };

function accountPage(app: BankApp): string {
  return `<!doctype html><html><head><title>Account</title></head><body style="margin:0;font:16px sans-serif">
<p id="type" style="${place(10)}">${app.accountType}</p>
<p id="balance" style="${place(45)}">${app.balance}</p>
<form method="post" action="/pay">
<input name="amount" aria-label="Amount" style="${place(80)}">
<input name="pin" type="password" aria-label="PIN" style="${place(130)}">
<span id="warning" style="${place(180)};display:block"></span>
<button type="submit" style="${place(PAY.y)}">Pay</button>
</form>
<script>
var amount = document.querySelector('input[name=amount]');
amount.addEventListener('input', function () { document.getElementById('warning').textContent = Number(amount.value) > ${app.limit} ? 'Over the limit' : ''; });
</script></body></html>`;
}

/** A tiny bank on 127.0.0.1: the account page shows its type and balance, and a payment form. */
async function startBank(): Promise<BankApp> {
  const app = { accountType: 'Checking', balance: 1200, limit: 1000, payments: [] as Payment[] } as BankApp;
  const server: Server = createServer((req, res) => {
    if (req.method === 'POST' && req.url === '/pay') {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const form = new URLSearchParams(body);
        app.payments.push({ amount: form.get('amount') ?? '', pin: form.get('pin') ?? '' });
        res.writeHead(303, { location: '/paid' }).end();
      });
      return;
    }
    if (req.url === '/paid') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><h1>Paid</h1>');
    res.writeHead(200, { 'content-type': 'text/html' }).end(accountPage(app));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  app.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/account`;
  app.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return app;
}

export const bankTest = test.extend<{ bank: BankApp; openAccount: () => Promise<Page> }>({
  bank: async ({}, use) => {
    const bank = await startBank();
    await use(bank);
    await bank.close();
  },
  openAccount: async ({ context, bank }, use) => {
    await use(async () => {
      const page = await context.newPage();
      await page.goto(bank.url);
      return page;
    });
  },
});

/** The "API" behind the tool: it fills the form from the arguments, and reads the balance back. */
export function fillPayment(calls: Record<string, unknown>[], failure?: { message: string | undefined }): ToolFunction {
  return async (args, { page }) => {
    calls.push(args);
    if (failure?.message) throw new Error(failure.message);
    await page.fill('input[name=amount]', String(args.amount));
    if (typeof args.pin === 'string') await page.fill('input[name=pin]', args.pin);
    return { balance: Number(await page.textContent('#balance')) };
  };
}
