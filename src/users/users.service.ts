import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { EntityManager, Repository } from 'typeorm';
import { ApiError } from '../common/errors/api-error';
import { PasswordHasher, passwordPolicyErrors } from './passwords';
import { Role } from '../access/roles';
import { User } from './user.entity';

export interface NewUser {
  organizationId: string;
  email: string;
  password: string;
  role: Role;
  fullName?: string;
}

export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

const EMAIL_FORMAT = /^[^\s@]+@[^\s@]+$/;

@Injectable()
export class UsersService {
  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    private readonly passwords: PasswordHasher,
  ) {}

  findByEmail(email: string): Promise<User | null> {
    return this.users.findOneBy({ email: normalizeEmail(email) });
  }

  /** Validates and hashes a new user's password; no database work, so it runs outside transactions. */
  async prepare(input: NewUser): Promise<User> {
    const email = normalizeEmail(input.email);
    const errors = [
      ...(EMAIL_FORMAT.test(email) && email.length <= 320 ? [] : [{ message: 'not a valid e-mail address', code: 'invalid', fields: 'email' }]),
      ...passwordPolicyErrors(input.password, email),
    ];
    if (errors.length > 0) throw ApiError.validation('The user is not valid', errors);
    const now = new Date();
    return this.users.create({
      id: randomUUID(),
      organizationId: input.organizationId,
      email,
      passwordHash: await this.passwords.hash(input.password),
      role: input.role,
      fullName: input.fullName ?? '',
      fullNameLower: (input.fullName ?? '').toLowerCase(),
      code: '',
      locale: 'en',
      info: '',
      iconColour: '',
      isVerified: false,
      lastActivity: null,
      buildingScope: [],
      version: 1,
      createdAt: now,
      updatedAt: now,
    });
  }

  /** Inserts a prepared user inside the caller's transaction; the e-mail is unique server-wide. */
  async insert(manager: EntityManager, user: User): Promise<User> {
    if (await manager.existsBy(User, { email: user.email })) {
      throw ApiError.conflict('A user with this e-mail already exists', [{ message: 'already taken', code: 'taken', fields: 'email' }]);
    }
    await manager.insert(User, user);
    return user;
  }
}
