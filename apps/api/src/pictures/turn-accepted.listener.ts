import { Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { TurnAccepted } from '../play/turn.events';
import { PicturesService } from './pictures.service';

/** With the camera on, an accepted turn's passage gets its picture (asked for now, drawn in the background). */
@Injectable()
export class TurnAcceptedListener {
  constructor(private readonly pictures: PicturesService) {}

  // Starts synchronously, so the picture is tracked (drain, shutdown) from the moment the event is sent.
  @OnEvent(TurnAccepted.event)
  illustrate(event: TurnAccepted): Promise<void> {
    return this.pictures.illustrateAccepted(event.userID, event.storyId, event.branchId, event.text, event.appended);
  }
}
