import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { LocalizedDto } from '../common/localized.dto';
import { POINTS_PAGE_SIZE_MAX } from './power-constants';

export const POINTS_RECORD_TYPES = ['income', 'expense'] as const;
export type PointsRecordType = (typeof POINTS_RECORD_TYPES)[number];

/** Query of `GET /api/user/user-points`: one page of the signed-in user's points record. */
export class UserPointsQueryDto extends LocalizedDto {
  /** 1-based page number; default 1. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100_000)
  page?: number;

  /** income (positive amounts) or expense (negative amounts); absent means both. */
  @IsOptional()
  @IsIn(POINTS_RECORD_TYPES as unknown as string[])
  type?: PointsRecordType;

  /** Rows per page; default 10, at most 50. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(POINTS_PAGE_SIZE_MAX)
  pageSize?: number;
}
