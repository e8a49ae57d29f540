import { applyDecorators, HttpCode, Type } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiHeader,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { ErrorResponseDto } from '../errors/error-response.dto';

/** The OpenAPI description of the usual shapes of resource routes, in one place. */

export const DocumentedRead = (summary: string, type: Type<unknown>) =>
  applyDecorators(ApiOperation({ summary }), ApiOkResponse({ type }), ApiNotFoundResponse({ type: ErrorResponseDto }));

export const DocumentedCreate = (summary: string, type: Type<unknown>) =>
  applyDecorators(
    HttpCode(201),
    ApiOperation({ summary }),
    ApiCreatedResponse({ type }),
    ApiConflictResponse({ type: ErrorResponseDto }),
    ApiUnprocessableEntityResponse({ type: ErrorResponseDto }),
  );

/** A partial update guarded by an optional `If-Match` (a stale or unparsable ETag answers 409). */
export const DocumentedUpdate = (summary: string, type: Type<unknown>) =>
  applyDecorators(
    ApiOperation({ summary: `${summary} (partial; PATCH works too)` }),
    ApiHeader({ name: 'If-Match', required: false, description: 'Optional ETag from a GET; a stale or unparsable one answers 409' }),
    ApiOkResponse({ type }),
    ApiNotFoundResponse({ type: ErrorResponseDto }),
    ApiConflictResponse({ type: ErrorResponseDto }),
    ApiUnprocessableEntityResponse({ type: ErrorResponseDto }),
  );

export const DocumentedDelete = (summary: string) =>
  applyDecorators(
    HttpCode(204),
    ApiOperation({ summary }),
    ApiNoContentResponse(),
    ApiNotFoundResponse({ type: ErrorResponseDto }),
    ApiConflictResponse({ type: ErrorResponseDto }),
  );
