/**
 * The scans of one screen, one call at a time. A scanner may send the next code before the last one's answer
 * is back: that code waits its turn instead of being lost. A bare Enter while a call is on its way is the
 * second half of a fast double Enter and is dropped, so nothing is ever submitted twice. A refusal clears what
 * waits, so nothing is scanned on past a red message.
 */
export class ScanQueue {
  private running = false;
  private pending: string[] = [];

  constructor(private readonly run: (code: string) => Promise<void>) {}

  get busy() {
    return this.running;
  }

  push(code: string): void {
    if (this.running) {
      if (code.trim()) this.pending.push(code);
      return;
    }
    this.running = true;
    void this.drain(code);
  }

  clear(): void {
    this.pending = [];
  }

  private async drain(first: string) {
    try {
      let next: string | undefined = first;
      while (next !== undefined) {
        try {
          await this.run(next);
        } catch {
          this.pending = [];
        }
        next = this.pending.shift();
      }
    } finally {
      this.running = false;
    }
  }
}
