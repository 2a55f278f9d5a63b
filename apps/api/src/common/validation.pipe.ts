import { ValidationPipe, type ArgumentMetadata, type ValidationError } from '@nestjs/common';
import { ErrorCode, type FieldProblem } from '@taleloom/contracts';
import { AppException } from './app-exception';
import { unsafeInput } from './unsafe-keys';

function flatten(errors: ValidationError[], prefix = ''): FieldProblem[] {
  return errors.flatMap((e) => {
    const field = prefix ? `${prefix}.${e.property}` : e.property;
    const own = e.constraints ? [{ field, constraints: Object.values(e.constraints), rules: Object.keys(e.constraints) }] : [];
    return [...own, ...flatten(e.children ?? [], field)];
  });
}

/**
 * Bodies and queries are checked for prototype keys, operator keys and deep nesting (see unsafeInput)
 * before class-transformer or class-validator walk them; after the guards, so a request without a
 * token is still a 401 first.
 */
class AppValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body' || metadata.type === 'query') {
      const problem = unsafeInput(value);
      if (problem) throw new AppException(ErrorCode.VALIDATION_FAILED, [problem]);
    }
    return super.transform(value, metadata);
  }
}

/** The one global pipe: unknown fields are rejected and every problem names its field. */
export function createValidationPipe(): ValidationPipe {
  return new AppValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    // Strings stay strings: no implicit conversion of "123" into numbers or of objects into strings.
    transformOptions: { enableImplicitConversion: false },
    exceptionFactory: (errors) => new AppException(ErrorCode.VALIDATION_FAILED, flatten(errors)),
  });
}
