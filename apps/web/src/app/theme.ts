import type { ThemeConfig } from 'antd';

export const BRAND_PRIMARY = '#4f46e5';

const FONT_FAMILY = [
  '-apple-system',
  'BlinkMacSystemFont',
  "'Segoe UI'",
  'Roboto',
  "'Helvetica Neue'",
  "'PingFang SC'",
  "'Hiragino Sans GB'",
  "'Microsoft YaHei'",
  "'Noto Sans CJK SC'",
  "'Noto Sans SC'",
  'sans-serif',
].join(', ');

/** Deep indigo primary, soft corners, CJK-friendly fonts. */
export const appTheme: ThemeConfig = {
  cssVar: { key: 'tl' },
  // Plain class names (.ant-btn): the style sheet made at build time (build/antd-styles.ts) matches them.
  hashed: false,
  token: {
    colorPrimary: BRAND_PRIMARY,
    colorInfo: BRAND_PRIMARY,
    colorLink: BRAND_PRIMARY,
    colorBgLayout: '#f6f6fb',
    colorTextHeading: '#1e1b4b',
    borderRadius: 10,
    borderRadiusLG: 14,
    fontFamily: FONT_FAMILY,
  },
  components: {
    Button: {
      fontWeight: 500,
      primaryShadow: '0 6px 16px -6px rgba(79, 70, 229, 0.55)',
    },
    Tabs: {
      titleFontSize: 15,
    },
    Card: {
      borderRadiusLG: 24,
    },
  },
};
