export enum Role {
  AdminOrg = 'ADMIN_ORG',
  User = 'USER',
}
