/** A base-URL shortcut: the provider's OpenAI-compatible address and an example model name. Labels are in the locale files. */
export interface ProviderPreset {
  id: string;
  baseUrl: string;
  exampleModel: string;
  /** A server on the user's own machine: the operator must allow local networks for it. */
  local?: boolean;
}

// The addresses keep their version segment (/v1, /v3, /v4, …) and never end with /chat/completions:
// the client appends that itself.
export const PROVIDER_PRESETS: readonly ProviderPreset[] = [
  { id: 'openai', baseUrl: 'https://api.openai.com/v1', exampleModel: 'gpt-4o-mini' },
  { id: 'deepseek', baseUrl: 'https://api.deepseek.com', exampleModel: 'deepseek-chat' },
  { id: 'openrouter', baseUrl: 'https://openrouter.ai/api/v1', exampleModel: 'deepseek/deepseek-chat' },
  { id: 'siliconflow', baseUrl: 'https://api.siliconflow.cn/v1', exampleModel: 'deepseek-ai/DeepSeek-V3' },
  { id: 'moonshot', baseUrl: 'https://api.moonshot.cn/v1', exampleModel: 'moonshot-v1-8k' },
  { id: 'zhipu', baseUrl: 'https://open.bigmodel.cn/api/paas/v4', exampleModel: 'glm-4-flash' },
  { id: 'dashscope', baseUrl: 'https://dashscope.aliyuncs.com/compatible-mode/v1', exampleModel: 'qwen-plus' },
  { id: 'ark', baseUrl: 'https://ark.cn-beijing.volces.com/api/v3', exampleModel: 'doubao-1-5-pro-32k-250115' },
  { id: 'groq', baseUrl: 'https://api.groq.com/openai/v1', exampleModel: 'llama-3.3-70b-versatile' },
  { id: 'together', baseUrl: 'https://api.together.xyz/v1', exampleModel: 'meta-llama/Llama-3.3-70B-Instruct-Turbo' },
  { id: 'mistral', baseUrl: 'https://api.mistral.ai/v1', exampleModel: 'mistral-small-latest' },
  { id: 'ollama', baseUrl: 'http://localhost:11434/v1', exampleModel: 'qwen3:8b', local: true },
  { id: 'lmstudio', baseUrl: 'http://localhost:1234/v1', exampleModel: 'qwen2.5-7b-instruct', local: true },
];

/** The preset whose address this is (trailing slashes aside), if any. */
export function presetOf(baseUrl: string): ProviderPreset | undefined {
  const url = baseUrl.trim().replace(/\/+$/, '');
  return PROVIDER_PRESETS.find((p) => p.baseUrl === url);
}
