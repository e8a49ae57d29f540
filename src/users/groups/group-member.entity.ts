import { Entity, PrimaryColumn } from 'typeorm';

@Entity('group_members')
export class GroupMember {
  @PrimaryColumn({ type: 'uuid' })
  groupId: string;

  @PrimaryColumn({ type: 'uuid' })
  userId: string;
}
