import { PIC_SIZES } from '@taleloom/contracts';
import { badNetworkEntries } from './network-list';

// The variables these rules read; EnvironmentVariables (env.validation.ts) has each of them.
type CheckedName =
  | 'NODE_ENV'
  | 'SMS_PROVIDER'
  | 'TWILIO_ACCOUNT_SID'
  | 'TWILIO_AUTH_TOKEN'
  | 'TWILIO_FROM'
  | 'CAPTCHA_PROVIDER'
  | 'TURNSTILE_SITE_KEY'
  | 'TURNSTILE_SECRET_KEY'
  | 'IMAGES_PROVIDER'
  | 'IMAGES_BASE_URL'
  | 'IMAGES_MODEL'
  | 'IMAGES_SIZE_MAP'
  | 'CUSTOM_MODEL_ALLOWED_NETWORKS';

// Rules that span several variables; each problem is one sentence naming the variable.
export function crossCheck(env: Readonly<Partial<Record<CheckedName, string>>>): string[] {
  const problems: string[] = [];
  if (env.SMS_PROVIDER === 'twilio') {
    for (const name of ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM'] as const) {
      if (!env[name]) problems.push(`Configuration variable ${name} is required when SMS_PROVIDER is twilio.`);
    }
  }
  if (env.CAPTCHA_PROVIDER === 'turnstile') {
    for (const name of ['TURNSTILE_SITE_KEY', 'TURNSTILE_SECRET_KEY'] as const) {
      if (!env[name]) problems.push(`Configuration variable ${name} is required when CAPTCHA_PROVIDER is turnstile.`);
    }
  }
  if (env.IMAGES_PROVIDER === 'openai') {
    for (const name of ['IMAGES_BASE_URL', 'IMAGES_MODEL'] as const) {
      if (!env[name]) problems.push(`Configuration variable ${name} is required when IMAGES_PROVIDER is openai.`);
    }
  }
  if (env.IMAGES_SIZE_MAP) {
    const problem = imageSizeMapProblem(env.IMAGES_SIZE_MAP);
    if (problem) problems.push(`Configuration variable IMAGES_SIZE_MAP ${problem}.`);
  }
  if (env.NODE_ENV === 'production' && env.SMS_PROVIDER === 'outbox') {
    problems.push('Configuration variable SMS_PROVIDER cannot be outbox (a test sender) when NODE_ENV is production.');
  }
  if (env.NODE_ENV === 'production' && env.CAPTCHA_PROVIDER === 'fixed') {
    problems.push('Configuration variable CAPTCHA_PROVIDER cannot be fixed (a test captcha) when NODE_ENV is production.');
  }
  if (env.CUSTOM_MODEL_ALLOWED_NETWORKS) {
    const bad = badNetworkEntries(env.CUSTOM_MODEL_ALLOWED_NETWORKS);
    if (bad.length) {
      problems.push(
        `Configuration variable CUSTOM_MODEL_ALLOWED_NETWORKS has entries that are not an address or CIDR (${bad.join(', ')}): ` +
          'use e.g. 127.0.0.1/32,::1/128,192.168.1.0/24, or * for any.',
      );
    }
  }
  return problems;
}

// IMAGES_SIZE_MAP is a JSON object from story sizes to WIDTHxHEIGHT strings; answers what is wrong, or null.
function imageSizeMapProblem(text: string): string | null {
  let map: unknown;
  try {
    map = JSON.parse(text);
  } catch {
    return 'is not valid JSON';
  }
  if (!map || typeof map !== 'object' || Array.isArray(map)) return 'must be a JSON object such as {"512*768":"1024x1536"}';
  for (const [key, value] of Object.entries(map)) {
    if (!(PIC_SIZES as readonly string[]).includes(key)) return `has an unknown size ${JSON.stringify(key)} (known: ${PIC_SIZES.join(', ')})`;
    if (typeof value !== 'string' || !/^\d{2,5}x\d{2,5}$/.test(value)) return `maps ${key} to ${JSON.stringify(value)}, which is not WIDTHxHEIGHT`;
  }
  return null;
}
