import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Principal } from '../access/principal';
import { DirectionsService } from '../cartography/paths/directions.service';
import { followRoute, startOf } from '../cartography/paths/router';
import { ApiError } from '../common/errors/api-error';
import { TransactionLocks } from '../database/transaction-locks';
import { TransactionRunner } from '../database/transactions';
import { DeviceNavigation } from './device-navigation.entity';
import { DeviceNavigationsRepository } from './device-navigations.repository';
import { NavigationRequestDto, NavigationResponseDto } from './navigation.dto';
import { storedProgressOf, storedRouteOf, toNavigationResponse } from './navigation.mapper';

/**
 * Guiding a device to a destination (issue 40, "Following a route"): the route is planned by
 * directions from the device's live position; its fixes then move the progress on
 * (NavigationFollower, a stage of the fix pipeline). Writes take the device's lock, as the
 * pipeline's do, so a start or an end never crosses a batch of the device's fixes.
 */
@Injectable()
export class NavigationService {
  constructor(
    private readonly directions: DirectionsService,
    private readonly navigations: DeviceNavigationsRepository,
    private readonly transactions: TransactionRunner,
    private readonly locks: TransactionLocks,
  ) {}

  /** Starts guiding the device (a guidance it had is replaced), and answers its progress at the start. */
  async start(principal: Principal, deviceId: string, dto: NavigationRequestDto): Promise<NavigationResponseDto> {
    if (dto.from !== undefined) {
      throw ApiError.validation('The navigation request is not valid', [{ message: 'a navigation starts where the device is: leave from out', code: 'invalid', fields: 'from' }]);
    }
    const { from: _from, ...request } = dto;
    const { planned, fix } = await this.directions.fromDevice(principal, deviceId, request);
    const route = storedRouteOf(planned);
    const progress = followRoute(route.followed, planned.from, startOf(route.followed), planned.settings);
    const now = new Date();
    const navigation: DeviceNavigation = {
      organizationId: principal.organizationId,
      deviceId,
      buildingId: planned.buildingId,
      request: { ...request },
      plan: { destinations: planned.destinations, options: planned.options },
      route,
      progress: storedProgressOf(progress),
      fixTimeMs: fix.time,
      startedAt: now,
      updatedAt: now,
      arrivedAt: progress.arrived ? now : null,
    };
    await this.underDeviceLock(principal.organizationId, deviceId, (manager) => this.navigations.save(manager, navigation));
    return toNavigationResponse(navigation);
  }

  async get(principal: Principal, deviceId: string): Promise<NavigationResponseDto> {
    const navigation = await this.navigations.guided(principal.organizationId, deviceId);
    if (!navigation) throw notGuided(deviceId);
    return toNavigationResponse(navigation);
  }

  async end(principal: Principal, deviceId: string): Promise<void> {
    const ended = await this.underDeviceLock(principal.organizationId, deviceId, (manager) => this.navigations.endGuidance(manager, principal.organizationId, deviceId));
    if (!ended) throw notGuided(deviceId);
  }

  private underDeviceLock<T>(organizationId: string, deviceId: string, work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.locks.inTurn(organizationId, [deviceId], () =>
      this.transactions.run(async (manager) => {
        await this.locks.lockDevices(manager, organizationId, [deviceId]);
        return work(manager);
      }),
    );
  }
}

const notGuided = (deviceId: string) => ApiError.notFound('Navigation of device', deviceId);
