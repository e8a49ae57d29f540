import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Not, Repository } from 'typeorm';
import { Principal } from '../../access/principal';
import { BuildingRevisions } from '../buildings/building-revisions';
import { referenceNotFound } from '../buildings/buildings.service';
import { ApiError } from '../../common/errors/api-error';
import { assertVersionMatches, retryOnConcurrentUpdate, updateIfVersion } from '../../common/database/optimistic';
import { lockOptions, RowLock } from '../../database/row-locks';
import { Versioned } from '../../common/http/versioned';
import { TransactionRunner } from '../../database/transactions';
import { ImagesService } from '../../images/images.service';
import { Poi } from '../pois/poi.entity';
import { PoiCategory } from './poi-category.entity';
import { toPoiCategoryResponse } from './poi-category.mapper';
import { CreatePoiCategoryDto, PoiCategoryResponseDto, UpdatePoiCategoryDto } from './poi-categories.dto';

const codeTaken = (code: string) =>
  ApiError.conflict(`A POI category with code "${code}" already exists`, [{ message: 'already taken', code: 'taken', fields: 'code', value: code }]);

/** `undefined`: leave as is; `null` or "": remove; an id: that image. */
const imageChange = (value: string | null | undefined): string | null | undefined => (value === '' ? null : value);

@Injectable()
export class PoiCategoriesService {
  constructor(
    @InjectRepository(PoiCategory) private readonly categories: Repository<PoiCategory>,
    private readonly images: ImagesService,
    private readonly revisions: BuildingRevisions,
    private readonly transactions: TransactionRunner,
  ) {}

  async findOwned(principal: Principal, id: number, manager: EntityManager = this.categories.manager, lock?: RowLock): Promise<PoiCategory> {
    const category = await manager.findOne(PoiCategory, { where: { id, organizationId: principal.organizationId }, ...lockOptions(manager, lock) });
    if (!category) throw ApiError.notFound('POI category', id);
    return category;
  }

  /** A category named in a request body: 422 naming the field when it is not the caller's. Share-locked. */
  async findReferenced(principal: Principal, id: number, field: string, manager: EntityManager): Promise<PoiCategory> {
    const category = await manager.findOne(PoiCategory, { where: { id, organizationId: principal.organizationId }, ...lockOptions(manager, 'share') });
    if (!category) throw referenceNotFound('POI category', field, id);
    return category;
  }

  async list(principal: Principal): Promise<PoiCategoryResponseDto[]> {
    const categories = await this.categories.find({ where: { organizationId: principal.organizationId }, order: { id: 'ASC' } });
    return categories.map(toPoiCategoryResponse);
  }

  async get(principal: Principal, id: number): Promise<Versioned<PoiCategoryResponseDto>> {
    const category = await this.findOwned(principal, id);
    return new Versioned(toPoiCategoryResponse(category), category.version);
  }

  async create(principal: Principal, dto: CreatePoiCategoryDto): Promise<Versioned<PoiCategoryResponseDto>> {
    return this.transactions.run(async (manager) => {
      if (await manager.existsBy(PoiCategory, { organizationId: principal.organizationId, code: dto.code })) throw codeTaken(dto.code);
      const icon = imageChange(dto.icon) ?? null;
      const selectedIcon = imageChange(dto.selected_icon) ?? null;
      await this.checkImages(principal, manager, icon, selectedIcon);
      const now = new Date();
      const category = manager.create(PoiCategory, {
        organizationId: principal.organizationId,
        code: dto.code,
        nameEn: dto.name_en,
        nameEs: dto.name_es ?? '',
        isPublic: dto.public ?? false,
        iconImageId: icon,
        selectedIconImageId: selectedIcon,
        version: 1,
        createdAt: now,
        updatedAt: now,
      });
      await manager.insert(PoiCategory, category);
      return new Versioned(toPoiCategoryResponse(category), category.version);
    });
  }

  async update(principal: Principal, id: number, dto: UpdatePoiCategoryDto, ifMatch?: number[]): Promise<Versioned<PoiCategoryResponseDto>> {
    return retryOnConcurrentUpdate(() =>
      this.transactions.run(async (manager) => {
        const category = await this.findOwned(principal, id, manager, 'update');
        assertVersionMatches(category.version, ifMatch);
        if (dto.code !== undefined && dto.code !== category.code) {
          const taken = await manager.existsBy(PoiCategory, { organizationId: principal.organizationId, code: dto.code, id: Not(category.id) });
          if (taken) throw codeTaken(dto.code);
        }
        const icon = imageChange(dto.icon);
        const selectedIcon = imageChange(dto.selected_icon);
        await this.checkImages(principal, manager, icon, selectedIcon);
        const changes: Partial<PoiCategory> = {
          ...(dto.name_en !== undefined && { nameEn: dto.name_en }),
          ...(dto.name_es !== undefined && { nameEs: dto.name_es }),
          ...(dto.code !== undefined && { code: dto.code }),
          ...(dto.public !== undefined && { isPublic: dto.public }),
          ...(icon !== undefined && { iconImageId: icon }),
          ...(selectedIcon !== undefined && { selectedIconImageId: selectedIcon }),
          updatedAt: new Date(),
        };
        if (!(await updateIfVersion(manager, PoiCategory, category, changes))) return false;
        if (dto.name_en !== undefined && dto.name_en !== category.nameEn) await this.revisions.bumpForCategory(manager, category.id);
        const updated = { ...category, ...changes, version: category.version + 1 };
        return new Versioned(toPoiCategoryResponse(updated), updated.version);
      }),
    );
  }

  /** 409 while POIs use it, unless they are moved to `reassignTo` in the same transaction. */
  async remove(principal: Principal, id: number, reassignTo?: number): Promise<void> {
    await this.transactions.run(async (manager) => {
      const category = await this.findOwned(principal, id, manager, 'update');
      const users = await manager.countBy(Poi, { categoryId: category.id, organizationId: principal.organizationId });
      if (users > 0) {
        if (reassignTo === undefined) {
          throw ApiError.conflict(`${users} POI(s) use this category; pass reassign_to={category id} to move them`);
        }
        if (reassignTo === category.id) {
          throw ApiError.badRequest('reassign_to must name another category');
        }
        const target = await manager.findOne(PoiCategory, { where: { id: reassignTo, organizationId: principal.organizationId }, ...lockOptions(manager, 'share') });
        if (!target) throw ApiError.badRequest(`reassign_to names no POI category of your organization`);
        await manager
          .createQueryBuilder()
          .update(Poi)
          .set({ categoryId: target.id, updatedAt: new Date(), version: () => '"version" + 1' })
          .where({ categoryId: category.id, organizationId: principal.organizationId })
          .execute();
        // The moved POIs now show the target's name in their buildings' documents.
        await this.revisions.bumpForCategory(manager, target.id);
      }
      await manager.delete(PoiCategory, { id: category.id });
    });
  }

  private async checkImages(principal: Principal, manager: EntityManager, icon: string | null | undefined, selectedIcon: string | null | undefined): Promise<void> {
    if (icon) await this.images.assertReferenced(principal, icon, 'icon', manager);
    if (selectedIcon) await this.images.assertReferenced(principal, selectedIcon, 'selected_icon', manager);
  }
}
