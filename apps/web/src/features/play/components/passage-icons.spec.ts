import { BranchesOutlined, CameraOutlined } from '@ant-design/icons-svg';
import type { AbstractNode } from '@ant-design/icons-svg/lib/types';
import { describe, expect, it } from 'vitest';
import { passageIconVars } from './passage-icons';

// The SVG document a variable's data URL holds.
function svgOf(name: string): Document {
  const value = (passageIconVars as Record<string, string>)[`--tl-passage-icon-${name}`];
  const match = /^url\("data:image\/svg\+xml,(.*)"\)$/.exec(value);
  expect(match).not.toBeNull();
  return new DOMParser().parseFromString(decodeURIComponent(match![1]), 'image/svg+xml');
}

describe('passage icons', () => {
  it.each([
    ['camera', CameraOutlined],
    ['branches', BranchesOutlined],
  ])('%s is the Ant Design drawing as a standalone SVG', (name, definition) => {
    const doc = svgOf(name);
    expect(doc.querySelector('parsererror')).toBeNull();
    const svg = doc.documentElement;
    expect(svg.getAttribute('xmlns')).toBe('http://www.w3.org/2000/svg');
    const root = definition.icon as AbstractNode;
    expect(svg.getAttribute('viewBox')).toBe(root.attrs.viewBox);
    const paths = [...svg.querySelectorAll('path')].map((p) => p.getAttribute('d'));
    expect(paths).toEqual(root.children!.map((c) => c.attrs.d));
  });
});
