import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';

/** Array properties of contracts DTOs whose items are another DTO: [dto, property, item dto]. */
const NESTED_DTO_ITEMS: [string, string, string][] = [['UpdateTaskGroupDto', 'targets', 'TaskTargetDto']];

/**
 * Swagger UI at /api/docs (served offline), with every contracts DTO as a schema. The document is
 * built on the first request for it, not at start-up: scanning every route and DTO took about 0.13 s
 * of each start, and most starts never serve it.
 */
export function setupSwagger(app: INestApplication): void {
  SwaggerModule.setup('api/docs', app, () => buildDocument(app), { jsonDocumentUrl: 'api/docs-json' });
}

function buildDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('TaleLoom API')
    .setDescription(
      'Interactive AI story platform. Every answer is `{status, message, data}` or ' +
        '`{status:"error", code, message}`; POST bodies may carry `language` (en or zh-CN) for messages.',
    )
    .setVersion('0.1.0')
    .addBearerAuth()
    .build();
  const document = SwaggerModule.createDocument(app, config);
  // Loaded here, with the document: only a request for it needs them.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { validationMetadatasToSchemas } = require('class-validator-jsonschema') as typeof import('class-validator-jsonschema');
  // The metadata storage class-transformer keeps for @Type(); the schemas follow nested DTOs with it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as typeof import('class-transformer/types/storage');
  const dtoSchemas = validationMetadatasToSchemas({
    classTransformerMetadataStorage: defaultMetadataStorage,
    refPointerPrefix: '#/components/schemas/',
  });
  // Nested DTOs in contracts are built with @Transform, not @Type (which needs reflect-metadata in the
  // browser), so the generator cannot see their item class: it is named here.
  for (const [dto, property, item] of NESTED_DTO_ITEMS) {
    const schema = (dtoSchemas as Record<string, { properties?: Record<string, { items?: object }> }>)[dto]?.properties?.[property];
    if (schema) schema.items = { $ref: `#/components/schemas/${item}` };
  }
  document.components = {
    ...document.components,
    schemas: {
      ...(document.components?.schemas ?? {}),
      ...(dtoSchemas as Record<string, object>),
      ApiError: {
        type: 'object',
        required: ['status', 'code', 'message'],
        properties: {
          status: { type: 'string', enum: ['error'] },
          code: { type: 'string' },
          message: { type: 'string' },
          details: { type: 'array', items: { type: 'object' } },
          params: { type: 'object', description: 'Values of the message, e.g. minutes and until of ACCOUNT_LOCKED' },
        },
      },
    },
  };
  return document;
}
