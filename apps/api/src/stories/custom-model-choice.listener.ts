import { Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { CustomModelDeleted, CustomModelRenamed } from '../custom-models/custom-model.events';
import { StoryRepository } from './story.repository';

/** Stories that chose a custom model follow its rename, and go back to the default when it is deleted. */
@Injectable()
export class CustomModelChoiceListener {
  constructor(private readonly stories: StoryRepository) {}

  // Awaited by the request that renamed or deleted the model (errors reach it).
  @OnEvent(CustomModelRenamed.event, { suppressErrors: false })
  async renamed(event: CustomModelRenamed): Promise<void> {
    await this.stories.renameCustomModel(event.userID, event.from, event.to);
  }

  @OnEvent(CustomModelDeleted.event, { suppressErrors: false })
  async deleted(event: CustomModelDeleted): Promise<void> {
    await this.stories.forgetCustomModel(event.userID, event.name);
  }
}
