import { BranchesOutlined, CameraOutlined } from '@ant-design/icons-svg';
import type { AbstractNode } from '@ant-design/icons-svg/lib/types';
import type { CSSProperties } from 'react';

// The icons of the passage tools: Ant Design's own drawings (those CameraOutlined and BranchesOutlined show).
const ICONS = { camera: CameraOutlined, branches: BranchesOutlined } as const;

export type PassageIconName = keyof typeof ICONS;

function markup(node: AbstractNode, root: boolean): string {
  const attrs = { ...node.attrs, ...(root ? { xmlns: 'http://www.w3.org/2000/svg' } : {}) };
  const list = Object.entries(attrs)
    .map(([name, value]) => ` ${name}="${value.replace(/"/g, '&quot;')}"`)
    .join('');
  return `<${node.tag}${list}>${(node.children ?? []).map((child) => markup(child, false)).join('')}</${node.tag}>`;
}

/**
 * The passage tools' icons as CSS variables (`--tl-passage-icon-camera`, ...) that play.css paints through a
 * mask in the text's colour. A long story shows hundreds of passages, each with its tools: an icon component
 * each (context, styles, a tree of SVG elements) weighed on the first render of a 1,000,000-character story;
 * a button whose icon is its own style costs no element at all.
 */
export const passageIconVars: CSSProperties = Object.fromEntries(
  (Object.keys(ICONS) as PassageIconName[]).map((name) => [
    `--tl-passage-icon-${name}`,
    `url("data:image/svg+xml,${encodeURIComponent(markup(ICONS[name].icon as AbstractNode, true))}")`,
  ]),
) as CSSProperties;
