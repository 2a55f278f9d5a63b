import { Controller, Get, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { JwtAuthGuard } from '../common/jwt-auth.guard';
import { ok } from '../common/api-envelope';
import { ApiErrorResponses } from '../swagger/api-dto-body.decorator';
import { ModelsService } from './models.service';

@ApiTags('models')
@ApiBearerAuth()
@UseGuards(JwtAuthGuard)
@Controller()
export class ModelsController {
  constructor(private readonly models: ModelsService) {}

  @Get('model_list')
  @ApiOperation({
    summary: 'The platform models',
    description:
      'Each entry: label, points (power for a full-length reply), value, status (0 fast, 1 stable, 2 busy, 3 delay, ' +
      '4 unknown; measured from recent first-token latency and errors), demo, contextWindow, maxOutput. The first is the default.',
  })
  @ApiErrorResponses(401)
  list() {
    return ok(this.models.list());
  }
}
