import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { ErrorCode, type ModelListEntry } from '@taleloom/contracts';
import cluster from 'node:cluster';
import { AppException } from '../common/app-exception';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { ChatProvider, type ChatRequest, type ProviderChunk } from './chat-provider';
import { startDemoModelServer, type DemoModelServer } from './demo-model-server';
import type { PlatformModel } from '../config/platform-models';
import { ModelStatusTracker } from './model-status';
import { ProviderThread } from './provider-thread';

/**
 * PROVIDER_THREAD=auto: platform models' answers are read on this thread while fewer than this many
 * relays run here, on the provider thread beyond: the first streams of a burst skip the thread's
 * messages while this thread still has time for them. bench:burst, 3 rounds, against `on`: 500 at once,
 * first token added p50 635 / 248 / 627 ms against 701 / 1016 / 705 ms with 32 (with 128: 1414 / 436 /
 * 1247 against 645 / 1053 / 280, so not 128), the same at 100 at once within the rounds' spread.
 */
export const APP_THREAD_RELAYS = 32;

/**
 * Whether platform models' answers may be read on a provider thread (PROVIDER_THREAD): `on`, or `auto` in
 * an API that runs as one process. In the processes of API_WORKERS (`auto`: none) the other processes
 * have the cores a thread would take: bench:burst, two processes with and without it, 3 rounds, 500 at
 * once: per-chunk p99 added 37.2 against 30.3 ms, CPU a stream 11.5 against 9.9 ms, peak RSS (both
 * processes) 534 against 483 MB; 1000 at once 72.0 against 63.2 ms, 10.1 against 9.2 ms, 609 against
 * 529 MB (lower without it in every round), first tokens within the rounds' spread.
 */
export function providerThreadWanted(mode: 'auto' | 'on' | 'off', inWorkerProcess = cluster.isWorker): boolean {
  return mode === 'on' || (mode === 'auto' && !inWorkerProcess);
}

/** The platform models: the list users pick from, their measured status and the provider to call them. */
@Injectable()
export class ModelsService implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('ModelsService');
  private readonly models: PlatformModel[];
  private demoServer: DemoModelServer | null = null;
  readonly tracker = new ModelStatusTracker();
  readonly provider = new ChatProvider();
  private readonly thread: ProviderThread | null;
  // Relays reading their answers on this thread now (a user's own model's among them).
  private relayingHere = 0;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.models = config.models.map((m) => ({ ...m }));
    this.thread = providerThreadWanted(config.env.PROVIDER_THREAD) ? new ProviderThread() : null;
  }

  /**
   * A turn's streamed answer (ChatProvider.relay): a platform model's on the provider thread
   * (PROVIDER_THREAD: on, or auto once APP_THREAD_RELAYS relays run here, in an API of one process), a
   * user's own model on this one.
   */
  relay(req: ChatRequest, onChunk: (chunk: ProviderChunk) => void): Promise<void> {
    const mode = this.config.env.PROVIDER_THREAD;
    if (this.thread && !req.custom && (mode === 'on' || this.relayingHere >= APP_THREAD_RELAYS)) return this.thread.relay(req, onChunk);
    this.relayingHere++;
    return this.provider.relay(req, onChunk).finally(() => this.relayingHere--);
  }

  /** Relays reading their answers on this thread now. */
  get relaysHere(): number {
    return this.relayingHere;
  }

  async onModuleInit(): Promise<void> {
    this.thread?.warm();
    const demo = this.models.find((m) => m.demo && !m.baseURL);
    if (demo) {
      this.demoServer = await startDemoModelServer(this.config.env.DEMO_MODEL_CHUNK_DELAY_MS);
      demo.baseURL = this.demoServer.baseURL;
      this.logger.log(`Offline demo model serving at ${demo.baseURL} (configure MODELS_FILE or MODELS_JSON for real models)`);
    }
    this.logger.log(`Models: ${this.models.map((m) => m.value).join(', ')}`);
  }

  // After the runners drained (beforeApplicationShutdown): a turn streaming at a stop still finishes.
  async onApplicationShutdown(): Promise<void> {
    await this.thread?.close();
    await this.demoServer?.close();
  }

  list(): ModelListEntry[] {
    return this.models.map((m) => ({
      label: m.label,
      points: m.points,
      value: m.value,
      status: this.tracker.status(m.value),
      demo: m.demo,
      contextWindow: m.contextWindow,
      maxOutput: m.maxOutput,
    }));
  }

  get defaultModel(): PlatformModel {
    return this.models[0];
  }

  /** The named model; an empty name means the default; an unknown one is MODEL_NOT_FOUND. */
  resolve(value: string | undefined | null): PlatformModel {
    if (!value) return this.defaultModel;
    const model = this.models.find((m) => m.value === value);
    if (!model) throw new AppException(ErrorCode.MODEL_NOT_FOUND);
    return model;
  }

  /** The story's stored choice, falling back to the default when it is no longer offered. */
  resolveOrDefault(value: string | undefined | null): PlatformModel {
    return this.models.find((m) => m.value === value) ?? this.defaultModel;
  }

  apiKeyOf(model: PlatformModel): string {
    return model.apiKeyEnv ? (process.env[model.apiKeyEnv] ?? '') : '';
  }
}
