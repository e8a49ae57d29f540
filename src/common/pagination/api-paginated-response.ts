import { applyDecorators, Type } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, getSchemaPath } from '@nestjs/swagger';
import { PageMetadataDto } from './pagination';

/** Documents a `{ data: Model[], metadata }` page (contract section 1). */
export function ApiPaginatedResponse(model: Type<unknown>) {
  return applyDecorators(
    ApiExtraModels(model, PageMetadataDto),
    ApiOkResponse({
      schema: {
        type: 'object',
        properties: {
          data: { type: 'array', items: { $ref: getSchemaPath(model) } },
          metadata: { $ref: getSchemaPath(PageMetadataDto) },
        },
      },
    }),
  );
}
