import { formatTimestamp } from '../../common/time/timestamps';
import { optionalImageUrl } from '../../images/image.mapper';
import { PoiCategory } from './poi-category.entity';
import { PoiCategoryResponseDto } from './poi-categories.dto';

export function toPoiCategoryResponse(category: PoiCategory): PoiCategoryResponseDto {
  return {
    id: category.id,
    name_en: category.nameEn,
    name_es: category.nameEs,
    code: category.code,
    public: category.isPublic,
    icon_url: optionalImageUrl(category.iconImageId),
    selected_icon_url: optionalImageUrl(category.selectedIconImageId),
    created_at: formatTimestamp(category.createdAt),
    updated_at: formatTimestamp(category.updatedAt),
  };
}
