import { Injectable } from '@nestjs/common';
import { CUSTOM_MODEL_TYPE, ErrorCode, sendsOwnModel, type SendTurnDto } from '@taleloom/contracts';
import { AppException } from '../common/app-exception';
import { customPlatformModel, CustomModelsService } from '../custom-models/custom-models.service';
import { GuardedTransport } from '../custom-models/guarded-transport';
import type { PlatformModel } from '../config/platform-models';
import type { ProviderTransport } from '../models/chat-provider';
import { ModelsService } from '../models/models.service';

/** The model a generation runs on: a platform model, or one of the user's own (its key, its transport). */
export interface ChosenModel {
  model: PlatformModel;
  apiKey: string;
  /** Where its measured status is kept (ModelsService.tracker). */
  statusKey: string;
  custom?: { transport: ProviderTransport };
}

/** Which model a request runs on: one named in the request, or the story's choice (platform or the user's own). */
@Injectable()
export class ModelChooser {
  constructor(
    private readonly models: ModelsService,
    private readonly customModels: CustomModelsService,
    private readonly transport: GuardedTransport,
  ) {}

  /**
   * The model a send names: its own (base_url and api_key given), one of the user's custom models
   * (model_type compatible_openai), a platform model, or none.
   */
  async named(userID: string, request: SendTurnDto): Promise<ChosenModel | null> {
    if (sendsOwnModel(request)) return this.own(userID, request);
    if (request.model_type === CUSTOM_MODEL_TYPE) return this.custom(userID, request.model_name ?? '');
    return this.namedPlatform(request);
  }

  /** The platform model a send names, known without a read (null: none); throws MODEL_NOT_FOUND for an unknown name. */
  namedPlatform(request: { model_name?: string }): ChosenModel | null {
    return request.model_name ? this.platform(this.models.resolve(request.model_name)) : null;
  }

  /** The story's stored choice; a custom model deleted since falls back to the platform default. */
  async ofStory(userID: string, story: { model_type?: string | null; model_name?: string | null }): Promise<ChosenModel> {
    if (story.model_type === CUSTOM_MODEL_TYPE && story.model_name) {
      try {
        return await this.custom(userID, story.model_name);
      } catch (error) {
        if (!(error instanceof AppException && error.code === ErrorCode.CUSTOM_MODEL_NOT_FOUND)) throw error;
      }
    }
    return this.platform(this.models.resolveOrDefault(story.model_name));
  }

  /** The story's stored choice when it is a platform model, known without a read (null: one of the user's own). */
  storyPlatform(story: { model_type?: string | null; model_name?: string | null }): ChosenModel | null {
    return story.model_type === CUSTOM_MODEL_TYPE && story.model_name ? null : this.platform(this.models.resolveOrDefault(story.model_name));
  }

  private platform(model: PlatformModel): ChosenModel {
    return { model, apiKey: this.models.apiKeyOf(model), statusKey: model.value };
  }

  /**
   * The OpenAI-compatible model a send gives (the DTO checked that base_url, api_key and model_name are
   * there): its base URL through the same format rule and address guard as a saved model's, the same
   * transport, timeouts and failure codes; the key lives in this request's memory only.
   */
  private async own(userID: string, request: SendTurnDto): Promise<ChosenModel> {
    const baseUrl = await this.customModels.checkedUrl(request.base_url ?? '');
    const name = (request.model_name ?? '').trim();
    const model = customPlatformModel({ model_name: name, base_url: baseUrl, enable_reasoning: request.enable_reasoning ?? false });
    return { model, apiKey: (request.api_key ?? '').trim(), statusKey: `send:${userID}:${baseUrl}#${name}`, custom: { transport: this.transport } };
  }

  private async custom(userID: string, name: string): Promise<ChosenModel> {
    const found = await this.customModels.forUse(userID, name);
    return { ...found, custom: { transport: this.transport } };
  }
}
