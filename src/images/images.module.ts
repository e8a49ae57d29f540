import { Module } from '@nestjs/common';
import { getDataSourceToken, TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { storageConfig, StorageConfig } from '../config/storage.config';
import { Image } from './image.entity';
import { ImagesController } from './images.controller';
import { ImagesService } from './images.service';
import { SqlRunner } from '../database/sql-runner';
import { DatabaseStorage } from './storage/database-image-store';
import { IMAGE_STORAGE, ImageStorage } from './storage/image-storage';
import { LocalDiskStorage } from './storage/local-disk.storage';
import { ImageThumbnails } from './thumbnails';

@Module({
  imports: [TypeOrmModule.forFeature([Image])],
  controllers: [ImagesController],
  providers: [
    ImagesService,
    ImageThumbnails,
    {
      provide: IMAGE_STORAGE,
      inject: [storageConfig.KEY, getDataSourceToken(), SqlRunner],
      useFactory: (config: StorageConfig, dataSource: DataSource, sql: SqlRunner): ImageStorage =>
        config.images === 'database' ? new DatabaseStorage(dataSource, sql) : new LocalDiskStorage(config.imagesDirectory),
    },
  ],
  exports: [ImagesService],
})
export class ImagesModule {}
