import { Entity, PrimaryColumn } from 'typeorm';

/** A building a user is restricted to. */
@Entity('user_buildings')
export class UserBuilding {
  @PrimaryColumn({ type: 'uuid' })
  userId: string;

  @PrimaryColumn({ type: 'integer' })
  buildingId: number;
}
