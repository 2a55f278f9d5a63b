import { ValidationError, ValidationPipe } from '@nestjs/common';
import { ErrorCode, type FieldProblem } from '@taleloom/contracts';
import { AppException } from './app-exception';

function flatten(errors: ValidationError[], prefix = ''): FieldProblem[] {
  return errors.flatMap((e) => {
    const field = prefix ? `${prefix}.${e.property}` : e.property;
    const own = e.constraints ? [{ field, constraints: Object.values(e.constraints), rules: Object.keys(e.constraints) }] : [];
    return [...own, ...flatten(e.children ?? [], field)];
  });
}

/** The one global pipe: unknown fields are rejected and every problem names its field. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    // Strings stay strings: no implicit conversion of "123" into numbers or of objects into strings.
    transformOptions: { enableImplicitConversion: false },
    exceptionFactory: (errors) => new AppException(ErrorCode.VALIDATION_FAILED, flatten(errors)),
  });
}
