import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Principal } from '../access/principal';
import { BuildingsService } from '../cartography/buildings/buildings.service';
import { TransactionRunner } from '../database/transactions';
import { TrackingSettingsRepository } from './tracking-settings.repository';
import { TrackingSettings, trackingSettingsOf } from './transmitter-sites';
import { TrackingSettingsResponseDto, UpdateTrackingSettingsDto } from './tracking-settings.dto';

/** A building's tracking settings (`building_tracking`), read by every batch of scans (TransmitterSites) and of reported positions (FixPlaces) with the building. */
@Injectable()
export class TrackingSettingsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
    private readonly buildings: BuildingsService,
    private readonly rows: TrackingSettingsRepository,
  ) {}

  async get(principal: Principal, buildingId: number): Promise<TrackingSettingsResponseDto> {
    const manager = this.dataSource.manager;
    const building = await this.buildings.findOwned(principal, buildingId, manager);
    const row = await this.rows.read(manager, building.id);
    return toResponse(building.id, trackingSettingsOf(row), row !== null);
  }

  async update(principal: Principal, buildingId: number, dto: UpdateTrackingSettingsDto): Promise<TrackingSettingsResponseDto> {
    return this.transactions.run(async (manager) => {
      const building = await this.buildings.findOwned(principal, buildingId, manager);
      const row = await this.rows.read(manager, building.id);
      const current = trackingSettingsOf(row);
      const next: TrackingSettings = {
        scans: dto.scans ?? current.scans,
        positions: dto.positions ?? current.positions,
        resetAfterSeconds: dto.reset_after_seconds ?? current.resetAfterSeconds,
      };
      await this.rows.write(manager, building.id, principal.organizationId, next, new Date());
      return toResponse(building.id, next, true);
    });
  }
}

function toResponse(buildingId: number, settings: TrackingSettings, custom: boolean): TrackingSettingsResponseDto {
  return { building_id: buildingId, scans: settings.scans, positions: settings.positions, reset_after_seconds: settings.resetAfterSeconds, custom };
}
