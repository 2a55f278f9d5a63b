import { Inject, Injectable, Logger } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { InjectModel } from '@nestjs/mongoose';
import {
  baseUrlProblem,
  CUSTOM_MODEL_LIMIT,
  customModelNameKey,
  ErrorCode,
  normalizeBaseUrl,
  type CreateCustomModelDto,
  type CustomModelView,
  type UpdateCustomModelDto,
} from '@taleloom/contracts';
import { randomUUID } from 'node:crypto';
import { Model, Types } from 'mongoose';
import { AppException, RetriesExhausted } from '../common/app-exception';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import type { PlatformModel } from '../config/platform-models';
import { ModelsService } from '../models/models.service';
import { AddressGuard } from './address-guard';
import { CustomModelDeleted, CustomModelRenamed } from './custom-model.events';
import { CustomModelEntry, CustomModelSet } from './custom-model-set.schema';
import { KeyCipher, KeyUnreadableError, maskKey } from './key-cipher';
import { isDuplicateKey } from '../common/database-errors';

// What play assumes of a model it knows nothing about: a modest window, and room for reasoning.
const CUSTOM_CONTEXT_WINDOW = 16_384;
const CUSTOM_MAX_OUTPUT = 1_024;
const CUSTOM_MAX_OUTPUT_REASONING = 4_096;
// Attempts of an optimistic update before giving up (each one re-reads the list).
const MAX_ATTEMPTS = 8;

/** A custom model ready for a generation: the model, its decrypted key and where its status is kept. */
export interface CustomModelForUse {
  model: PlatformModel;
  apiKey: string;
  statusKey: string;
}

/**
 * Users' own models: at most three each, names unique per user without regard to case, keys
 * encrypted at rest and never answered, base URLs checked by the address guard on save.
 */
@Injectable()
export class CustomModelsService {
  private readonly logger = new Logger('CustomModelsService');
  private readonly cipher: KeyCipher;

  constructor(
    @InjectModel(CustomModelSet.name) private readonly sets: Model<CustomModelSet>,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly guard: AddressGuard,
    private readonly models: ModelsService,
    private readonly events: EventEmitter2,
  ) {
    this.cipher = new KeyCipher(config.customModelKey);
  }

  async list(userID: string): Promise<CustomModelView[]> {
    return (await this.entries(userID)).map((e) => this.view(userID, e));
  }

  async create(userID: string, dto: CreateCustomModelDto): Promise<CustomModelView> {
    const baseUrl = await this.checkedUrl(dto.base_url);
    const now = Date.now();
    const entry: CustomModelEntry = {
      model_name: dto.model_name,
      name_key: customModelNameKey(dto.model_name),
      base_url: baseUrl,
      model_type: dto.model_type,
      enable_reasoning: dto.enable_reasoning ?? false,
      api_key_cipher: this.cipher.encrypt(dto.api_key, userID),
      api_key_masked: maskKey(dto.api_key),
      created_at: now,
      updated_at: now,
    };
    await this.mutate(userID, (list) => {
      if (list.some((m) => m.name_key === entry.name_key)) throw new AppException(ErrorCode.CUSTOM_MODEL_NAME_TAKEN);
      if (list.length >= CUSTOM_MODEL_LIMIT) throw new AppException(ErrorCode.CUSTOM_MODEL_LIMIT_REACHED);
      return [...list, entry];
    });
    return this.view(userID, entry);
  }

  async update(userID: string, name: string, dto: UpdateCustomModelDto): Promise<CustomModelView> {
    const key = customModelNameKey(name);
    // Someone else's (or no) model is not found before anything about the new values is said.
    await this.find(userID, name);
    const baseUrl = dto.base_url === undefined ? undefined : await this.checkedUrl(dto.base_url);
    const newKey = dto.api_key ? { api_key_cipher: this.cipher.encrypt(dto.api_key, userID), api_key_masked: maskKey(dto.api_key) } : {};
    let before!: CustomModelEntry;
    let after!: CustomModelEntry;
    await this.mutate(userID, (list) => {
      const index = list.findIndex((m) => m.name_key === key);
      if (index < 0) throw new AppException(ErrorCode.CUSTOM_MODEL_NOT_FOUND);
      before = list[index];
      after = {
        ...before,
        ...(dto.model_name !== undefined ? { model_name: dto.model_name, name_key: customModelNameKey(dto.model_name) } : {}),
        ...(baseUrl !== undefined ? { base_url: baseUrl } : {}),
        ...(dto.model_type !== undefined ? { model_type: dto.model_type } : {}),
        ...(dto.enable_reasoning !== undefined ? { enable_reasoning: dto.enable_reasoning } : {}),
        ...newKey,
        updated_at: Date.now(),
      };
      if (list.some((m, i) => i !== index && m.name_key === after.name_key)) throw new AppException(ErrorCode.CUSTOM_MODEL_NAME_TAKEN);
      return list.map((m, i) => (i === index ? after : m));
    });
    // Stories that chose the model by its old name follow the rename.
    if (after.model_name !== before.model_name) {
      await this.events.emitAsync(CustomModelRenamed.event, new CustomModelRenamed(userID, before.model_name, after.model_name));
    }
    return this.view(userID, after);
  }

  async remove(userID: string, name: string): Promise<{ model_name: string }> {
    const key = customModelNameKey(name);
    let removed!: CustomModelEntry;
    await this.mutate(userID, (list) => {
      const found = list.find((m) => m.name_key === key);
      if (!found) throw new AppException(ErrorCode.CUSTOM_MODEL_NOT_FOUND);
      removed = found;
      return list.filter((m) => m !== found);
    });
    // Stories that used it go back to the platform default.
    await this.events.emitAsync(CustomModelDeleted.event, new CustomModelDeleted(userID, removed.model_name));
    return { model_name: removed.model_name };
  }

  /** The saved name as written (for a story's choice); CUSTOM_MODEL_NOT_FOUND when the user has none of that name. */
  async canonicalName(userID: string, name: string): Promise<string> {
    return (await this.find(userID, name)).model_name;
  }

  /** The user's model with its key decrypted, for a generation or a connection test. */
  async forUse(userID: string, name: string): Promise<CustomModelForUse> {
    const entry = await this.find(userID, name);
    let apiKey: string;
    try {
      apiKey = this.cipher.decrypt(entry.api_key_cipher, userID);
    } catch (error) {
      if (!(error instanceof KeyUnreadableError)) throw error;
      this.logger.warn(`the key of a custom model of user ${userID} does not decrypt (was CUSTOM_MODEL_ENCRYPTION_KEY changed?)`);
      throw new AppException(ErrorCode.CUSTOM_MODEL_KEY_UNREADABLE);
    }
    return { model: customPlatformModel(entry), apiKey, statusKey: statusKey(userID, entry.name_key) };
  }

  /** A base URL as stored, after the shared format rule and the address guard. */
  async checkedUrl(raw: string): Promise<string> {
    if (baseUrlProblem(raw)) throw new AppException(ErrorCode.CUSTOM_MODEL_URL_INVALID);
    const url = normalizeBaseUrl(raw);
    await this.guard.checkUrl(url);
    return url;
  }

  private async find(userID: string, name: string): Promise<CustomModelEntry> {
    const key = customModelNameKey(name);
    const entry = (await this.entries(userID)).find((m) => m.name_key === key);
    if (!entry) throw new AppException(ErrorCode.CUSTOM_MODEL_NOT_FOUND);
    return entry;
  }

  private async entries(userID: string): Promise<CustomModelEntry[]> {
    const set = await this.sets.findById(setId(userID)).lean().exec();
    return set?.models ?? [];
  }

  private view(userID: string, e: CustomModelEntry): CustomModelView {
    return {
      model_name: e.model_name,
      base_url: e.base_url,
      model_type: e.model_type,
      enable_reasoning: e.enable_reasoning,
      api_key_masked: e.api_key_masked,
      status: this.models.tracker.status(statusKey(userID, e.name_key)),
      created_at: e.created_at,
      updated_at: e.updated_at,
    };
  }

  // Reads the user's list, lets `change` check and rewrite it, and writes it back only if nobody
  // changed it meanwhile (matched on version); retried with a fresh read otherwise.
  private async mutate(userID: string, change: (list: CustomModelEntry[]) => CustomModelEntry[]): Promise<void> {
    const _id = setId(userID);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const set = await this.sets.findById(_id).lean().exec();
      const next = change(set?.models ?? []);
      const op = randomUUID();
      if (!set) {
        try {
          await this.sets.create({ _id, version: 1, models: next, op });
        } catch (error) {
          if (!isDuplicateKey(error)) throw error;
          continue;
        }
        // The offline stand-in can drop one of two concurrent first inserts: read back whose won.
        const written = await this.sets.findById(_id).lean().exec();
        if ((written as { op?: string } | null)?.op === op) return;
        continue;
      }
      const updated = await this.sets
        .updateOne({ _id, version: set.version }, { $set: { models: next, op }, $inc: { version: 1 } })
        .exec();
      if (updated.modifiedCount === 1) return;
    }
    throw new RetriesExhausted(`changing the custom models of user ${userID}`);
  }
}

// The user's id is an ObjectId in hex (from the login token); stores keep such _ids as ObjectIds.
function setId(userID: string): Types.ObjectId {
  if (!Types.ObjectId.isValid(userID)) throw new AppException(ErrorCode.UNAUTHORIZED);
  return new Types.ObjectId(userID);
}

/** Where a user's model's measured status is kept (ModelsService.tracker). */
export function statusKey(userID: string, nameKey: string): string {
  return `custom:${userID}:${nameKey}`;
}

/**
 * A user's own model as generations use it (a saved one, or the one a send gives): named by the
 * provider's model name, free of power (the user's key pays the provider), the modest window play
 * assumes of a model it knows nothing about.
 */
export function customPlatformModel(e: Pick<CustomModelEntry, 'model_name' | 'base_url' | 'enable_reasoning'>): PlatformModel {
  return {
    label: e.model_name,
    value: e.model_name,
    points: 0,
    contextWindow: CUSTOM_CONTEXT_WINDOW,
    maxOutput: e.enable_reasoning ? CUSTOM_MAX_OUTPUT_REASONING : CUSTOM_MAX_OUTPUT,
    baseURL: e.base_url,
    apiKeyEnv: '',
    model: e.model_name,
    enableReasoning: e.enable_reasoning,
    demo: false,
  };
}
