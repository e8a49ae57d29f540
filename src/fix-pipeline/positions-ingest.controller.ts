import { Body, Controller, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiPayloadTooLargeResponse, ApiTags, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { Access } from '../access/decorators/access.decorator';
import { CurrentPrincipal } from '../access/decorators/current-principal.decorator';
import { AccessScope } from '../access/permissions';
import { Principal } from '../access/principal';
import { ErrorResponseDto } from '../common/errors/error-response.dto';
import { IngestQuery, IngestResponseDto, PositionBatchDto } from '../positions/positions.dto';
import { FixPipeline, IngestResult } from './fix-pipeline';

@ApiTags('Realtime positions')
@Controller('realtime')
export class PositionsIngestController {
  constructor(private readonly pipeline: FixPipeline) {}

  @Post('positions')
  @HttpCode(200)
  @Access(AccessScope.PositionsWrite)
  @ApiOperation({ summary: 'Report positions: {"positions":[…]}, a bare array or a FeatureCollection; up to 1000 items, each accepted or rejected on its own' })
  @ApiBody({ type: PositionBatchDto })
  @ApiOkResponse({ type: IngestResponseDto })
  @ApiPayloadTooLargeResponse({ type: ErrorResponseDto, description: 'Over 1000 items or 1 MiB' })
  @ApiUnprocessableEntityResponse({ type: ErrorResponseDto, description: 'Every item was rejected (the list is in `errors`)' })
  ingest(@CurrentPrincipal() principal: Principal, @Body() body: unknown, @Query() query: IngestQuery): Promise<IngestResult> {
    return this.pipeline.ingest(principal, body, { returnEvents: query.return_events, filterReported: true });
  }
}
