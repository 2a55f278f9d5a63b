// Where `/` goes, the sign-in screen, and the screens that need a signed-in user (signed out, they show
// the sign-in screen: require-auth.tsx). The router, the first screen's start (first-screen.ts) and the
// page's first script (vite.config.ts, build/first-screen-boot.js) decide alike from these.
export const HOME = '/stories';
export const SIGN_IN = '/login';
export const SIGNED_IN = ['/stories', '/play', '/create'];

/** The screen a path shows: `/` shows HOME. */
export const screenAt = (pathname: string): string => (pathname === '/' ? HOME : pathname);
