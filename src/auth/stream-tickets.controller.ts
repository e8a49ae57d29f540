import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { Access } from '../access/decorators/access.decorator';
import { CurrentPrincipal } from '../access/decorators/current-principal.decorator';
import { AccessScope } from '../access/permissions';
import { Principal } from '../access/principal';
import { StreamTicketsService } from './stream-tickets.service';

export class StreamTicketDto {
  @ApiProperty({ description: 'Pass once as `?ticket=` to a stream route' }) ticket: string;
  @ApiProperty({ example: 60 }) expires_in: number;
}

@ApiTags('Authentication')
@Controller('auth')
export class StreamTicketsController {
  constructor(private readonly tickets: StreamTicketsService) {}

  @Post('stream_tickets')
  @HttpCode(201)
  @Access(AccessScope.Authenticated)
  @ApiOperation({ summary: 'A single-use ticket (60 s) for opening one live stream as `?ticket=`, for EventSource, which cannot send headers' })
  @ApiCreatedResponse({ type: StreamTicketDto })
  issue(@CurrentPrincipal() principal: Principal): Promise<StreamTicketDto> {
    return this.tickets.issue(principal);
  }
}
