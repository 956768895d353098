import OpenAI from 'openai';
import type { Page } from 'playwright';

/**
 * A minimal computer-use agent, written as a team that owns its own agent writes one (OpenAI's
 * sample loop): the real `openai` client, Playwright to act and to take screenshots, every pending
 * safety check echoed back. Two client styles: the whole conversation sent every turn, or only the
 * new output with `previous_response_id`. It knows nothing of rote but the base URL and a header.
 */
export type ToolForm = 'preview' | 'batch';
export type ClientStyle = 'full' | 'previous';
export type LoopOptions = {
  task: string;
  params: Record<string, string>;
  form: ToolForm;
  style: ClientStyle;
  stream?: boolean;
  maxTurns?: number;
  /** Send a screenshot with the task, as some agents do, so the model can act at once. */
  firstScreenshot?: boolean;
  /** Called before each action is done, with the Rote-Cache of the answer that carried it (a probe judges served actions here). */
  beforeAction?: (action: Record<string, unknown>, cache: string) => Promise<void>;
};
export type LoopResult = {
  /** Rote-Cache of each answer, in order. */
  caches: string[];
  reasons: string[];
  /** The actions done, in order. */
  actions: Record<string, unknown>[];
  /** The final message's text. */
  answer: string;
  /** The responses as the client got them. */
  responses: OpenAI.Responses.Response[];
  /** The screenshots the client sent, as PNG bytes. */
  screenshots: Buffer[];
};

export const DISPLAY = { width: 1024, height: 640 };

export async function computerUseLoop(proxyUrl: string, apiKey: string, page: Page, options: LoopOptions): Promise<LoopResult> {
  const caches: string[] = [];
  const reasons: string[] = [];
  const client = new OpenAI({
    baseURL: `${proxyUrl}/v1`,
    apiKey,
    maxRetries: 0,
    fetch: async (url, init) => {
      const response = await fetch(url, init);
      caches.push(response.headers.get('rote-cache') ?? '');
      reasons.push(response.headers.get('rote-reason') ?? '');
      return response;
    },
  });
  const tools = options.form === 'preview' ? [{ type: 'computer_use_preview' as const, display_width: DISPLAY.width, display_height: DISPLAY.height, environment: 'browser' as const }] : [{ type: 'computer' } as unknown as OpenAI.Responses.Tool];
  const headers = { 'Rote-Params': JSON.stringify(options.params) };
  const ask = async (body: Record<string, unknown>): Promise<OpenAI.Responses.Response> => {
    const request = { model: options.form === 'preview' ? 'computer-use-preview' : 'gpt-5.4', tools, truncation: 'auto', ...body } as OpenAI.Responses.ResponseCreateParamsNonStreaming;
    if (!options.stream) return client.responses.create(request, { headers });
    return client.responses.stream(request as unknown as OpenAI.Responses.ResponseCreateParamsStreaming, { headers }).finalResponse();
  };
  const screenshots: Buffer[] = options.firstScreenshot ? [await page.screenshot()] : [];
  const history: OpenAI.Responses.ResponseInputItem[] = [
    options.firstScreenshot ? { role: 'user', content: [{ type: 'input_text', text: options.task }, { type: 'input_image', image_url: `data:image/png;base64,${screenshots[0]!.toString('base64')}`, detail: 'auto' }] } : { role: 'user', content: options.task },
  ];
  const actions: Record<string, unknown>[] = [];
  const responses: OpenAI.Responses.Response[] = [];
  let response = await ask({ input: history });
  for (let turn = 0; turn < (options.maxTurns ?? 30); turn++) {
    responses.push(response);
    const call = response.output.find((item): item is OpenAI.Responses.ResponseComputerToolCall => item.type === 'computer_call');
    if (!call) return { caches, reasons, actions, answer: response.output_text, responses, screenshots };
    const batch = ((call as unknown as { actions?: Record<string, unknown>[] }).actions ?? [call.action]) as Record<string, unknown>[];
    for (const action of batch) {
      await options.beforeAction?.(action, caches.at(-1) ?? '');
      await act(page, action);
      actions.push(action);
    }
    const screenshot = await page.screenshot();
    screenshots.push(screenshot);
    const output: OpenAI.Responses.ResponseInputItem = {
      type: 'computer_call_output',
      call_id: call.call_id,
      // The page's URL inside the output, as OpenAI's sample app sends it.
      output: { type: 'computer_screenshot', image_url: `data:image/png;base64,${screenshot.toString('base64')}`, current_url: page.url() },
      acknowledged_safety_checks: call.pending_safety_checks.map((check) => ({ id: check.id, code: check.code ?? null, message: check.message ?? null })),
    } as OpenAI.Responses.ResponseInputItem;
    if (options.style === 'previous') response = await ask({ previous_response_id: response.id, input: [output] });
    else {
      history.push(...(response.output as OpenAI.Responses.ResponseInputItem[]), output);
      response = await ask({ input: history });
    }
  }
  throw new Error(`the agent did not finish in ${options.maxTurns ?? 30} turns`);
}

const KEYS: Record<string, string> = { ENTER: 'Enter', TAB: 'Tab', ESC: 'Escape', ESCAPE: 'Escape', BACKSPACE: 'Backspace', CTRL: 'Control', SHIFT: 'Shift', ALT: 'Alt', SPACE: ' ' };

async function act(page: Page, action: Record<string, unknown>): Promise<void> {
  const x = Number(action.x);
  const y = Number(action.y);
  switch (action.type) {
    case 'click':
      await page.mouse.click(x, y, { button: (action.button as 'left' | 'right' | 'middle' | undefined) ?? 'left' });
      break;
    case 'double_click':
      await page.mouse.dblclick(x, y);
      break;
    case 'type':
      await page.keyboard.type(String(action.text));
      break;
    case 'keypress':
      await page.keyboard.press((action.keys as string[]).map((key) => KEYS[key.toUpperCase()] ?? key).join('+'));
      break;
    case 'scroll':
      await page.mouse.move(x, y);
      await page.mouse.wheel(Number(action.scroll_x ?? 0), Number(action.scroll_y ?? 0));
      break;
    case 'move':
      await page.mouse.move(x, y);
      break;
    case 'wait':
      await page.waitForTimeout(300);
      break;
    case 'screenshot':
      break;
    default:
      throw new Error(`the loop does not know the action ${String(action.type)}`);
  }
  // A form post navigates: the next screenshot is of the page it led to (as sample loops do, a short pause first).
  await page.waitForTimeout(150);
  await page.waitForLoadState('load');
}
