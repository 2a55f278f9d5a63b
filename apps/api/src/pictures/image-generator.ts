import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { ErrorCode, picSizeDimensions, type PicSize, type PictureGeneratorInfo } from '@taleloom/contracts';
import { AppException } from '../common/app-exception';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { startDemoImageServer, type DemoImageServer } from './demo-image-server';
import { imageConfigWarnings } from './image-config-warnings';
import { ImageProvider, type GeneratedImage } from './image-provider';

// The model name the demo generator is asked for (it ignores it).
const DEMO_IMAGE_MODEL = 'taleloom-demo-pictures';

/**
 * Who draws pictures, from IMAGES_PROVIDER: the operator's OpenAI-compatible images endpoint, the
 * offline demo generator (the embedded default, started here on 127.0.0.1), or nobody.
 */
@Injectable()
export class ImageGenerator implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('ImageGenerator');
  private readonly provider = new ImageProvider();
  private readonly sizeMap: Partial<Record<PicSize, string>>;
  private demoServer: DemoImageServer | null = null;
  private baseURL = '';

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.sizeMap = config.env.IMAGES_SIZE_MAP ? (JSON.parse(config.env.IMAGES_SIZE_MAP) as Partial<Record<PicSize, string>>) : {};
    if (config.env.IMAGES_PROVIDER === 'openai') this.baseURL = (config.env.IMAGES_BASE_URL ?? '').replace(/\/+$/, '');
  }

  async onModuleInit(): Promise<void> {
    const env = this.config.env;
    if (env.IMAGES_PROVIDER === 'demo') {
      this.demoServer = await startDemoImageServer();
      this.baseURL = this.demoServer.baseURL;
      this.logger.log(`Pictures: offline DEMO generator at ${this.baseURL} (set IMAGES_PROVIDER=openai for real pictures)`);
    } else if (env.IMAGES_PROVIDER === 'openai') {
      this.logger.log(`Pictures: ${env.IMAGES_MODEL} at ${this.baseURL}`);
      for (const warning of imageConfigWarnings(env)) this.logger.warn(warning);
    } else {
      this.logger.log('Pictures: off (IMAGES_PROVIDER=off)');
    }
  }

  // After the runners drained (beforeApplicationShutdown): a picture being drawn at a stop still finishes.
  async onApplicationShutdown(): Promise<void> {
    await this.demoServer?.close();
  }

  get info(): PictureGeneratorInfo {
    const env = this.config.env;
    return { available: env.IMAGES_PROVIDER !== 'off', demo: env.IMAGES_PROVIDER === 'demo', points: env.IMAGES_POINTS };
  }

  /** Throws PICTURES_UNAVAILABLE when the operator turned pictures off. */
  assertAvailable(): void {
    if (!this.info.available) throw new AppException(ErrorCode.PICTURES_UNAVAILABLE);
  }

  /** The size the endpoint is asked for: IMAGES_SIZE_MAP's, else the story size as WIDTHxHEIGHT. */
  requestSize(size: PicSize): string {
    const { width, height } = picSizeDimensions(size);
    return this.sizeMap[size] ?? `${width}x${height}`;
  }

  /** Draws one picture; throws PictureFailure (PICTURE_FAILED or PROVIDER_TIMEOUT). */
  generate(prompt: string, size: PicSize, signal?: AbortSignal): Promise<GeneratedImage> {
    const env = this.config.env;
    return this.provider.generate({
      baseURL: this.baseURL,
      apiKey: env.IMAGES_PROVIDER === 'openai' ? (env.IMAGES_API_KEY ?? '') : '',
      model: env.IMAGES_PROVIDER === 'openai' ? (env.IMAGES_MODEL ?? '') : DEMO_IMAGE_MODEL,
      prompt,
      size: this.requestSize(size),
      responseFormat: env.IMAGES_PROVIDER === 'openai' ? env.IMAGES_RESPONSE_FORMAT : 'b64_json',
      timeoutMs: env.IMAGES_TIMEOUT_SECONDS * 1000,
      signal,
    });
  }
}
