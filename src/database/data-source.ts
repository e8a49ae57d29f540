import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { readDatabaseConfig } from '../config/database.config';
import { buildDataSourceOptions } from './typeorm-options';

/** For the TypeORM CLI: `npm run typeorm -- migration:run` (same environment as the server). */
export default new DataSource(buildDataSourceOptions(readDatabaseConfig(process.env)));
