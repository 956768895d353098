/** Collects what the console and the process's stdout and stderr receive between start() and stop(). */
export class OutputCapture {
  readonly text: string[] = [];
  private restore: (() => void) | undefined;

  start(): void {
    const methods = ['log', 'info', 'warn', 'error', 'debug'] as const;
    const saved = methods.map((name) => console[name]);
    const write = { out: process.stdout.write, err: process.stderr.write };
    for (const name of methods) console[name] = (...args: unknown[]) => void this.text.push(`${args.map(String).join(' ')}\n`);
    process.stdout.write = ((chunk: string | Uint8Array) => this.text.push(String(chunk)) > 0) as typeof process.stdout.write;
    process.stderr.write = ((chunk: string | Uint8Array) => this.text.push(String(chunk)) > 0) as typeof process.stderr.write;
    this.restore = () => {
      methods.forEach((name, index) => (console[name] = saved[index]!));
      process.stdout.write = write.out;
      process.stderr.write = write.err;
    };
  }

  stop(): string {
    this.restore?.();
    this.restore = undefined;
    return this.text.join('');
  }
}
