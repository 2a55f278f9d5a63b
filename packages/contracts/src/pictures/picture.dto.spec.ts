import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { describe, expect, it } from 'vitest';
import { picSizeDimensions, placePictures, RequestPictureDto } from '../index';

const check = (body: object) =>
  validateSync(plainToInstance(RequestPictureDto, body) as object, { whitelist: true, forbidNonWhitelisted: true }).map((e) => e.property);

describe('RequestPictureDto', () => {
  it('takes a passage range of whole non-negative numbers', () => {
    expect(check({ from: 0, to: 12 })).toEqual([]);
    expect(check({ from: -1, to: 12 })).toEqual(['from']);
    expect(check({ from: 0.5, to: '12' })).toEqual(['from', 'to']);
    expect(check({ from: 0, to: 1, extra: true })).toEqual(['extra']);
  });
});

describe('picSizeDimensions', () => {
  it('reads WIDTH*HEIGHT', () => {
    expect(picSizeDimensions('512*768')).toEqual({ width: 512, height: 768 });
    expect(picSizeDimensions('1024*1024')).toEqual({ width: 1024, height: 1024 });
  });
});

describe('placePictures', () => {
  const text = 'First line.\nMara: I wave.\nThe ferry comes.\nLast line.';
  const at = (passage: string) => ({ from: text.indexOf(passage), to: text.indexOf(passage) + passage.length, excerpt: passage.slice(-8) });

  it('keeps a passage where it is, in text order', () => {
    const late = at('The ferry comes.');
    const early = at('First line.');
    expect(placePictures(text, [late, early]).map((p) => [p.from, p.to])).toEqual([
      [early.from, early.to],
      [late.from, late.to],
    ]);
  });

  it('finds a passage again after text before it changed, by its excerpt', () => {
    const picture = at('The ferry comes.');
    const edited = `A new opening paragraph.\n${text}`;
    const [placed] = placePictures(edited, [picture]);
    expect(edited.slice(placed.from, placed.to)).toBe('The ferry comes.');
  });

  it('starts a passage at its line start and stays inside a shortened text', () => {
    const [mid] = placePictures(text, [{ from: text.indexOf('wave'), to: text.indexOf('wave') + 4, excerpt: 'wave' }]);
    expect(mid.from).toBe(text.indexOf('Mara'));
    const [gone] = placePictures('Short.', [{ from: 30, to: 45, excerpt: 'not there' }]);
    expect(gone).toMatchObject({ from: 0, to: 6 });
  });
});
