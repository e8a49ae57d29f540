import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { Access } from '../access/decorators/access.decorator';
import { AccessScope } from '../access/permissions';
import { VersionService } from './version.service';

export class VersionResponseDto {
  @ApiProperty({ example: '0.1.0', description: 'Version of this Cartograph server' })
  version: string;

  @ApiProperty({ example: '1.50.1', description: 'Newest version of the positioning API this server implements' })
  api_version: string;
}

@ApiTags('Version')
@Controller('version')
export class VersionController {
  constructor(private readonly version: VersionService) {}

  @Get()
  @Access(AccessScope.Authenticated)
  @ApiOperation({ summary: 'Server and API version' })
  @ApiOkResponse({ type: VersionResponseDto })
  get(): VersionResponseDto {
    return this.version.current();
  }
}
