import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CreateBranchDto, LocalizedDto, RenameBranchDto } from '@taleloom/contracts';
import { ok } from '../common/api-envelope';
import { AuthUser, CurrentUser } from '../common/current-user.decorator';
import { JwtAuthGuard } from '../common/jwt-auth.guard';
import { ApiDtoBody, ApiErrorResponses } from '../swagger/api-dto-body.decorator';
import { BranchesService } from './branches.service';

@ApiTags('branches')
@ApiBearerAuth()
@UseGuards(JwtAuthGuard)
@Controller('llm')
export class BranchesController {
  constructor(private readonly branches: BranchesService) {}

  @Get(':id/branches')
  @ApiOperation({
    summary: "The story's branches",
    description:
      'Every line of the story, oldest first: `no` (1 is the original line), `name` (empty: a default name), `current` (the ' +
      'branch being played: the story record, its pictures, tasks and pending turn are its), `forkedFrom` (`parentId`, ' +
      '`parentNo`, `parentName`, `at`: the offset in the parent’s text, `excerpt`: the text just before it), `length` ' +
      '(characters), `lastPlayedAt` (epoch ms the story last left it; null for the current one). `max` is the limit (50).',
  })
  @ApiParam({ name: 'id' })
  @ApiErrorResponses(401, 404)
  async list(@CurrentUser() user: AuthUser, @Param('id') id: string) {
    return ok(await this.branches.list(user, id));
  }

  @Post(':id/branches')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Branch from here: start a new line of the story at an earlier point, and play it',
    description:
      'The new branch keeps `main_text.slice(0, at)` of the branch being played, the previous summary if it covers ' +
      'nothing beyond that point, the pictures of passages before it and the tasks (a target whose proof lies beyond it ' +
      'is open again). The old line is kept as it is, with its pending turn. Answers the story as it now plays (`story`) ' +
      'and the branch list. 409 BRANCH_LIMIT (50 branches), BRANCH_CHANGED (`from_branch` is not the branch played any ' +
      'more), GENERATION_IN_PROGRESS, BRANCH_SWITCHING; 400 BRANCH_POINT_INVALID (beyond the text).',
  })
  @ApiParam({ name: 'id' })
  @ApiDtoBody(CreateBranchDto)
  @ApiErrorResponses(400, 401, 404)
  async fork(@CurrentUser() user: AuthUser, @Param('id') id: string, @Body() dto: CreateBranchDto) {
    return ok(await this.branches.fork(user, id, dto));
  }

  @Post(':id/branches/:branchId/play')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Switch to a branch',
    description:
      'The story plays the branch: its text, summary, pictures, tasks and pending turn (with its takes) come back; the ' +
      'branch left keeps its own. Answers the story as it now plays (`story`) and the branch list. 409 ' +
      'GENERATION_IN_PROGRESS while a turn is being written, BRANCH_SWITCHING while another change is under way.',
  })
  @ApiParam({ name: 'id' })
  @ApiParam({ name: 'branchId' })
  @ApiDtoBody(LocalizedDto)
  @ApiErrorResponses(401, 404)
  async play(@CurrentUser() user: AuthUser, @Param('id') id: string, @Param('branchId') branchId: string, @Body() _dto: LocalizedDto) {
    return ok(await this.branches.play(user, id, branchId));
  }

  @Patch(':id/branches/:branchId')
  @ApiOperation({ summary: 'Rename a branch', description: 'An empty name shows the default one. Answers the branch list.' })
  @ApiParam({ name: 'id' })
  @ApiParam({ name: 'branchId' })
  @ApiDtoBody(RenameBranchDto)
  @ApiErrorResponses(400, 401, 404)
  async rename(@CurrentUser() user: AuthUser, @Param('id') id: string, @Param('branchId') branchId: string, @Body() dto: RenameBranchDto) {
    return ok(await this.branches.rename(user, id, branchId, dto));
  }

  @Delete(':id/branches/:branchId')
  @ApiOperation({
    summary: 'Delete a branch',
    description: 'With its pending turn and tasks. 409 BRANCH_IN_PLAY for the branch being played, BRANCH_LAST for the only one. Answers the branch list.',
  })
  @ApiParam({ name: 'id' })
  @ApiParam({ name: 'branchId' })
  @ApiErrorResponses(401, 404)
  async remove(@CurrentUser() user: AuthUser, @Param('id') id: string, @Param('branchId') branchId: string) {
    return ok(await this.branches.remove(user, id, branchId));
  }
}
