import { Inject, Injectable } from '@nestjs/common';
import { ErrorCode, type CustomModelTestData, type TestCustomModelDto } from '@taleloom/contracts';
import { AppException } from '../common/app-exception';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { providerClient } from '../models/chat-provider';
import { classifyCustomModelFailure, type ClassifiedFailure } from '../models/provider-errors';
import { tokenLimit, tokenLimitFields } from '../models/token-limit-field';
import { RateLimitService } from '../verification/rate-limit.service';
import { CustomModelsService } from './custom-models.service';
import { GuardedTransport } from './guarded-transport';

// Tests per user in a window: enough to fix a typo or two, too few to scan with.
const TESTS_PER_WINDOW = 20;
const WINDOW_SECONDS = 600;
const LISTED_MAX = 20;

/**
 * "Test connection": asks the provider for one token with the model, name and key given (or the
 * stored key of a saved model), through the same guarded transport generations use. The provider's
 * model list is read alongside, to say whether it names the model and to help when it does not.
 * A failure is one of the CUSTOM_MODEL_* codes: bad key, wrong or unreachable address, unknown model,
 * timeout, refused address, or another provider error (with its status and message).
 */
@Injectable()
export class ConnectionTester {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly customModels: CustomModelsService,
    private readonly transport: GuardedTransport,
    private readonly rateLimit: RateLimitService,
  ) {}

  async test(userID: string, dto: TestCustomModelDto): Promise<CustomModelTestData> {
    await this.rateLimit.hit(`custom-model-test:${userID}`, TESTS_PER_WINDOW, WINDOW_SECONDS);
    const baseUrl = await this.customModels.checkedUrl(dto.base_url);
    const apiKey = dto.api_key || (await this.customModels.forUse(userID, dto.saved_name ?? '')).apiKey;
    const client = await providerClient(baseUrl, apiKey, this.transport);

    // Our own clock, so a timeout is told as one however the abort surfaces from fetch.
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.config.env.CUSTOM_MODEL_TEST_TIMEOUT_SECONDS * 1000);
    const options = { signal: controller.signal };
    const started = Date.now();
    const listing = client.models
      .list(options)
      .then((page) => page.data.map((m) => String(m.id)))
      .catch(() => null);
    try {
      // The same length field generations will use, learnt the same way (OpenAI's reasoning models refuse max_tokens).
      await tokenLimitFields.send(baseUrl, dto.model_name, (field) =>
        client.chat.completions.create({ model: dto.model_name, messages: [{ role: 'user', content: 'Hi' }], ...tokenLimit(field, 1), stream: false }, options),
      );
    } catch (error) {
      clearTimeout(timer);
      const failure: ClassifiedFailure = timedOut ? { code: ErrorCode.CUSTOM_MODEL_TIMEOUT, detail: 'timed out' } : classifyCustomModelFailure(error);
      const listed = await listing;
      // The chat endpoint said "not found" but the list answered without the model: the name is wrong.
      const code =
        failure.code === ErrorCode.CUSTOM_MODEL_ADDRESS_WRONG && listed && !listed.includes(dto.model_name)
          ? ErrorCode.CUSTOM_MODEL_MODEL_MISSING
          : failure.code;
      throw new AppException(code, undefined, {
        status: failure.status ? `HTTP ${failure.status}` : '',
        detail: code === ErrorCode.CUSTOM_MODEL_PROVIDER_ERROR ? failure.detail.split(apiKey).join('••••').slice(0, 300) : '',
        ...(code === ErrorCode.CUSTOM_MODEL_MODEL_MISSING && listed ? { models: listed.slice(0, LISTED_MAX).join(', ') } : {}),
      });
    }
    const latencyMs = Date.now() - started;
    const listed = await listing;
    clearTimeout(timer);
    return { modelListed: listed ? listed.includes(dto.model_name) : null, models: (listed ?? []).slice(0, LISTED_MAX), latencyMs };
  }
}
