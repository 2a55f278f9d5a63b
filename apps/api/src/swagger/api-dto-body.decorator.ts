import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiResponse, getSchemaPath } from '@nestjs/swagger';

/** Documents a request body by the contracts' DTO class (schemas come from its class-validator rules). */
export const ApiDtoBody = (dto: new () => object) => ApiBody({ schema: { $ref: getSchemaPath(dto.name) } });

const DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid input: `{status:"error", code, message, details}`',
  401: 'Missing, invalid or expired token, or wrong credentials',
  402: 'Not enough power',
  403: 'Not yours',
  404: 'Not found (or not visible to you)',
  409: 'Conflicts with the current state (e.g. already checked in today, phone already bound)',
  413: 'Too large (a text or file over its limit)',
  429: 'Too many requests, a lockout, or a code asked for too soon',
  502: 'An upstream provider (SMS) failed',
  503: 'An upstream provider (captcha) is unavailable',
};

/** Documents the error answers an endpoint can give, all of the `ApiError` shape. */
export const ApiErrorResponses = (...statuses: number[]) =>
  applyDecorators(
    ...statuses.map((status) =>
      ApiResponse({ status, description: DESCRIPTIONS[status], schema: { $ref: getSchemaPath('ApiError') } }),
    ),
  );
