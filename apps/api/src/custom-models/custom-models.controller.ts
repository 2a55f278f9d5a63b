import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CreateCustomModelDto, TestCustomModelDto, UpdateCustomModelDto } from '@taleloom/contracts';
import { JwtAuthGuard } from '../common/jwt-auth.guard';
import { ok } from '../common/api-envelope';
import { AuthUser, CurrentUser } from '../common/current-user.decorator';
import { ApiDtoBody, ApiErrorResponses } from '../swagger/api-dto-body.decorator';
import { ConnectionTester } from './connection-tester';
import { CustomModelsService } from './custom-models.service';

const NAME_PARAM = { name: 'name', description: 'The model name, URL-encoded (compared without regard to case)' };

@ApiTags('custom-models')
@ApiBearerAuth()
@UseGuards(JwtAuthGuard)
@Controller('custom-models')
export class CustomModelsController {
  constructor(
    private readonly customModels: CustomModelsService,
    private readonly tester: ConnectionTester,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'My custom models',
    description:
      'Each: model_name, base_url, model_type, enable_reasoning, api_key_masked (the key itself is never answered), ' +
      'status (measured like the platform models), created_at, updated_at (epoch ms).',
  })
  @ApiErrorResponses(401)
  async list(@CurrentUser() user: AuthUser) {
    return ok(await this.customModels.list(user.userID));
  }

  @Post()
  @ApiOperation({
    summary: 'Add a custom model',
    description:
      'At most 3 per user (409 CUSTOM_MODEL_LIMIT_REACHED); names unique per user without regard to case ' +
      '(409 CUSTOM_MODEL_NAME_TAKEN). base_url keeps its version segment (…/v1) and never ends with /chat/completions ' +
      '(400 CUSTOM_MODEL_URL_INVALID); one that resolves to a loopback, private, link-local or metadata address is ' +
      '400 CUSTOM_MODEL_ADDRESS_BLOCKED unless the operator allows that network. The key is stored encrypted. ' +
      'Generations with a custom model cost no power.',
  })
  @ApiDtoBody(CreateCustomModelDto)
  @ApiErrorResponses(400, 401, 409)
  async create(@CurrentUser() user: AuthUser, @Body() dto: CreateCustomModelDto) {
    return ok(await this.customModels.create(user.userID, dto));
  }

  @Post('test')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Test a connection',
    description:
      'Sends a one-token request with the given address, model and key (or, with an empty key, the stored key of the ' +
      'saved model `saved_name`) and reads the provider\'s model list. Answers `{modelListed, models, latencyMs}`, or ' +
      'what went wrong: CUSTOM_MODEL_KEY_REJECTED, CUSTOM_MODEL_ADDRESS_UNREACHABLE, CUSTOM_MODEL_ADDRESS_WRONG, ' +
      'CUSTOM_MODEL_MODEL_MISSING, CUSTOM_MODEL_TIMEOUT, CUSTOM_MODEL_ADDRESS_BLOCKED or CUSTOM_MODEL_PROVIDER_ERROR. ' +
      '20 tests per user per 10 minutes.',
  })
  @ApiDtoBody(TestCustomModelDto)
  @ApiErrorResponses(400, 401, 404, 429, 502)
  async test(@CurrentUser() user: AuthUser, @Body() dto: TestCustomModelDto) {
    return ok(await this.tester.test(user.userID, dto));
  }

  @Put(':name')
  @ApiOperation({
    summary: 'Change a custom model',
    description:
      'Absent fields keep their value; an empty or absent api_key keeps the stored key. Renaming moves the stories ' +
      'that chose the model along. Same rules as adding; 404 CUSTOM_MODEL_NOT_FOUND when you have no model of that name.',
  })
  @ApiParam(NAME_PARAM)
  @ApiDtoBody(UpdateCustomModelDto)
  @ApiErrorResponses(400, 401, 404, 409)
  async update(@CurrentUser() user: AuthUser, @Param('name') name: string, @Body() dto: UpdateCustomModelDto) {
    return ok(await this.customModels.update(user.userID, name, dto));
  }

  @Delete(':name')
  @ApiOperation({
    summary: 'Delete a custom model',
    description: 'Stories that chose it go back to the platform default. 404 CUSTOM_MODEL_NOT_FOUND when you have no model of that name.',
  })
  @ApiParam(NAME_PARAM)
  @ApiErrorResponses(401, 404)
  async remove(@CurrentUser() user: AuthUser, @Param('name') name: string) {
    return ok(await this.customModels.remove(user.userID, name));
  }
}
