import { Body, Controller, Delete, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { Access } from '../access/decorators/access.decorator';
import { CurrentPrincipal } from '../access/decorators/current-principal.decorator';
import { AccessScope } from '../access/permissions';
import { Principal } from '../access/principal';
import { Role } from '../access/roles';
import { ErrorResponseDto } from '../common/errors/error-response.dto';
import { UuidParam } from '../common/http/params';
import { ApiPaginatedResponse } from '../common/pagination/api-paginated-response';
import { Page } from '../common/pagination/pagination';
import { UserAdminService } from './user-admin.service';
import { ChangePasswordDto, CreateUserDto, ListUsersQuery, UpdateUserDto, UserResponseDto } from './users.dto';

@ApiTags('Users')
@Controller('users')
export class UsersController {
  constructor(private readonly users: UserAdminService) {}

  @Get()
  @Access(AccessScope.Read)
  @ApiOperation({ summary: "The organization's users (paginated); a USER sees only itself" })
  @ApiPaginatedResponse(UserResponseDto)
  list(@CurrentPrincipal() principal: Principal, @Query() query: ListUsersQuery): Promise<Page<UserResponseDto>> {
    return this.users.list(principal, query);
  }

  @Post()
  @HttpCode(201)
  @Access(AccessScope.Write, { role: Role.AdminOrg })
  @ApiOperation({ summary: 'Create a user (ADMIN_ORG)' })
  @ApiCreatedResponse({ type: UserResponseDto })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'The e-mail is taken' })
  @ApiUnprocessableEntityResponse({ type: ErrorResponseDto })
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateUserDto): Promise<UserResponseDto> {
    return this.users.create(principal, dto);
  }

  @Get('me')
  @Access(AccessScope.Read)
  @ApiOperation({ summary: 'The caller' })
  @ApiOkResponse({ type: UserResponseDto })
  me(@CurrentPrincipal() principal: Principal): Promise<UserResponseDto> {
    return this.users.get(principal, principal.userId);
  }

  @Put('me/password')
  @HttpCode(204)
  @Access(AccessScope.Write, { userCredentials: true })
  @ApiOperation({ summary: 'Change your password; every session opened with the old one is revoked' })
  @ApiNoContentResponse()
  @ApiUnprocessableEntityResponse({ type: ErrorResponseDto })
  changePassword(@CurrentPrincipal() principal: Principal, @Body() dto: ChangePasswordDto): Promise<void> {
    return this.users.changeOwnPassword(principal, dto);
  }

  @Get(':id')
  @Access(AccessScope.Read)
  @ApiOperation({ summary: 'A user (administrators: any of the organization; a USER: itself)' })
  @ApiOkResponse({ type: UserResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  get(@CurrentPrincipal() principal: Principal, @UuidParam('id') id: string): Promise<UserResponseDto> {
    return this.users.get(principal, id);
  }

  @Put(':id')
  @Access(AccessScope.Write)
  @ApiOperation({ summary: 'Update a user (partial): administrators anything, a USER its own profile fields' })
  @ApiOkResponse({ type: UserResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'E-mail taken, or the last ADMIN_ORG would be demoted' })
  @ApiUnprocessableEntityResponse({ type: ErrorResponseDto })
  update(@CurrentPrincipal() principal: Principal, @UuidParam('id') id: string, @Body() dto: UpdateUserDto): Promise<UserResponseDto> {
    return this.users.update(principal, id, dto);
  }

  @Delete(':id')
  @HttpCode(204)
  @Access(AccessScope.Write, { role: Role.AdminOrg })
  @ApiOperation({ summary: 'Delete a user (ADMIN_ORG); its tokens and keys stop working at once' })
  @ApiNoContentResponse()
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'The last ADMIN_ORG' })
  remove(@CurrentPrincipal() principal: Principal, @UuidParam('id') id: string): Promise<void> {
    return this.users.remove(principal, id);
  }
}
