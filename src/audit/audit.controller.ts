import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Access } from '../access/decorators/access.decorator';
import { CurrentPrincipal } from '../access/decorators/current-principal.decorator';
import { AccessScope } from '../access/permissions';
import { Principal } from '../access/principal';
import { Role } from '../access/roles';
import { ApiPaginatedResponse } from '../common/pagination/api-paginated-response';
import { Page } from '../common/pagination/pagination';
import { AuditEventResponseDto, ListAuditQuery } from './audit.dto';
import { AuditService } from './audit.service';

@ApiTags('Audit')
@Controller('audit')
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  @Get()
  @Access(AccessScope.Read, { role: Role.AdminOrg })
  @ApiOperation({ summary: 'Changes to users, groups, roles and API keys, newest first (ADMIN_ORG)' })
  @ApiPaginatedResponse(AuditEventResponseDto)
  list(@CurrentPrincipal() principal: Principal, @Query() query: ListAuditQuery): Promise<Page<AuditEventResponseDto>> {
    return this.audit.list(principal, query);
  }
}
