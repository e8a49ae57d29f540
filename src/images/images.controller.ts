import { Controller, Get, Headers, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiPayloadTooLargeResponse,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Access } from '../access/decorators/access.decorator';
import { CurrentPrincipal } from '../access/decorators/current-principal.decorator';
import { AccessScope } from '../access/permissions';
import { Principal } from '../access/principal';
import { ErrorResponseDto } from '../common/errors/error-response.dto';
import { UuidParam } from '../common/http/params';
import { ImageQuery, ImageResponseDto, UploadImageDto } from './images.dto';
import { ImagesService, MAX_IMAGE_BYTES } from './images.service';
import { readUploadedFile } from './multipart';

/** If-None-Match (RFC 9110 13.1.2): `*`, or a list of tags compared weakly. */
function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

@ApiTags('Images')
@Controller('images')
export class ImagesController {
  constructor(private readonly images: ImagesService) {}

  @Post()
  @HttpCode(201)
  @Access(AccessScope.CartographyWrite)
  @ApiOperation({ summary: 'Upload an image (multipart field `image`; PNG, JPEG, WebP or SVG by content; at most 20 MiB)' })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ type: UploadImageDto })
  @ApiCreatedResponse({ type: ImageResponseDto })
  @ApiPayloadTooLargeResponse({ type: ErrorResponseDto })
  @ApiUnprocessableEntityResponse({ type: ErrorResponseDto })
  async upload(@CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest): Promise<ImageResponseDto> {
    return this.images.upload(principal, await readUploadedFile(request, 'image', MAX_IMAGE_BYTES));
  }

  @Get(':id')
  @Access(AccessScope.CartographyRead)
  @ApiOperation({ summary: 'The bytes of an image, with its content type and an ETag; `width` asks for a thumbnail' })
  @ApiOkResponse({ description: 'The image', content: { 'image/*': { schema: { type: 'string', format: 'binary' } } } })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto })
  async get(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('id') id: string,
    @Query() query: ImageQuery,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const image = await this.images.read(principal, id, query.width);
    const matches = etagMatches(ifNoneMatch, image.etag);
    const bytes = matches ? undefined : await image.bytes();
    // Images (and so their thumbnails) never change under an id: clients may keep them for good.
    reply
      .header('ETag', image.etag)
      .header('Cache-Control', 'private, max-age=31536000, immutable')
      // An SVG opened on its own must not run anything, whatever slipped through sanitizing.
      .header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox");
    if (!bytes) {
      await reply.code(304).send();
      return;
    }
    await reply.code(200).type(image.contentType).send(bytes);
  }
}
