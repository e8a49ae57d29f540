import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Access } from '../auth/decorators/access.decorator';
import { CurrentPrincipal } from '../auth/decorators/current-principal.decorator';
import { AccessScope } from '../auth/permissions';
import { Principal } from '../auth/principal';
import { Role } from '../auth/roles';
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
