import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBody, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { Access } from '../../access/decorators/access.decorator';
import { CurrentPrincipal } from '../../access/decorators/current-principal.decorator';
import { AccessScope } from '../../access/permissions';
import { Principal } from '../../access/principal';
import { ErrorResponseDto } from '../../common/errors/error-response.dto';
import { ContainsQuery, ContainsResponseDto, EvaluateBodyDto, EvaluateResponseDto } from './queries.dto';
import { GeofencingQueriesService } from './queries.service';

@ApiTags('Geofencing')
@Controller('geofencing')
export class GeofencingQueriesController {
  constructor(private readonly queries: GeofencingQueriesService) {}

  @Get('contains')
  @Access(AccessScope.Read)
  @ApiOperation({ summary: 'The live geofences of a floor that hold a point (inside or possibly inside, contract 7.1)' })
  @ApiOkResponse({ type: ContainsResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No such floor in your organization' })
  contains(@CurrentPrincipal() principal: Principal, @Query() query: ContainsQuery): Promise<ContainsResponseDto> {
    return this.queries.contains(principal, query);
  }

  @Post('evaluate')
  @HttpCode(200)
  @Access(AccessScope.Read)
  @ApiOperation({ summary: 'The same as contains for up to 1000 points at once; nothing is stored' })
  @ApiBody({ type: EvaluateBodyDto })
  @ApiOkResponse({ type: EvaluateResponseDto })
  @ApiUnprocessableEntityResponse({ type: ErrorResponseDto, description: 'A bad point or an unknown floor, named in errors[].fields' })
  evaluate(@CurrentPrincipal() principal: Principal, @Body() body: Record<string, unknown>): Promise<EvaluateResponseDto> {
    return this.queries.evaluate(principal, body);
  }
}
