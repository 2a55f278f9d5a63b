import { Logger, OnApplicationBootstrap, OnModuleDestroy, OnModuleInit } from '@nestjs/common';

/**
 * A repair that runs once at start-up (awaited, so the app serves after it) and then every
 * `everyMs`; concurrent calls share one pass. A failed pass is logged; the next one tries again.
 * The start-up pass begins when its module is initialised and is awaited at bootstrap, so that the
 * repairs of all modules run at the same time (Nest awaits each module's bootstrap in turn).
 */
export abstract class PeriodicPass<Result, Options = void> implements OnModuleInit, OnApplicationBootstrap, OnModuleDestroy {
  protected abstract readonly logger: Logger;
  private timer?: NodeJS.Timeout;
  private running?: Promise<Result>;
  private first?: Promise<void>;

  constructor(private readonly everyMs: number) {}

  /** One pass. */
  protected abstract pass(options?: Options): Promise<Result>;
  /** What to log after a pass that did something (null: nothing to say). */
  protected abstract describe(result: Result): string | null;

  onModuleInit(): void {
    this.first = this.runLogged();
  }

  async onApplicationBootstrap(): Promise<void> {
    await (this.first ?? this.runLogged());
    this.timer = setInterval(() => void this.runLogged(), this.everyMs);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  /** One pass; concurrent calls share it. */
  repair(options?: Options): Promise<Result> {
    this.running ??= this.pass(options).finally(() => (this.running = undefined));
    return this.running;
  }

  private async runLogged(): Promise<void> {
    try {
      const said = this.describe(await this.repair());
      if (said) this.logger.warn(said);
    } catch (error) {
      this.logger.error(`${this.constructor.name} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
