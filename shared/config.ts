import { z } from 'zod'
import { MAX_INSTRUCTIONS_CHARS } from './instructions'
import { mcpSettingsSchema } from './mcp'
import { memoryProviderNames } from './recall'

/**
 * The settings file (`config.json` in the data home). Every section is a loose object: keys this
 * version does not know are preserved on write, so an older Cairn never drops a newer one's settings.
 * `prefault` (not `default`) so a missing section is parsed and gets its inner defaults.
 */

export const memoryConfigSchema = z.looseObject({
  enabled: z.boolean().default(true),
  userProfileEnabled: z.boolean().default(true),
  memoryCharLimit: z.number().int().min(100).max(1_000_000).default(2200),
  userCharLimit: z.number().int().min(100).max(1_000_000).default(1375),
  /** Each workspace's project memory (memories/projects/<key>/PROJECT.md); the same default as MEMORY.md's. */
  projectCharLimit: z.number().int().min(100).max(1_000_000).default(2200),
  /** The memory provider recalled from and synced to (one at a time): the archive (built in), Mem0 or Honcho. Keys live with the other secrets. */
  provider: z.enum(memoryProviderNames).default('builtin'),
  mem0: z
    .looseObject({
      /** `oss`: Mem0's open-source library in this process, on the user's own model provider, stored under the data home; `platform`: Mem0's service, with a key. */
      mode: z.enum(['oss', 'platform']).default('oss'),
      userId: z.string().min(1).max(200).default('cairn-user'),
      /** The embedding model of the open-source mode; empty: `search.embeddingModel`. */
      embeddingModel: z.string().max(200).default(''),
      /** The platform's address; empty: Mem0's own. */
      host: z.string().max(500).default('')
    })
    .prefault({}),
  honcho: z
    .looseObject({
      /** The Honcho server; empty: Honcho's hosted service. */
      baseURL: z.string().max(500).default(''),
      workspaceId: z.string().min(1).max(200).default('cairn'),
      peerId: z.string().min(1).max(200).default('user')
    })
    .prefault({})
})

export const skillsConfigSchema = z.looseObject({
  /** Read-only skill roots. `~` expands to the home folder; missing folders are skipped. */
  extraDirs: z.array(z.string()).default(['~/.agents/skills', '~/.claude/skills']),
  indexTokenBudget: z.number().int().min(200).max(100_000).default(3000),
  /** Days without use after which a skill is marked stale (never deleted). */
  staleAfterDays: z.number().int().min(1).default(30),
  /** Days without use after which a skill Cairn wrote is moved to `skills/.archive` (reversible); 0 = never. */
  archiveAfterDays: z.number().int().min(0).default(90),
  /** Team skill libraries: git remotes pulled into `<home>/shared-skills/<name>` as read-only roots (see sharedSkillsSchema). */
  shared: z.array(z.unknown()).default([])
})

export const providerPresets = ['openai', 'openrouter', 'ollama', 'lmstudio', 'custom'] as const
export type ProviderPreset = (typeof providerPresets)[number]

export const presetBaseURLs: Record<ProviderPreset, string> = {
  openai: 'https://api.openai.com/v1',
  openrouter: 'https://openrouter.ai/api/v1',
  ollama: 'http://127.0.0.1:11434/v1',
  lmstudio: 'http://127.0.0.1:1234/v1',
  custom: ''
}

/** Presets that run on the user's machine and need no API key. */
export const localPresets: ReadonlySet<ProviderPreset> = new Set(['ollama', 'lmstudio'])

export const providerConfigSchema = z.looseObject({
  preset: z.enum(providerPresets).default('openai'),
  /** Overrides the preset's base URL; required for `custom`. */
  baseURL: z.string().default(''),
  model: z.string().default(''),
  requestTimeoutMs: z.number().int().min(1000).default(120_000),
  maxRetries: z.number().int().min(0).max(10).default(3)
})

export { MAX_INSTRUCTIONS_CHARS } from './instructions'

export const agentConfigSchema = z.looseObject({
  maxIterations: z.number().int().min(1).max(500).default(30),
  /** The user's own instructions, part of every new conversation's system prompt (a change applies from the next conversation). */
  instructions: z.string().max(MAX_INSTRUCTIONS_CHARS).default(''),
  /**
   * Where new app and browser-mode conversations work (read_file, run_command, …); empty = ~/Cairn. Each
   * conversation stores its own folder; the CLI works in the folder it was started in (or --workspace).
   */
  workspace: z.string().default(''),
  /** Commands starting with one of these run without asking ("always allow this prefix"). */
  allowedCommandPrefixes: z.array(z.string()).default([]),
  /** Folders outside the workspace read_file, list_dir and search_files may read without asking (each with everything below it). */
  allowedReadFolders: z.array(z.string()).default([]),
  /** Hosts (`name` or `name:port`) fetch_url may fetch without asking, unless the address carries data read this turn. */
  allowedFetchHosts: z.array(z.string()).default([]),
  /** A new app or browser-mode conversation gets a short title from its first exchange (learning.model when set, else the chat model). */
  autoTitle: z.boolean().default(true)
})

export const contextConfigSchema = z.looseObject({
  compressAt: z.number().min(0.1).max(0.95).default(0.5),
  windowTokens: z.number().int().min(2000).default(128_000)
})

/**
 * How much learning is applied without asking: `auto` applies a review's changes (each revertible),
 * `ask` turns every change into a proposal in the Inbox, `off` runs no reviews. Whatever the mode, a
 * change to what the user made or pinned, and every curation result, is a proposal.
 */
export const learningModes = ['auto', 'ask', 'off'] as const
export type LearningMode = (typeof learningModes)[number]

export const learningConfigSchema = z.looseObject({
  enabled: z.boolean().default(true),
  mode: z.enum(learningModes).default('auto'),
  memoryNudgeInterval: z.number().int().min(0).default(10),
  skillNudgeInterval: z.number().int().min(0).default(10),
  allowSkillCreation: z.boolean().default(true),
  /** Model calls per review: 16 (Hermes's figure) fits a model that makes one tool call per response (see review-budget.test.ts). */
  reviewMaxIterations: z.number().int().min(1).max(50).default(16),
  reviewTimeoutMs: z.number().int().min(5000).default(180_000),
  /** A conversation idle this long is reviewed once for what it taught (0 = only on a new conversation or quit). */
  idleReviewMinutes: z.number().int().min(0).max(1440).default(10),
  /** User turns not yet reviewed that a conversation needs for an end-of-conversation review. */
  sessionEndMinTurns: z.number().int().min(1).max(100).default(2),
  /** Days between curation passes over the whole library (run when the app is idle); 0 = only on request. */
  curateEveryDays: z.number().int().min(0).max(365).default(7),
  /** Model for reviews and curation; empty = the chat model. */
  model: z.string().default(''),
  /** Its own OpenAI-compatible endpoint; empty = the chat provider's. Its key: the app's secret store, or CAIRN_LEARNING_API_KEY. */
  baseURL: z.string().default('')
})

export const uiConfigSchema = z.looseObject({
  theme: z.enum(['system', 'light', 'dark']).default('system'),
  language: z.enum(['en', 'zh-CN']).default('en'),
  shortcut: z.string().default('CommandOrControl+Shift+Space')
})

/** Scheduled backups of the data home (the app makes them; `cairn backup` makes one any time). */
export const backupConfigSchema = z.looseObject({
  /** A backup when the last one is this many days old; 0 = no scheduled backups. */
  everyDays: z.number().int().min(0).max(365).default(0),
  /** How many scheduled backups to keep (older ones are removed). */
  keep: z.number().int().min(1).max(1000).default(7),
  /** Where scheduled backups go; empty = `<home>/backups`. */
  folder: z.string().default('')
})

/** Sync of memories/ and skills/ across devices over git (`cairn sync setup <remote>`). */
export const syncConfigSchema = z.looseObject({
  /** The git remote (HTTPS); empty = sync is not set up. The token is a secret (`sync.token`), never here. */
  remote: z.string().default(''),
  branch: z.string().default('main'),
  /** User name sent with the token (GitHub accepts any; some hosts want the account name). */
  username: z.string().default('cairn'),
  /** How this device names itself in commits and on the other devices' timelines; empty = the host name. */
  deviceName: z.string().default(''),
  /** The app syncs every this many minutes while open (0 = only on start, after reviews and on demand). */
  everyMinutes: z.number().int().min(0).max(24 * 60).default(15),
  /** Also send a list of this device's conversations (titles, dates, what each was about) as `sessions/<device>.md`; the conversations stay here. */
  sessionSummaries: z.boolean().default(false)
})

/** Search by meaning (optional): an embedding model from the provider; empty = keyword search only, at no cost. */
export const searchConfigSchema = z.looseObject({
  /** e.g. `text-embedding-3-small`, `nomic-embed-text`; empty = off. */
  embeddingModel: z.string().default(''),
  /** Its own OpenAI-compatible endpoint; empty = the chat provider's. */
  embeddingBaseURL: z.string().default(''),
  /** Ask the model for this many dimensions (models that allow it); 0 = what it returns. */
  embeddingDimensions: z.number().int().min(0).max(8192).default(0)
})

export const configSchema = z.looseObject({
  memory: memoryConfigSchema.prefault({}),
  skills: skillsConfigSchema.prefault({}),
  provider: providerConfigSchema.prefault({}),
  agent: agentConfigSchema.prefault({}),
  context: contextConfigSchema.prefault({}),
  learning: learningConfigSchema.prefault({}),
  ui: uiConfigSchema.prefault({}),
  /** MCP servers in Claude Desktop's format (plus `{type: "http", url, headers}`), each checked on its own (shared/mcp.ts). */
  mcpServers: z.record(z.string(), z.unknown()).default({}),
  mcp: mcpSettingsSchema.prefault({}),
  backup: backupConfigSchema.prefault({}),
  sync: syncConfigSchema.prefault({}),
  search: searchConfigSchema.prefault({})
})

export type CairnConfig = z.infer<typeof configSchema>

export type DeepPartial<T> = T extends (infer U)[]
  ? U[]
  : T extends object
    ? { [K in keyof T]?: DeepPartial<T[K]> }
    : T

export type ConfigPatch = DeepPartial<CairnConfig>

export function defaultConfig(): CairnConfig {
  return configSchema.parse({})
}
