import { ArgumentMetadata, Injectable, ValidationError, ValidationPipe } from '@nestjs/common';
import { ApiError, FieldError } from '../errors/api-error';
import { cacheValidationMetadata } from './metadata-cache';
import { inspectRequestData, MAX_REQUEST_DEPTH } from './request-text';

const SECRET_FIELD = /password|secret|token|apikey|api_key/i;

export function flattenValidationErrors(errors: ValidationError[], parentPath = ''): FieldError[] {
  return errors.flatMap((error) => {
    // Array items read as `nodes[1].lat`, the way every other error of the API names them.
    const path = /^\d+$/.test(error.property) ? `${parentPath}[${error.property}]` : parentPath ? `${parentPath}.${error.property}` : error.property;
    // An absent field fails every check it has (type, length, ...): say once that it is missing,
    // instead of "name must be shorter than or equal to 255 characters".
    if (error.value === undefined && error.constraints && Object.keys(error.constraints).length > 0) {
      return [{ message: `${path} is required`, code: 'required', fields: path }, ...flattenValidationErrors(error.children ?? [], path)];
    }
    const own = Object.entries(error.constraints ?? {}).map(([, message]) => ({
      message,
      code: 'invalid',
      fields: path,
      // Only plain values are echoed: an object or array could carry a password inside.
      ...(SECRET_FIELD.test(path) || (error.value !== null && typeof error.value === 'object') ? {} : { value: error.value }),
    }));
    return [...own, ...flattenValidationErrors(error.children ?? [], path)];
  });
}

export function toValidationError(errors: ValidationError[]): ApiError {
  return ApiError.validation('The request is not valid', flattenValidationErrors(errors));
}

/**
 * Validates and transforms every body, query and path DTO. Unknown body keys are dropped
 * (contract section 1: clients send legacy keys), never stored. A bad body field is 422;
 * a bad query or path parameter is 400 (contract section 3).
 */
@Injectable()
export class ApiValidationPipe extends ValidationPipe {
  constructor() {
    super({
      transform: true,
      whitelist: true,
      forbidNonWhitelisted: false,
      forbidUnknownValues: true,
      validationError: { target: false, value: true },
      exceptionFactory: toValidationError,
    });
    cacheValidationMetadata();
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body' || metadata.type === 'query') this.assertStorableData(value, metadata.type);
    if (metadata.type === 'body' && (value === null || typeof value !== 'object' || Array.isArray(value)) && this.isDto(metadata)) {
      throw ApiError.validation('The request body must be a JSON object', [{ message: 'the body must be a JSON object', code: 'invalid', fields: 'body' }]);
    }
    try {
      return await super.transform(value, metadata);
    } catch (error) {
      if (error instanceof ApiError && metadata.type !== 'body') {
        throw ApiError.badRequest(`Invalid ${metadata.type === 'query' ? 'query' : 'path'} parameter`, error.errors);
      }
      throw error;
    }
  }

  /**
   * Before any other walk of the data: nesting is bounded (422 for a body, 400 for a query) and
   * text must be storable, without NUL or lone surrogates, naming each field.
   */
  private assertStorableData(value: unknown, type: 'body' | 'query'): void {
    const problem = inspectRequestData(value);
    if (!problem) return;
    const fail = type === 'body' ? ApiError.validation.bind(ApiError) : ApiError.badRequest.bind(ApiError);
    if (problem.kind === 'too_deep') {
      throw fail(`The ${type === 'body' ? 'body' : 'query'} nests more than ${MAX_REQUEST_DEPTH} levels`, [
        { message: `nests more than ${MAX_REQUEST_DEPTH} levels`, code: 'too_deep', fields: problem.fields },
      ]);
    }
    throw fail('Text must be well-formed Unicode without NUL characters', problem.errors);
  }

  private isDto(metadata: ArgumentMetadata): boolean {
    return metadata.metatype !== undefined && this.toValidate(metadata);
  }
}
