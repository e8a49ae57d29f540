import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { EntityManager, FindOptionsWhere, IsNull, Not, Repository } from 'typeorm';
import { buildingCondition, canSeeBuilding, onlyDefined } from '../../access/building-scope';
import { Principal } from '../../access/principal';
import { Building } from '../buildings/building.entity';
import { BuildingRevisions } from '../buildings/building-revisions';
import { BuildingsService } from '../buildings/buildings.service';
import { ApiError, FieldError } from '../../common/errors/api-error';
import { assertVersionMatches, retryOnConcurrentUpdate, updateIfVersion } from '../../common/database/optimistic';
import { derivedCartesianProblem, derivedGeoreferenceProblem, toCartesian, toGeoreference } from '../../common/geometry/cartesian';
import { SanitizerPool } from '../../common/html/sanitizer-pool';
import { lockOptions, RowLock } from '../../database/row-locks';
import { Versioned } from '../../common/http/versioned';
import { flattenValidationErrors } from '../../common/validation/validation.pipe';
import { TransactionRunner } from '../../database/transactions';
import { FloorsService } from '../floors/floors.service';
import { PoiCategoriesService } from '../poi-categories/poi-categories.service';
import { Poi } from './poi.entity';
import { renderPois } from './poi-rendering';
import { CreatePoiDto, ListPoisQuery, PoiPositionInputDto, PoiResponseDto, UpdatePoiDto } from './pois.dto';

export const MAX_BULK_POIS = 1000;

type Placement = Pick<Poi, 'buildingId' | 'floorId' | 'latitude' | 'longitude' | 'x' | 'y' | 'radius'>;

@Injectable()
export class PoisService {
  constructor(
    @InjectRepository(Poi) private readonly pois: Repository<Poi>,
    private readonly buildings: BuildingsService,
    private readonly floors: FloorsService,
    private readonly categories: PoiCategoriesService,
    private readonly revisions: BuildingRevisions,
    private readonly transactions: TransactionRunner,
    private readonly sanitizer: SanitizerPool,
  ) {}

  async list(principal: Principal, query: ListPoisQuery): Promise<PoiResponseDto[]> {
    const building = buildingCondition(principal, query.building_id);
    if (building === null) return [];
    const where: FindOptionsWhere<Poi> = {
      organizationId: principal.organizationId,
      ...onlyDefined({ buildingId: building }),
      ...(query.type === 'indoor' && { floorId: Not(IsNull()) }),
      ...(query.type === 'outdoor' && { floorId: IsNull() }),
    };
    const pois = await this.pois.find({ where, order: { id: 'ASC' } });
    return renderPois(this.pois.manager, pois);
  }

  async listForBuilding(principal: Principal, buildingId: number, query: ListPoisQuery): Promise<PoiResponseDto[]> {
    await this.buildings.findOwned(principal, buildingId);
    return this.list(principal, { ...query, building_id: buildingId });
  }

  async get(principal: Principal, id: number): Promise<Versioned<PoiResponseDto>> {
    const poi = await this.findOwned(principal, id);
    const [response] = await renderPois(this.pois.manager, [poi]);
    return new Versioned(response, poi.version);
  }

  async create(principal: Principal, dto: CreatePoiDto): Promise<Versioned<PoiResponseDto>> {
    const info = await this.sanitizer.sanitizeRichText(dto.info ?? '');
    return this.transactions.run(async (manager) => {
      const poi = await this.build(principal, dto, info, manager, '');
      await manager.insert(Poi, poi);
      await this.revisions.bump(manager, [poi.buildingId]);
      const [response] = await renderPois(manager, [poi]);
      return new Versioned(response, poi.version);
    });
  }

  /**
   * All or nothing: every item is validated (shape, then references) and every problem is
   * reported with its item index (`[3].position.floor_id`) before anything is written.
   */
  async createBulk(principal: Principal, body: unknown): Promise<PoiResponseDto[]> {
    if (!Array.isArray(body)) {
      throw ApiError.validation('The body must be a JSON array of POIs', [{ message: 'must be an array', code: 'invalid', fields: 'body' }]);
    }
    if (body.length === 0 || body.length > MAX_BULK_POIS) {
      throw ApiError.validation(`Send 1 to ${MAX_BULK_POIS} POIs`, [{ message: `must hold 1 to ${MAX_BULK_POIS} items`, code: 'invalid', fields: 'body' }]);
    }
    const dtos: CreatePoiDto[] = [];
    const errors: FieldError[] = [];
    for (const [index, item] of body.entries()) {
      const dto = plainToInstance(CreatePoiDto, item ?? {}, { excludeExtraneousValues: false });
      const problems = item !== null && typeof item === 'object' && !Array.isArray(item) ? await validate(dto, { whitelist: true, forbidUnknownValues: true }) : [];
      if (item === null || typeof item !== 'object' || Array.isArray(item)) {
        errors.push({ message: 'must be a JSON object', code: 'invalid', fields: `[${index}]` });
      }
      errors.push(...flattenValidationErrors(problems, `[${index}]`));
      dtos.push(dto);
    }
    if (errors.length > 0) throw ApiError.validation('Some POIs are not valid; none was created', errors);

    // Sanitized before the transaction, in one worker job for the long texts.
    const infos = await this.sanitizer.sanitizeRichTexts(dtos.map((dto) => dto.info ?? ''));
    return this.transactions.run(async (manager) => {
      const pois: Poi[] = [];
      for (const [index, dto] of dtos.entries()) {
        try {
          pois.push(await this.build(principal, dto, infos[index], manager, `[${index}].`));
        } catch (error) {
          if (!(error instanceof ApiError) || error.status !== 422) throw error;
          errors.push(...error.errors);
        }
      }
      if (errors.length > 0) throw ApiError.validation('Some POIs are not valid; none was created', errors);
      // Inserted one by one to learn each generated id on both databases.
      for (const poi of pois) await manager.insert(Poi, poi);
      await this.revisions.bump(
        manager,
        pois.map((poi) => poi.buildingId),
      );
      return renderPois(manager, pois);
    });
  }

  async update(principal: Principal, id: number, dto: UpdatePoiDto, ifMatch?: number[]): Promise<Versioned<PoiResponseDto>> {
    // Sanitized before the transaction: a long text goes to the sanitizer worker.
    const info = dto.info === undefined ? undefined : await this.sanitizer.sanitizeRichText(dto.info);
    return retryOnConcurrentUpdate(() =>
      this.transactions.run(async (manager) => {
        const poi = await this.findOwned(principal, id, manager, 'update');
        assertVersionMatches(poi.version, ifMatch);
        const buildingId = dto.building_id ?? poi.buildingId;
        let placement: Placement | undefined;
        if (dto.position !== undefined || buildingId !== poi.buildingId) {
          // Coordinates not sent are kept: moving a POI to another floor may send only floor_id.
          const kept = { georeferences: { lat: poi.latitude, lng: poi.longitude } };
          // Likewise for floor_id and radius: only the keys sent change.
          const position = dto.position
            ? {
                ...dto.position,
                ...(dto.position.georeferences || dto.position.cartesians ? {} : kept),
                floor_id: 'floor_id' in dto.position && dto.position.floor_id !== undefined ? dto.position.floor_id : poi.floorId,
                radius: dto.position.radius ?? poi.radius ?? undefined,
              }
            : { floor_id: poi.floorId, ...kept, radius: poi.radius ?? undefined };
          placement = await this.place(principal, buildingId, position, manager, '');
        }
        const categoryId = dto.category_id === undefined ? undefined : await this.checkCategory(principal, dto.category_id, manager, '');
        const changes: Partial<Poi> = {
          ...placement,
          ...(dto.name !== undefined && { name: dto.name }),
          ...(info !== undefined && { info, infoUnsafe: dto.info }),
          ...(categoryId !== undefined && { categoryId }),
          ...(dto.custom_fields !== undefined && { customFields: dto.custom_fields }),
          updatedAt: new Date(),
        };
        if (!(await updateIfVersion(manager, Poi, poi, changes))) return false;
        await this.revisions.bump(manager, [poi.buildingId, buildingId]);
        const updated = { ...poi, ...changes, version: poi.version + 1 };
        const [response] = await renderPois(manager, [updated]);
        return new Versioned(response, updated.version);
      }),
    );
  }

  async remove(principal: Principal, id: number): Promise<void> {
    await this.transactions.run(async (manager) => {
      const poi = await this.findOwned(principal, id, manager, 'update');
      await manager.delete(Poi, { id: poi.id });
      await this.revisions.bump(manager, [poi.buildingId]);
    });
  }

  private async findOwned(principal: Principal, id: number, manager: EntityManager = this.pois.manager, lock?: RowLock): Promise<Poi> {
    const poi = await manager.findOne(Poi, { where: { id, organizationId: principal.organizationId }, ...lockOptions(manager, lock) });
    if (!poi || !canSeeBuilding(principal, poi.buildingId)) throw ApiError.notFound('POI', id);
    return poi;
  }

  private async build(principal: Principal, dto: CreatePoiDto, info: string, manager: EntityManager, prefix: string): Promise<Poi> {
    const placement = await this.place(principal, dto.building_id, dto.position, manager, prefix);
    const categoryId = (await this.checkCategory(principal, dto.category_id ?? null, manager, prefix)) ?? null;
    const now = new Date();
    return manager.create(Poi, {
      ...placement,
      organizationId: principal.organizationId,
      categoryId,
      name: dto.name,
      info,
      infoUnsafe: dto.info ?? '',
      customFields: dto.custom_fields ?? [],
      version: 1,
      createdAt: now,
      updatedAt: now,
    });
  }

  /** Where the POI is: its building, its floor (in that building) or none, and both coordinate systems. */
  private async place(principal: Principal, buildingId: number, position: PoiPositionInputDto, manager: EntityManager, prefix: string): Promise<Placement> {
    const building: Building = await this.withPrefix(prefix, () => this.buildings.findReferenced(principal, buildingId, 'building_id', manager));
    const floorId = position.floor_id ?? null;
    if (floorId !== null) {
      const floor = await this.withPrefix(prefix, () => this.floors.findReferenced(principal, floorId, 'position.floor_id', manager));
      if (floor.buildingId !== building.id) {
        throw ApiError.validation('The POI is not valid', [
          { message: 'the floor is not in the given building', code: 'invalid', fields: `${prefix}position.floor_id`, value: floorId },
        ]);
      }
    }
    const frame = { latitude: building.latitude, longitude: building.longitude, width: building.width, length: building.length, rotation: building.rotation };
    let georeference = position.georeferences;
    let cartesian = position.cartesians;
    if (georeference) cartesian = toCartesian(frame, georeference);
    else if (cartesian) georeference = toGeoreference(frame, cartesian);
    if (!georeference || !cartesian) {
      throw ApiError.validation('The POI is not valid', [
        { message: 'position needs georeferences {lat, lng} or cartesians {x, y}', code: 'required', fields: `${prefix}position` },
      ]);
    }
    // What is derived is held to the same ranges as what is sent.
    const [problem, sentField] = position.georeferences ? [derivedCartesianProblem(cartesian), 'georeferences'] : [derivedGeoreferenceProblem(georeference), 'cartesians'];
    if (problem) {
      throw ApiError.validation('The POI is not valid', [{ message: problem, code: 'out_of_range', fields: `${prefix}position.${sentField}` }]);
    }
    return {
      buildingId: building.id,
      floorId,
      latitude: georeference.lat,
      longitude: georeference.lng,
      x: cartesian.x,
      y: cartesian.y,
      radius: position.radius ?? null,
    };
  }

  private async checkCategory(principal: Principal, categoryId: number | null, manager: EntityManager, prefix: string): Promise<number | null> {
    if (categoryId === null) return null;
    const category = await this.withPrefix(prefix, () => this.categories.findReferenced(principal, categoryId, 'category_id', manager));
    return category.id;
  }

  /** Re-labels a 422's fields with the bulk item prefix. */
  private async withPrefix<T>(prefix: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (!prefix || !(error instanceof ApiError) || error.status !== 422) throw error;
      throw ApiError.validation(
        error.message,
        error.errors.map((item) => ({ ...item, fields: `${prefix}${item.fields}` })),
      );
    }
  }
}
