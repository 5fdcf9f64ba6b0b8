// Serialized restarts: one runs at a time, and requests made while one runs collapse into
// a single follow-up, so a burst of setting changes restarts the server at most twice.

export class SerialRestarter {
  private running: Promise<void> | undefined;
  private pending: Promise<void> | undefined;

  constructor(private readonly restart: () => Promise<void>) {}

  /** Resolves when a restart that began after this call has finished. */
  request(): Promise<void> {
    if (this.pending !== undefined) {
      return this.pending;
    }
    if (this.running === undefined) {
      this.running = this.runOnce();
      return this.running;
    }
    // A failed restart must not block the next one.
    const previous = this.running.catch(() => undefined);
    this.pending = previous.then(() => {
      this.pending = undefined;
      this.running = this.runOnce();
      return this.running;
    });
    return this.pending;
  }

  /** Resolves when no restart is running or queued (whether the last one failed or not). */
  async settled(): Promise<void> {
    while (this.pending !== undefined || this.running !== undefined) {
      await (this.pending ?? this.running)?.catch(() => undefined);
    }
  }

  private async runOnce(): Promise<void> {
    try {
      await this.restart();
    } finally {
      this.running = undefined;
    }
  }
}
