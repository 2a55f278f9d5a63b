import { validationMetadatasToSchemas } from 'class-validator-jsonschema';

/** A JSON schema as class-validator-jsonschema writes it for a DTO class (the same as in the Swagger document). */
export interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: unknown[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
}

let cache: Record<string, JsonSchema> | undefined;

/** Every contracts DTO's schema by class name, from its class-validator rules. */
export function dtoSchemas(): Record<string, JsonSchema> {
  cache ??= validationMetadatasToSchemas() as Record<string, JsonSchema>;
  return cache;
}

/** The schema of a DTO class; a class that adds no rules of its own has its parent's. */
export function schemaOf(dto: (new () => object) | undefined): JsonSchema | undefined {
  const schemas = dtoSchemas();
  for (let c: unknown = dto; typeof c === 'function' && c !== Object; c = Object.getPrototypeOf(c)) {
    const found = schemas[(c as { name: string }).name];
    if (found) return found;
  }
  return undefined;
}
