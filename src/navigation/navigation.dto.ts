import { ApiHideProperty, ApiProperty, OmitType } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { DirectionsRequestDto, DirectionsResponseDto, RouteIndicationDto, RoutePointDto } from '../cartography/paths/directions.dto';

/** `PUT /devices/{id}/navigation`: a directions request without `from` (the route starts where the device is). */
export class NavigationRequestDto extends OmitType(DirectionsRequestDto, ['from'] as const) {
  /** Refused with a 422 naming it (NavigationService.start): taken in only to be named. */
  @ApiHideProperty()
  @Allow()
  from?: unknown;
}

/** A guided device's progress: the answer of the navigation routes and the `navigation` of its live stream frames. */
export class NavigationResponseDto {
  @ApiProperty() device_id: string;
  @ApiProperty() building_id: number;
  @ApiProperty({ type: RoutePointDto, description: 'Where the route ends: the snapped destination (the route’s `to`)' }) destination: RoutePointDto;
  @ApiProperty({ description: 'Metres along the route from where the device is on it to the destination' }) distance_remaining: number;
  @ApiProperty({ description: 'Seconds of the route left, at the request’s speed, floor changes included' }) duration_remaining: number;
  @ApiProperty({ type: RouteIndicationDto, description: 'The first of the route’s indications not behind the device (arrive at the end)' })
  next_indication: RouteIndicationDto;
  @ApiProperty({ description: 'The newest fix is farther than the building’s off_route_distance_m from the route (or on none of its floors)' }) off_route: boolean;
  @ApiProperty({ description: 'The device reached its destination (within 3 m, on its floor): the guidance has ended' }) arrived: boolean;
  @ApiProperty({ type: DirectionsResponseDto, description: 'The route followed, as directions answer it; a new one after off_route_fixes off-route fixes in a row' })
  route: DirectionsResponseDto;
  @ApiProperty() started_at: string;
  @ApiProperty({ description: 'When the progress last changed (a fix followed, or the start)' }) updated_at: string;
}
