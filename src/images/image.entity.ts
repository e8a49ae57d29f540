import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity('images')
export class Image {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ type: 'uuid' })
  organizationId: string;

  @Column({ type: 'varchar', length: 32 })
  contentType: string;

  @Column({ type: 'integer' })
  byteSize: number;

  /** SHA-256 (hex) of the stored bytes: the ETag. */
  @Column({ type: 'varchar', length: 64 })
  sha256: string;

  /** Which storage holds the bytes (`local` or `database`), so a store can change later. */
  @Column({ type: 'varchar', length: 16 })
  storage: string;

  @Column({ type: 'uuid', nullable: true })
  createdBy: string | null;

  @Column({ type: Date })
  createdAt: Date;
}
