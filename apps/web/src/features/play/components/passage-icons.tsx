import { BranchesOutlined, CameraOutlined } from '@ant-design/icons-svg';
import { renderIconDefinitionToSVGElement } from '@ant-design/icons-svg/lib/helpers';
import type { CSSProperties } from 'react';

// The icons of the passage tools: Ant Design's own drawings (those CameraOutlined and BranchesOutlined show).
const ICONS = { camera: CameraOutlined, branches: BranchesOutlined } as const;

/**
 * The passage tools' icons as CSS variables (`--tl-passage-icon-camera`, ...) that play.css paints through a
 * mask in the text's colour. A long story shows hundreds of passages, each with its tools: an icon component
 * each (context, styles, a tree of SVG elements) weighed on the first render of a 1,000,000-character story;
 * a button whose icon is its own style costs no element at all.
 */
export const passageIconVars: CSSProperties = Object.fromEntries(
  Object.entries(ICONS).map(([name, definition]) => [
    `--tl-passage-icon-${name}`,
    // A standalone SVG document (an image): it names its namespace.
    `url("data:image/svg+xml,${encodeURIComponent(renderIconDefinitionToSVGElement(definition, { extraSVGAttrs: { xmlns: 'http://www.w3.org/2000/svg' } }))}")`,
  ]),
) as CSSProperties;
