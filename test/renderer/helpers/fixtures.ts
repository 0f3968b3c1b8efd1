import { defaultConfig, type CairnConfig } from '../../../shared/config'
import type { AgentEvent } from '../../../shared/agent-events'
import type { AppInfo, DisplayMessage, LearningStatus, MemoryEntryInfo, MemoryStoreView, ReviewRun, SessionSummary, SettingsView, SkillItem } from '../../../shared/ipc/domain'
import type { RouteOutput } from '../../../shared/ipc/contract'
import type { ImportActivity } from '../../../shared/ipc/contract-import'
import { normalizeLedgerMeta, type LedgerEntry, type LedgerKind } from '../../../shared/ledger'
import type { ReviewSummary } from '../../../shared/review-outcome'
import type { RouteHandlers } from './fake-transport'
import type { SyncStatus } from '../../../shared/ipc/contract-sync'
import type { SearchUpkeep } from '../../../shared/ipc/contract-search'

export const NOW = Date.UTC(2026, 5, 15, 12, 0, 0)

export function config(patch: (c: CairnConfig) => void = () => {}): CairnConfig {
  const c = defaultConfig()
  c.provider.model = 'gpt-test'
  patch(c)
  return c
}

export function settingsView(overrides: Partial<SettingsView> = {}): SettingsView {
  return { config: config(), hasApiKey: true, keyHint: 'wxyz', keyStorage: 'os', ...overrides }
}

export function appInfo(overrides: Partial<AppInfo> = {}): AppInfo {
  return { version: '0.1.0', home: '/home/me/.cairn', platform: 'linux', mode: 'desktop', providerProblem: null, defaultWorkspace: '/home/me/Cairn', ...overrides }
}

export function learningStatus(overrides: Partial<LearningStatus> = {}): LearningStatus {
  return { enabled: true, mode: 'auto', pendingProposals: 0, oldestPendingAt: null, paused: false, pausedReason: null, running: null, queued: 0, ...overrides }
}

export function session(id: string, title: string, at = NOW - 60_000): SessionSummary {
  return { id, title, source: 'desktop', model: 'gpt-test', startedAt: at, updatedAt: at, messageCount: 2, inputTokens: 0, outputTokens: 0, cachedTokens: 0, workspace: '/home/me/Cairn', pinned: false, archived: false }
}

let nextMessage = 1
export function message(role: DisplayMessage['role'], content: string, extra: Partial<DisplayMessage> = {}): DisplayMessage {
  return { id: nextMessage++, role, content, toolCalls: null, toolCallId: null, toolName: null, createdAt: NOW, finishReason: null, compacted: false, hint: null, ...extra }
}

/** A ledger row as main sends it: `meta` holds what its kind implies (skill name and category, memory file). */
export function ledger(
  id: number,
  overrides: Partial<Omit<LedgerEntry, 'kind' | 'meta'>> & { kind?: LedgerKind; meta?: Record<string, unknown> } = {}
): LedgerEntry {
  const { kind = 'memory.add', meta = {}, ...rest } = overrides
  const target = rest.target ?? 'memories/USER.md'
  return {
    id,
    at: new Date(NOW - id * 1000).toISOString(),
    target,
    source: 'agent',
    sessionId: null,
    reviewId: null,
    before: null,
    after: `entry ${id}`,
    revertedBy: null,
    ...rest,
    kind,
    meta: normalizeLedgerMeta(kind, target, meta)
  } as LedgerEntry
}

/** What a review saved, e.g. `learned({ memory: 1, skills: [{ name: 'deploy', verb: 'updated' }] })`. */
export function learned(saved: { memory?: number; user?: number; skills?: ReviewSummary['skills'] } = {}): ReviewSummary {
  const changes = (added = 0) => ({ added, replaced: 0, removed: 0 })
  const skills = saved.skills ?? []
  return { saved: Boolean(saved.memory || saved.user || skills.length), memory: changes(saved.memory), user: changes(saved.user), skills }
}

export function review(id: string, overrides: Partial<ReviewRun> = {}): ReviewRun {
  return {
    id,
    sessionId: 's1',
    kinds: ['memory', 'skills'],
    reasons: [{ code: 'requested' as const }],
    status: 'done',
    queuedAt: NOW - 5000,
    startedAt: NOW - 4000,
    finishedAt: NOW - 1000,
    summary: learned({ memory: 1 }),
    error: null,
    ...overrides
  }
}

export function skill(name: string, overrides: Partial<SkillItem> = {}): SkillItem {
  return {
    name,
    description: `How to ${name}`,
    category: 'devops',
    path: `/home/me/.cairn/skills/devops/${name}/SKILL.md`,
    readOnly: false,
    warnings: [],
    stats: { useCount: 3, viewCount: 4, lastUsedAt: NOW - 86_400_000, successRate: 0.75, successCount: 3, failureCount: 1, patchCount: 1, createdBy: 'review', stale: false },
    pinned: false,
    disabled: false,
    madeBy: 'cairn',
    specIssues: [],
    ...overrides
  }
}

/** Events of one turn, with the session and turn ids filled in. */
export function turnEvents(sessionId: string, turnId: string, events: Array<Record<string, unknown> & { type: AgentEvent['type'] }>): AgentEvent[] {
  return events.map((event) => ({ sessionId, turnId, ...event }) as AgentEvent)
}

/** Nothing imported, nothing learned from imports, learning on. */
export function importActivity(overrides: Partial<ImportActivity> = {}): ImportActivity {
  const learning: ImportActivity['learning'] = {
    running: false,
    importId: null,
    total: 0,
    done: 0,
    current: null,
    changes: 0,
    proposed: 0,
    failed: 0,
    cancelRequested: false,
    stopped: null,
    lastError: null,
    startedAt: null,
    finishedAt: null
  }
  return { running: null, last: null, learning, unreviewed: 0, learningOn: true, ...overrides }
}

/** Sync as Settings → Data shows it; by default not set up. */
export function syncStatus(overrides: Partial<SyncStatus> = {}): SyncStatus {
  return { remote: '', branch: 'main', deviceName: 'studio', hostName: 'studio', everyMinutes: 15, hasToken: false, running: false, phase: null, lastSync: null, lastError: null, lastReport: null, waitingInInbox: 0, ...overrides }
}

/** Settings → Search; by default every message indexed by word and search by meaning off. */
export function searchUpkeep(meaning: Partial<SearchUpkeep['meaning']> = {}, words: Partial<SearchUpkeep['words']> = {}): SearchUpkeep {
  return {
    words: { backlog: null, running: false, ...words },
    meaning: { state: 'off', settings: { model: '', baseURL: '', dimensions: 0 }, endpoint: '', unavailable: null, index: null, filling: false, paused: false, waiting: false, progress: null, lastError: null, ...meaning }
  }
}

/** What a freshly started app asks for, answered with a ready-to-chat setup. */
export function baseHandlers(overrides: RouteHandlers = {}): RouteHandlers {
  return {
    'app.info': appInfo(),
    'settings.get': settingsView(),
    'learning.status': learningStatus(),
    'sessions.list': [],
    'settings.detectLocal': { ollama: false, lmstudio: false },
    'mcp.list': { servers: [], config: {}, keptSecrets: [] },
    'backup.status': { everyDays: 0, keep: 7, folder: '/home/me/.cairn/backups', defaultFolder: '/home/me/.cairn/backups', last: null, nextDueAt: null, running: false, lastError: null },
    // Settings → Data's import part (test/renderer/components/import-settings.test.tsx fills these in).
    'import.sources': { sources: [] },
    'import.list': { batches: [] },
    'import.status': importActivity(),
    // Settings → Data's sync part (test/renderer/components/sync-settings.test.tsx fills it in).
    'sync.status': syncStatus(),
    // Settings → Search (test/renderer/components/search-settings.test.tsx fills it in).
    'search.status': searchUpkeep(),
    // Settings → Memory provider (test/renderer/components/memory-provider.test.tsx fills it in).
    'memoryProvider.status': null,
    // The Memory screen's archive (test/renderer/components/memory-archive.test.tsx fills it in).
    'archive.list': { entries: [], total: 0 },
    'memory.search': { core: [], archive: [] },
    ...overrides
  }
}

/** Where an entry came from; by default written by hand outside Cairn (no ledger row). */
export function entryInfo(text: string, overrides: Partial<MemoryEntryInfo> = {}): MemoryEntryInfo {
  return { text, pinned: false, source: null, updatedAt: null, createdAt: null, sessionId: null, reviewId: null, ledgerId: null, ...overrides }
}

/** One memory file as `memory.get` answers it; `info` per entry defaults to "written by hand". */
export function memoryView(entries: string[], current: number, limit: number, info: Array<Partial<MemoryEntryInfo>> = []): MemoryStoreView {
  return { entries, info: entries.map((text, index) => entryInfo(text, info[index])), current, limit, enabled: true }
}

export type ProposalItem = RouteOutput<'inbox.get'>

/** A pending proposal of review `rv1` (conversation `s1`): by default, remember a fact in USER.md. */
export function proposal(id: number, overrides: Partial<ProposalItem> = {}): ProposalItem {
  const kind = overrides.kind ?? 'memory.add'
  const target = overrides.target ?? (kind.startsWith('memory.') ? 'memories/USER.md' : 'skills/devops/deploy/SKILL.md')
  return {
    id,
    createdAt: NOW - (100 - id) * 60_000,
    origin: 'review',
    reviewId: 'rv1',
    sessionId: 's1',
    kind,
    target,
    before: null,
    after: `fact ${id}`,
    meta: {},
    reasons: [{ code: 'correction' }],
    cause: 'ask_mode',
    rationale: null,
    state: 'pending',
    decidedAt: null,
    editedAfter: null,
    ledgerId: null,
    stale: false,
    ...overrides
  }
}
