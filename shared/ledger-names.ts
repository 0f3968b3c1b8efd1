/**
 * The ledger's vocabulary without zod, so the renderer can name rows (which skill, which memory
 * file) without bundling the schemas; shared/ledger.ts builds its schemas from these.
 */
import { isArchiveSource, type ArchiveSource } from './archive-names'
import { normalizeDangers, type ContentDanger } from './dangers'
import { normalizeProvenance, type Provenance } from './provenance'

/** Changes to one entry of MEMORY.md or USER.md (a row holds that entry's text). */
export const memoryKinds = ['memory.add', 'memory.replace', 'memory.remove'] as const
/** Changes to one file of a skill (a row holds the whole file). */
export const skillKinds = ['skill.create', 'skill.patch', 'skill.edit', 'skill.delete', 'skill.file_write', 'skill.file_remove'] as const
/** Entries going into or out of the memory archive (state.db; a row holds the entry's text). */
export const archiveKinds = ['archive.add', 'archive.remove'] as const
/** Every kind of learned change. */
export const ledgerKinds = [...memoryKinds, ...skillKinds, ...archiveKinds] as const
export type MemoryKind = (typeof memoryKinds)[number]
export type SkillKind = (typeof skillKinds)[number]
export type ArchiveKind = (typeof archiveKinds)[number]
export type LedgerKind = (typeof ledgerKinds)[number]

/**
 * Who made the change: the chatting agent, the background review, the user by hand, an import, a
 * sync from another device (or a team's shared skills), or a revert. These are the sources a filter
 * names; a row may also carry an {@link McpSource}.
 */
export const ledgerSources = ['agent', 'review', 'user', 'import', 'sync', 'revert'] as const
export type FixedLedgerSource = (typeof ledgerSources)[number]
/** Another agent writing over MCP (`cairn mcp serve`): `mcp:` and its client's name, sanitised (`mcp:claude-code`). */
export type McpSource = `mcp:${string}`
export type LedgerSource = FixedLedgerSource | McpSource

const MCP_SOURCE_PREFIX = 'mcp:'
const MCP_CLIENT_MAX = 40
/** What a sanitised client name may be: lowercase letters, digits and single hyphens. */
export const MCP_CLIENT_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/

/** The source for writes from the MCP client that named itself `clientName` in its `initialize` (`Claude Code` → `mcp:claude-code`). */
export function mcpSource(clientName: string | null | undefined): McpSource {
  const slug = (clientName ?? '')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, MCP_CLIENT_MAX)
    .replace(/^-+|-+$/g, '')
  return `${MCP_SOURCE_PREFIX}${slug || 'unknown'}`
}

/** The client an {@link McpSource} names (`mcp:claude-code` → `claude-code`), or null for any other source. */
export function mcpClientOf(source: string | null | undefined): string | null {
  if (!source?.startsWith(MCP_SOURCE_PREFIX)) return null
  const client = source.slice(MCP_SOURCE_PREFIX.length)
  return MCP_CLIENT_PATTERN.test(client) ? client : null
}

/** Whether `value` is a source a ledger row may carry. */
export function isLedgerSource(value: string): value is LedgerSource {
  return (ledgerSources as readonly string[]).includes(value) || mcpClientOf(value) !== null
}

/** The memory files: `memory` is MEMORY.md (the environment), `user` is USER.md (who the user is), `project` one workspace's PROJECT.md. */
export const memoryStores = ['memory', 'user', 'project'] as const
export type MemoryStoreName = (typeof memoryStores)[number]

/** `meta` of a memory row. */
/** What every row's meta may say about the content: where it came from, and what dangerous it adds (skills). */
export interface ContentMeta {
  /** Where the content came from (rows and proposals since provenance was kept; older ones have none). */
  provenance?: Provenance
  /** What the change adds that could hurt if followed (why it was only proposed); absent when nothing. */
  dangers?: ContentDanger[]
}

export interface MemoryMeta extends ContentMeta {
  store: MemoryStoreName
  /** The id of the row a revert undid (only on rows with source `revert`). */
  revertOf?: number
  /** The Inbox proposal whose approval made this change. */
  proposalId?: number
  /** The other device a sync brought the change from (only on rows with source `sync`). */
  device?: string
}

/** `meta` of an archive row. */
export interface ArchiveMeta extends ContentMeta {
  store: MemoryStoreName
  /** Why the entry is (or was) in the archive. */
  archiveSource: ArchiveSource
  /** The workspace project the entry belongs to (see projectKeyFor); absent for entries of no project. */
  projectKey?: string
  /** An `archive.remove` of an entry the user had hidden: a revert puts it back hidden. */
  hidden?: true
  revertOf?: number
  proposalId?: number
  device?: string
}

/** `meta` every skill row carries (skill.patch and skill.edit carry nothing more). */
export interface SkillMeta extends ContentMeta {
  /** The skill's name (its folder). */
  skill: string
  /** The folders between `skills/` and the skill's folder, e.g. `devops`; null at the top level. */
  category: string | null
  /** The id of the row a revert undid (only on rows with source `revert`). */
  revertOf?: number
  /** The Inbox proposal whose approval made this change. */
  proposalId?: number
  /** The other device a sync brought the change from (only on rows with source `sync`). */
  device?: string
}

/** `meta` of a skill.create row. */
export interface SkillCreateMeta extends SkillMeta {
  /** Set when a revert of a delete brought the skill back: the archive it came back from. */
  restoredFrom?: string
}

/** `meta` of a skill.delete row. */
export interface SkillDeleteMeta extends SkillMeta {
  /** Where the deleted folder was archived, so the delete can be reverted; null on a row that never said. */
  archivePath: string | null
  /** The umbrella skill that took over the deleted one's content. */
  absorbedInto?: string
}

/** `meta` of a skill.file_write or skill.file_remove row. */
export interface SkillFileMeta extends SkillMeta {
  /** The file is binary and `before`/`after` hold base64. */
  encoding?: 'base64'
}

/** The `meta` a row of kind `K` carries. */
export type LedgerMeta<K extends LedgerKind = LedgerKind> = K extends MemoryKind
  ? MemoryMeta
  : K extends ArchiveKind
    ? ArchiveMeta
    : K extends 'skill.create'
    ? SkillCreateMeta
    : K extends 'skill.delete'
      ? SkillDeleteMeta
      : K extends 'skill.file_write' | 'skill.file_remove'
        ? SkillFileMeta
        : SkillMeta

export function isMemoryKind(kind: LedgerKind): kind is MemoryKind {
  return (memoryKinds as readonly string[]).includes(kind)
}

export function isArchiveKind(kind: LedgerKind): kind is ArchiveKind {
  return (archiveKinds as readonly string[]).includes(kind)
}

export function isArchiveEntry<E extends { kind: LedgerKind }>(entry: E): entry is Extract<E, { kind: ArchiveKind }> {
  return isArchiveKind(entry.kind)
}

/**
 * An archive row that only follows a core change already listed beside it (the old words of a replace, an
 * entry a remove took out): a list of what Cairn recently learned leaves it out, so it does not crowd the change itself.
 */
export function followsCoreChange(entry: { kind: LedgerKind; meta: unknown }): boolean {
  const source = isArchiveKind(entry.kind) ? (entry.meta as { archiveSource?: string } | null)?.archiveSource : undefined
  return source === 'superseded' || source === 'retired'
}

export function isMemoryEntry<E extends { kind: LedgerKind }>(entry: E): entry is Extract<E, { kind: MemoryKind }> {
  return isMemoryKind(entry.kind)
}

/** The folders of a skill that hold supporting files (`skills/<category…>/<name>/<folder>/<file>`). */
const SUPPORT_FOLDERS = ['assets', 'references', 'scripts', 'templates']

/**
 * The skill a ledger target belongs to, read from its path: `skills/<category…>/<name>/SKILL.md` or
 * `skills/<category…>/<name>/<support folder>/<file…>`.
 */
export function skillOfTarget(target: string): { skill: string; category: string | null } {
  const parts = target.split('/')
  const below = parts[0] === 'skills' ? parts.slice(1) : parts
  let end = below.length - 1
  if (below[end] !== 'SKILL.md') {
    end = below.findIndex((part, index) => index > 0 && SUPPORT_FOLDERS.includes(part))
    if (end < 1) end = below.length - 1
  }
  const skill = below[end - 1] ?? below[below.length - 1] ?? target
  const category = end > 1 ? below.slice(0, end - 1).join('/') : null
  return { skill, category }
}

/** The memory file a ledger target names. */
export function memoryStoreOfTarget(target: string): MemoryStoreName {
  if (/(^|\/)PROJECT\.md$/i.test(target)) return 'project'
  return /(^|\/)USER\.md$/i.test(target) ? 'user' : 'memory'
}

/**
 * A row's `meta` in its kind's shape, whatever was stored: rows written before every row named its
 * skill (or its memory file) get those from the target path; unknown or malformed fields, and fields
 * another kind carries, are dropped.
 */
export function normalizeLedgerMeta<K extends LedgerKind>(kind: K, target: string, raw: unknown): LedgerMeta<K>
export function normalizeLedgerMeta(kind: LedgerKind, target: string, raw: unknown): LedgerMeta {
  const meta = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>
  const provenance = normalizeProvenance(meta.provenance)
  const dangers = normalizeDangers(meta.dangers)
  const revert = {
    ...(Number.isInteger(meta.revertOf) ? { revertOf: meta.revertOf as number } : {}),
    ...(Number.isInteger(meta.proposalId) ? { proposalId: meta.proposalId as number } : {}),
    ...(typeof meta.device === 'string' && meta.device ? { device: meta.device } : {}),
    ...(provenance ? { provenance } : {}),
    ...(dangers.length ? { dangers } : {})
  }
  if (isMemoryKind(kind)) {
    const store = memoryStores.includes(meta.store as MemoryStoreName) ? (meta.store as MemoryStoreName) : memoryStoreOfTarget(target)
    return { store, ...revert }
  }
  if (isArchiveKind(kind)) {
    const fromTarget = /\/(\w+)$/.exec(target)?.[1]
    const store = memoryStores.includes(meta.store as MemoryStoreName) ? (meta.store as MemoryStoreName) : memoryStores.includes(fromTarget as MemoryStoreName) ? (fromTarget as MemoryStoreName) : 'memory'
    const archiveSource = isArchiveSource(meta.archiveSource) ? meta.archiveSource : 'added'
    const projectKey = typeof meta.projectKey === 'string' && meta.projectKey ? { projectKey: meta.projectKey } : {}
    const hidden = meta.hidden === true ? { hidden: true as const } : {}
    return { store, archiveSource, ...projectKey, ...hidden, ...revert }
  }
  const text = (key: string): string | undefined => (typeof meta[key] === 'string' && meta[key] ? (meta[key] as string) : undefined)
  const optional = (key: 'absorbedInto' | 'restoredFrom') => (text(key) ? { [key]: text(key) } : {})
  const fromPath = skillOfTarget(target)
  const base: SkillMeta = {
    skill: text('skill') ?? fromPath.skill,
    category: 'category' in meta ? (text('category') ?? null) : fromPath.category,
    ...revert
  }
  switch (kind) {
    case 'skill.create':
      return { ...base, ...optional('restoredFrom') }
    case 'skill.delete':
      return { ...base, archivePath: text('archivePath') ?? null, ...optional('absorbedInto') }
    case 'skill.file_write':
    case 'skill.file_remove':
      return { ...base, ...(meta.encoding === 'base64' ? { encoding: 'base64' as const } : {}) }
    default:
      return base
  }
}

/**
 * The skill a ledger row is about, or null for a memory row. The one place every side (core, CLI,
 * tray, renderer) asks; a row without `meta.skill` (written by an older Cairn) is named by its path.
 */
export function skillNameOf(entry: { kind: SkillKind; target: string; meta?: unknown }): string
export function skillNameOf(entry: { kind: LedgerKind; target: string; meta?: unknown }): string | null
export function skillNameOf(entry: { kind: LedgerKind; target: string; meta?: unknown }): string | null {
  if (isMemoryKind(entry.kind) || isArchiveKind(entry.kind)) return null
  return normalizeLedgerMeta(entry.kind, entry.target, entry.meta).skill
}
