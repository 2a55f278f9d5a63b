import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { describe, expect, it } from 'vitest';
import { UserPointsQueryDto } from '../index';

const check = (query: Record<string, string>) => {
  const dto = plainToInstance(UserPointsQueryDto, query);
  const problems = validateSync(dto, { whitelist: true, forbidNonWhitelisted: true }).map((e) => e.property);
  return { dto, problems };
};

describe('UserPointsQueryDto', () => {
  it('turns numeric query strings into numbers', () => {
    const { dto, problems } = check({ page: '2', pageSize: '10', type: 'income' });
    expect(problems).toEqual([]);
    expect(dto).toMatchObject({ page: 2, pageSize: 10, type: 'income' });
  });
  it('names bad pages, sizes and types', () => {
    expect(check({ page: '0', pageSize: '51', type: 'all' }).problems.sort()).toEqual(['page', 'pageSize', 'type']);
    expect(check({ page: '1.5' }).problems).toEqual(['page']);
    expect(check({ page: 'abc' }).problems).toEqual(['page']);
  });
});
