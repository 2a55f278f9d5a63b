import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOperation, ApiParam, ApiProduces, ApiTags } from '@nestjs/swagger';
import { AcceptTurnDto, ErrorCode, FollowTurnQueryDto, parseStreamPosition, SendTurnDto } from '@taleloom/contracts';
import type { Request, Response } from 'express';
import { JwtAuthGuard } from '../common/jwt-auth.guard';
import { ok } from '../common/api-envelope';
import { AuthUser, CurrentUser } from '../common/current-user.decorator';
import { requestLanguage } from '../common/request-language';
import { AppException } from '../common/app-exception';
import { relayEvents } from '../common/sse-response';
import { ApiDtoBody, ApiErrorResponses } from '../swagger/api-dto-body.decorator';
import { PlayService } from './play.service';
import { TurnFollow } from './turn-follow';

@ApiTags('play')
@ApiBearerAuth()
@UseGuards(JwtAuthGuard)
@Controller('llm')
export class PlayController {
  constructor(
    private readonly play: PlayService,
    private readonly follow: TurnFollow,
  ) {}

  @Post(':id')
  @ApiOperation({
    summary: 'Send a line and stream the continuation (server-sent events)',
    description:
      'Answers `text/event-stream`: each `data:` line is one JSON StreamEvent — `user` (the user part and the turn id), ' +
      'optionally `summary` (older text was folded into the previous summary), `reasoning` and `delta` pieces, then `usage` ' +
      'and `done`, or `error` (the partial text is kept, nothing is charged). The generation belongs to the server: closing ' +
      'the connection does not stop it; it is kept as the pending turn (GET /api/llm/{id}/pending) and charged once. ' +
      'Refusals come before the stream as JSON errors: 402 NOT_ENOUGH_POWER, 409 GENERATION_IN_PROGRESS, 429 SEND_TOO_FAST, ' +
      '429 GENERATION_RATE_LIMITED (more than GENERATION_USER_PER_MINUTE sends by one user in a minute), ' +
      '404 STORY_NOT_FOUND / MODEL_NOT_FOUND / CUSTOM_MODEL_NOT_FOUND. With `model_type: compatible_openai` and `model_name` the ' +
      "send uses one of the caller's custom models (GET /api/custom-models): no power is charged, the throttle still holds, " +
      'and provider failures come as CUSTOM_MODEL_* codes in the `error` event. With `base_url`, `api_key` and `model_name` ' +
      '(`model_type` compatible_openai or absent, `enable_reasoning` optional) the send uses that OpenAI-compatible model ' +
      'for this send only, as a saved custom model is used (the same address guard: 400 CUSTOM_MODEL_URL_INVALID / ' +
      'CUSTOM_MODEL_ADDRESS_BLOCKED before the stream; the same timeouts, failure codes and price: none); its key is never ' +
      'stored, logged or answered. A partial set is 400 VALIDATION_FAILED naming the missing fields. A pending (unaccepted) turn is accepted ' +
      'before the new one: as `accept` gives it (`{turnId, userContent, newContent}`: the take shown, with the user\'s ' +
      'edits) when it names one of its takes, else its newest take as stored; the `user` event\'s `appended` is the text ' +
      'this added to the story, so a client needs no POST /accept before a send. `regenerate: true` accepts nothing: it ' +
      'adds a take beside the pending turn\'s earlier ones (each charged once; at most 10: 409 TAKES_LIMIT). While a ' +
      'change of branch holds the story: 409 BRANCH_SWITCHING.',
  })
  @ApiParam({ name: 'id' })
  @ApiProduces('text/event-stream')
  @ApiDtoBody(SendTurnDto)
  @ApiErrorResponses(400, 401, 402, 404, 429)
  async send(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @Body() dto: SendTurnDto,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const language = requestLanguage(req);
    const generation = await this.play.send(user, id, dto, language);
    // The browser going away stops only the relaying: the generation goes on and is stored.
    relayEvents(res, generation, language);
  }

  @Get(':id/stream')
  @ApiOperation({
    summary: "Rejoin the story's turn (server-sent events)",
    description:
      'The same events as the send that started the turn, each with an SSE `id:`: its position, `<text chars>:<reasoning chars>` ' +
      '(UTF-16 code units) after the event. From the position named by the `Last-Event-ID` header (or `from`; neither: from the ' +
      'start, with the `user` event), the text and reasoning after it come at once (one `delta`, one `reasoning`), then the live ' +
      'events, then `usage` and `done` (or `error`). A turn already finished answers its whole rest and `done` (or its `error`) at ' +
      'once. `turn`: the turn id the position belongs to; when the story has another turn by now, its stream starts from the ' +
      'beginning. Served by any API process: the one running the generation from memory, another from the stored text (about ' +
      'a second behind). Nothing is sent to the provider or charged again. A client that reads too slowly gets an `error` event ' +
      'STREAM_TOO_SLOW and rejoins. Refusals as JSON errors: 409 NO_RUNNING_TURN (no turn generating or pending), ' +
      "404 STORY_NOT_FOUND (another user's story), 400 VALIDATION_FAILED (a position that is not one).",
  })
  @ApiParam({ name: 'id' })
  @ApiHeader({ name: 'Last-Event-ID', required: false, description: 'The id of the last event read (`<text>:<reasoning>`)' })
  @ApiProduces('text/event-stream')
  @ApiErrorResponses(400, 401, 404, 409)
  async rejoin(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @Query() query: FollowTurnQueryDto,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const header = req.headers['last-event-id'];
    const named = typeof header === 'string' && header !== '' ? header : query.from;
    const from = named === undefined ? null : parseStreamPosition(named);
    if (named !== undefined && !from) {
      throw new AppException(ErrorCode.VALIDATION_FAILED, [{ field: 'Last-Event-ID', constraints: ['Last-Event-ID must be a stream position (<text>:<reasoning>)'], rules: ['matches'] }]);
    }
    const language = requestLanguage(req);
    relayEvents(res, await this.follow.open(user, id, from, query.turn, language), language);
  }

  @Post(':id/accept')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Accept the turn',
    description:
      'Appends userContent and newContent (the take shown, as edited; `turnId` names it) to the text, clears the pending turn ' +
      'with all its takes and counts the round. Answers `{charCount, appended}`.',
  })
  @ApiParam({ name: 'id' })
  @ApiDtoBody(AcceptTurnDto)
  @ApiErrorResponses(400, 401, 404)
  async accept(@CurrentUser() user: AuthUser, @Param('id') id: string, @Body() dto: AcceptTurnDto) {
    return ok(await this.play.accept(user, id, dto));
  }

  @Post(':id/discard')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Undo: drop the pending turn',
    description: 'Drops it with all its takes (nothing settled is given back). Answers the dropped turn (its role and input go back into the text area).',
  })
  @ApiParam({ name: 'id' })
  @ApiErrorResponses(401, 404)
  async discard(@CurrentUser() user: AuthUser, @Param('id') id: string) {
    return ok(await this.play.discard(user, id));
  }

  @Get(':id/context')
  @ApiOperation({
    summary: 'The prompt of the pending or last turn, part by part (the context inspector)',
    description:
      'Null before the first send. `messages[]` as sent, each `{role, parts[]}`; a part is `{kind, text, tokens}` (kinds: system, ' +
      'play_mode, prologue, hidden_settings, summary, lore, text, author_note, user_prompt, line) and the parts of a message, ' +
      'joined, are its content exactly. A `lore` part says which entry fired and why (`lore: {entryId, title, constant, keyword, ' +
      'secondaryKeyword, source: text|line|author_note|entry, viaTitle, depth}`); the `text` part gives its range in the story ' +
      'text (`from`, `to`) and `available: false` when the text was edited since (its text is then only the heading). ' +
      '`promptTokens` = the parts\' tokens + `overheadTokens`; `contextWindow` and `maxOutput` are the model\'s; `lore` has the ' +
      'budget, the tokens used and the entries left out for lack of room; `textLeftOutChars` is the older text not sent.',
  })
  @ApiParam({ name: 'id' })
  @ApiErrorResponses(401, 404)
  async context(@CurrentUser() user: AuthUser, @Param('id') id: string) {
    return ok(await this.play.context(user, id));
  }

  @Get(':id/pending')
  @ApiOperation({
    summary: 'The pending (unaccepted) turn',
    description:
      'State idle, generating (text so far, refreshed about every second), done or failed (partial text and errorCode). ' +
      '`takes` lists every take of the turn (regenerate adds one), oldest first; the other fields describe the newest.',
  })
  @ApiParam({ name: 'id' })
  @ApiErrorResponses(401, 404)
  async pending(@CurrentUser() user: AuthUser, @Param('id') id: string) {
    return ok(await this.play.pending(user, id));
  }
}
