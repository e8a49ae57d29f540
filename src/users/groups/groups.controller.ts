import { Body, Controller, Delete, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { Access } from '../../access/decorators/access.decorator';
import { CurrentPrincipal } from '../../access/decorators/current-principal.decorator';
import { AccessScope } from '../../access/permissions';
import { Principal } from '../../access/principal';
import { Role } from '../../access/roles';
import { ErrorResponseDto } from '../../common/errors/error-response.dto';
import { UuidParam } from '../../common/http/params';
import { CreateGroupDto, GroupResponseDto, ListGroupsQuery, UpdateGroupDto } from './groups.dto';
import { GroupsService } from './groups.service';

@ApiTags('Groups')
@Controller('groups')
export class GroupsController {
  constructor(private readonly groups: GroupsService) {}

  @Get()
  @Access(AccessScope.Read)
  @ApiOperation({ summary: "The organization's groups" })
  @ApiOkResponse({ type: [GroupResponseDto] })
  list(@CurrentPrincipal() principal: Principal, @Query() query: ListGroupsQuery): Promise<GroupResponseDto[]> {
    return this.groups.list(principal, query);
  }

  @Post()
  @HttpCode(201)
  @Access(AccessScope.Write, { role: Role.AdminOrg })
  @ApiOperation({ summary: 'Create a group (ADMIN_ORG)' })
  @ApiCreatedResponse({ type: GroupResponseDto })
  @ApiUnprocessableEntityResponse({ type: ErrorResponseDto, description: 'Unknown parent or members, or a parent cycle' })
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateGroupDto): Promise<GroupResponseDto> {
    return this.groups.create(principal, dto);
  }

  @Get(':id')
  @Access(AccessScope.Read)
  @ApiOperation({ summary: 'A group' })
  @ApiOkResponse({ type: GroupResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  get(@CurrentPrincipal() principal: Principal, @UuidParam('id') id: string): Promise<GroupResponseDto> {
    return this.groups.get(principal, id);
  }

  @Put(':id')
  @Access(AccessScope.Write, { role: Role.AdminOrg })
  @ApiOperation({ summary: 'Update a group (partial; user_ids replaces the members) (ADMIN_ORG)' })
  @ApiOkResponse({ type: GroupResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiUnprocessableEntityResponse({ type: ErrorResponseDto })
  update(@CurrentPrincipal() principal: Principal, @UuidParam('id') id: string, @Body() dto: UpdateGroupDto): Promise<GroupResponseDto> {
    return this.groups.update(principal, id, dto);
  }

  @Delete(':id')
  @HttpCode(204)
  @Access(AccessScope.Write, { role: Role.AdminOrg })
  @ApiOperation({ summary: 'Delete a group (ADMIN_ORG); its sub-groups become top-level' })
  @ApiNoContentResponse()
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  remove(@CurrentPrincipal() principal: Principal, @UuidParam('id') id: string): Promise<void> {
    return this.groups.remove(principal, id);
  }
}
