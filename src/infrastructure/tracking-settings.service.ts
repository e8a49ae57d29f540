import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Principal } from '../access/principal';
import { BuildingsService } from '../cartography/buildings/buildings.service';
import { TransactionRunner } from '../database/transactions';
import { TrackingSettings, trackingSettingsOf } from './transmitter-sites';
import { TrackingSettingsResponseDto, UpdateTrackingSettingsDto } from './tracking-settings.dto';

interface Row {
  scans: boolean | number;
  positions: boolean | number;
  reset_after_seconds: number | string;
}

/** A building's tracking settings (`building_tracking`), read by every batch of scans (TransmitterSites) and of reported positions (FixPlaces) with the building. */
@Injectable()
export class TrackingSettingsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
    private readonly buildings: BuildingsService,
  ) {}

  async get(principal: Principal, buildingId: number): Promise<TrackingSettingsResponseDto> {
    const manager = this.dataSource.manager;
    const building = await this.buildings.findOwned(principal, buildingId, manager);
    const row = await this.read(manager, building.id);
    return toResponse(building.id, trackingSettingsOf(row), row !== null);
  }

  async update(principal: Principal, buildingId: number, dto: UpdateTrackingSettingsDto): Promise<TrackingSettingsResponseDto> {
    return this.transactions.run(async (manager) => {
      const building = await this.buildings.findOwned(principal, buildingId, manager);
      const row = await this.read(manager, building.id);
      const current = trackingSettingsOf(row);
      const next: TrackingSettings = {
        scans: dto.scans ?? current.scans,
        positions: dto.positions ?? current.positions,
        resetAfterSeconds: dto.reset_after_seconds ?? current.resetAfterSeconds,
      };
      const [sql, parameters] = this.transactions.escape(
        `INSERT INTO "building_tracking" ("building_id", "organization_id", "scans", "positions", "reset_after_seconds", "version", "updated_at")
         VALUES (:buildingId, :organizationId, :scans, :positions, :resetAfterSeconds, 1, :now)
         ON CONFLICT ("building_id") DO UPDATE SET "scans" = excluded."scans", "positions" = excluded."positions", "reset_after_seconds" = excluded."reset_after_seconds",
           "version" = "building_tracking"."version" + 1, "updated_at" = excluded."updated_at"`,
        {
          buildingId: building.id,
          organizationId: principal.organizationId,
          scans: next.scans,
          positions: next.positions,
          resetAfterSeconds: next.resetAfterSeconds,
          now: new Date(),
        },
      );
      await manager.query(sql, parameters);
      return toResponse(building.id, next, true);
    });
  }

  private async read(manager: EntityManager, buildingId: number): Promise<Row | null> {
    const [sql, parameters] = this.transactions.escape(`SELECT "scans", "positions", "reset_after_seconds" FROM "building_tracking" WHERE "building_id" = :buildingId`, {
      buildingId,
    });
    const rows = (await manager.query(sql, parameters)) as Row[];
    return rows[0] ?? null;
  }
}

function toResponse(buildingId: number, settings: TrackingSettings, custom: boolean): TrackingSettingsResponseDto {
  return { building_id: buildingId, scans: settings.scans, positions: settings.positions, reset_after_seconds: settings.resetAfterSeconds, custom };
}
