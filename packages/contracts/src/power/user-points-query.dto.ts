import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { LocalizedDto } from '../common/localized.dto';
import { POINTS_PAGE_SIZE_MAX } from './power-constants';

// Query strings arrive as text. Not @Transform(toNumber): class-transformer's @Type reads
// reflect-metadata when the class is declared, which would break importers without it (the browser).
const toNumber = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;

export const POINTS_RECORD_TYPES = ['income', 'expense'] as const;
export type PointsRecordType = (typeof POINTS_RECORD_TYPES)[number];

/** Query of `GET /api/user/user-points`: one page of the signed-in user's points record. */
export class UserPointsQueryDto extends LocalizedDto {
  /** 1-based page number; default 1. */
  @IsOptional()
  @Transform(toNumber)
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
  @Transform(toNumber)
  @IsInt()
  @Min(1)
  @Max(POINTS_PAGE_SIZE_MAX)
  pageSize?: number;
}
