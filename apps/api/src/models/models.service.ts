import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { ErrorCode, type ModelListEntry } from '@taleloom/contracts';
import { AppException } from '../common/app-exception';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { ChatProvider, type ChatRequest, type ProviderChunk } from './chat-provider';
import { startDemoModelServer, type DemoModelServer } from './demo-model-server';
import type { PlatformModel } from '../config/platform-models';
import { ModelStatusTracker } from './model-status';

/** The platform models: the list users pick from, their measured status and the provider to call them. */
@Injectable()
export class ModelsService implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('ModelsService');
  private readonly models: PlatformModel[];
  private demoServer: DemoModelServer | null = null;
  readonly tracker = new ModelStatusTracker();
  readonly provider = new ChatProvider();

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.models = config.models.map((m) => ({ ...m }));
  }

  /** A turn's streamed answer (ChatProvider.relay). */
  relay(req: ChatRequest, onChunk: (chunk: ProviderChunk) => void): Promise<void> {
    return this.provider.relay(req, onChunk);
  }

  async onModuleInit(): Promise<void> {
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
