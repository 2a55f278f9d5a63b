import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { GenerationModule } from '../generation/generation.module';
import { LoreModule } from '../lore/lore.module';
import { PowerModule } from '../power/power.module';
import { StoriesModule } from '../stories/stories.module';
import { TasksModule } from '../tasks/tasks.module';
import { VerificationModule } from '../verification/verification.module';
import { PlayController } from './play.controller';
import { PlayService } from './play.service';
import { ParkedTurnRepository } from './parked-turn.repository';
import { ParkedTurn, ParkedTurnSchema } from './parked-turn.schema';
import { PlayTurn, PlayTurnSchema } from './play-turn.schema';
import { TurnContext, TurnContextSchema } from './turn-context.schema';
import { TurnContextRepository } from './turn-context.repository';
import { TurnParking } from './turn-parking.service';
import { TurnRepairService } from './turn-repair.service';
import { TurnRunner } from './turn.runner';
import { TurnRepository } from './turn.repository';
import { RunningTurns } from './running-turns';
import { StoredTurnWatch } from './stored-turn-watch';
import { TurnFollow } from './turn-follow';

/**
 * Play: streamed continuation and the turn lifecycle (takes included); the owner of the `play_turns`
 * and `parked_turns` collections and of `turn_contexts` (each story's latest prompt, part by part, for
 * the context inspector). An accepted turn is announced (TurnAccepted) for whoever reacts to it (pictures).
 */
@Module({
  imports: [
    MongooseModule.forFeature([
      { name: PlayTurn.name, schema: PlayTurnSchema },
      { name: TurnContext.name, schema: TurnContextSchema },
      { name: ParkedTurn.name, schema: ParkedTurnSchema },
    ]),
    GenerationModule,
    PowerModule,
    StoriesModule,
    // The open targets the task play modes steer toward.
    TasksModule,
    // The story's lore, whose entries enter the prompt when their keywords appear.
    LoreModule,
    VerificationModule,
  ],
  controllers: [PlayController],
  providers: [PlayService, TurnRunner, TurnRepairService, TurnRepository, TurnContextRepository, ParkedTurnRepository, TurnParking, RunningTurns, StoredTurnWatch, TurnFollow],
  // A change of branch (branches/) holds the turn and parks it with its branch.
  exports: [TurnParking],
})
export class PlayModule {}
