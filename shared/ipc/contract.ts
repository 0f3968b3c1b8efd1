import { z } from 'zod'
import { approvalScopes, type AgentEvent } from '../agent-events'
import { MAX_ATTACHMENTS } from '../attachments'
import { MAX_INSTRUCTIONS_CHARS, type CairnConfig } from '../config'
import { ledgerKinds, ledgerSources, type LedgerEntry } from '../ledger'
import type { McpServerInfo } from '../mcp'
import { proposalStates } from '../proposals'
import type { ReviewEvent } from '../review-protocol'
import { backupRoutes, type BackupStatus } from './contract-backup'
import { importRoutes, type ImportActivity } from './contract-import'
import { syncRoutes, type SyncStatus } from './contract-sync'
import { searchRoutes, type SearchUpkeep } from './contract-search'
import { recallRoutes } from './contract-recall'
import type { MemoryProviderStatus } from '../recall'
import { archiveRoutes } from './contract-archive'
import { mcpRoutes } from './contract-mcp'
import { learningRoutes } from './contract-learning'
import { attachmentRoutes } from './contract-attachments'
import { promptRoutes } from './contract-prompts'
import { defineRoute, type IpcSender } from './define'
import { memoryLayerRoutes } from './contract-memory-layers'
import { folderPath, ok, text } from './fields'
import {
  appInfoSchema,
  configSchema,
  connectionTestSchema,
  displayMessageSchema,
  learnedReviewSchema,
  modelListSchema,
  ledgerEntrySchema,
  outgoingAttachmentSchema,
  memoryResultSchema,
  memoryStoreViewSchema,
  memoryTargetSchema,
  proposalDecisionSchema,
  proposalSchema,
  reviewRunSchema,
  searchHitSchema,
  sessionExportFormats,
  sessionExportSchema,
  sessionSummarySchema,
  settingsViewSchema,
  skillDetailSchema,
  skillDiagnosticSchema,
  skillItemSchema,
  skillWriteResultSchema
} from './domain'
import type { ReviewRun } from './domain'

/**
 * The whole renderer ↔ main contract, declared once. Requests are untrusted: main parses every input
 * with these schemas, and refuses a route to a window not allowed to call it (the quick-prompt window
 * may call only the routes marked `quickWindow`: what its page needs to ask, show the answer, and hand
 * over to the main window). Events come from main (trusted) and are declared as types only.
 * The renderer must `import type` from here so zod values stay out of its bundle.
 */

const sessionId = z.string().min(1).max(200)
const messageId = z.number().int().min(0)
/** Every route that lists messages takes at most this many at once. */
const pageLimit = z.number().int().min(1).max(500)

const revertResultSchema = z.union([
  z.object({ ok: z.literal(true), revertEntry: ledgerEntrySchema }),
  z.object({
    ok: z.literal(false),
    /** Why, for the UI to word: the entry is gone, already reverted, or the target changed since. */
    code: z.enum(['not_found', 'already_reverted', 'conflict']).optional(),
    /** The refusal's words (shared/error-keys.ts) with their figures; a face words a key it does not know from `error`. */
    key: z.string().optional(),
    params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
    error: z.string(),
    conflict: z.object({ expected: z.string().nullable(), actual: z.string().nullable() }).optional()
  })
])

const configPatchSchema = z.record(z.string(), z.unknown())

export const ipcRoutes = {
  'app.info': defineRoute({ input: z.void(), output: appInfoSchema, quickWindow: true }),

  /** Which window started a new conversation is taken from the sender, never from the input. */
  'chat.send': defineRoute({
    input: z
      .object({
        sessionId: sessionId.nullable(),
        text: text(100_000).min(1),
        workspace: folderPath.optional(),
        model: text(500).trim().min(1).optional(),
        attachments: z.array(outgoingAttachmentSchema).max(MAX_ATTACHMENTS).optional(),
        /** Issue 28 part C: start an incognito conversation (not saved, not learned from, never listed). */
        incognito: z.boolean().optional()
      })
      .refine((input) => input.sessionId === null || !input.incognito, { path: ['incognito'], message: 'only a new conversation can be started incognito' })
      .refine((input) => input.sessionId === null || input.workspace === undefined, {
        path: ['workspace'],
        message: 'only a new conversation takes a workspace; move an existing one with sessions.setWorkspace'
      })
      .refine((input) => input.sessionId === null || input.model === undefined, {
        path: ['model'],
        message: 'only a new conversation takes a model; switch an existing one with sessions.setModel'
      }),
    output: z.object({ sessionId: z.string(), turnId: z.string() }),
    quickWindow: true
  }),
  'chat.cancel': defineRoute({ input: z.object({ sessionId }), output: z.object({ cancelled: z.boolean() }), quickWindow: true }),
  'chat.regenerate': defineRoute({
    input: z.object({ sessionId }),
    output: z.object({ sessionId: z.string(), turnId: z.string() }),
    quickWindow: true
  }),
  /** Sends new words in place of a message the user sent; what followed it is kept as another version. */
  'chat.edit': defineRoute({
    input: z.object({ sessionId, messageId: z.number().int().positive(), text: text(100_000).min(1) }),
    output: z.object({ sessionId: z.string(), turnId: z.string() })
  }),
  /** Shows another version (from `versions.previous`/`next` of a message) in place of the shown one. */
  'chat.showVersion': defineRoute({ input: z.object({ sessionId, branchId: z.number().int().positive() }), output: ok }),
  'chat.approve': defineRoute({
    input: z.object({
      sessionId,
      requestId: z.string().max(200),
      allow: z.boolean(),
      remember: z.enum(approvalScopes).optional(),
      prefix: text(500).optional()
    }),
    output: z.object({ accepted: z.boolean() }),
    quickWindow: true
  }),
  /** A window opened (or reloaded) mid-turn catches up: the turn's events so far and pending approvals. */
  'chat.attach': defineRoute({
    input: z.object({ sessionId }),
    output: z.object({ running: z.boolean(), events: z.array(z.custom<AgentEvent>()) }),
    quickWindow: true
  }),
  // Issue 28 part C (incognito chats): closing an incognito conversation drops everything it held.
  'chat.discard': defineRoute({ input: z.object({ sessionId }), output: z.object({ discarded: z.boolean() }), quickWindow: true }),

  // Every window loads the conversations list at start, and the quick window reloads its own conversation.
  /**
   * One page of the conversations list: pinned first, then by last activity. `cursor` is the previous
   * page's `nextCursor` (opaque; null when nothing follows). `archived`: only archived ones (default: only the others).
   */
  'sessions.list': defineRoute({
    input: z.object({ limit: pageLimit.default(100), cursor: z.string().min(1).max(200).optional(), archived: z.boolean().default(false) }),
    output: z.object({ sessions: z.array(sessionSummarySchema), nextCursor: z.string().nullable() }),
    quickWindow: true
  }),
  /**
   * The conversation and its LAST `limit` messages of the shown path (compacted included, in id order);
   * older ones come from `sessions.messages`. `learned`: what each finished review of this conversation
   * learned, oldest first (see learnedReviewSchema).
   */
  'sessions.get': defineRoute({
    input: z.object({ sessionId, limit: pageLimit.default(100) }),
    output: z.object({
      session: sessionSummarySchema,
      messages: z.array(displayMessageSchema),
      running: z.boolean(),
      learned: z.array(learnedReviewSchema).optional(),
      page: z.object({ hasOlder: z.boolean() })
    }),
    quickWindow: true
  }),
  /** A page of the shown path just before / after a message id, or centred on one (a search hit: NOT_FOUND when it is not on the shown path). */
  'sessions.messages': defineRoute({
    input: z
      .object({ sessionId, before: messageId.optional(), after: messageId.optional(), around: messageId.optional(), limit: pageLimit })
      .refine((input) => [input.before, input.after, input.around].filter((at) => at !== undefined).length === 1, {
        message: 'give exactly one of before, after or around'
      }),
    output: z.object({ messages: z.array(displayMessageSchema), hasOlder: z.boolean(), hasNewer: z.boolean() })
  }),
  'sessions.search': defineRoute({
    input: z.object({ query: text(2000), limit: z.number().int().min(1).max(10).default(10) }),
    output: z.object({ query: z.string(), hits: z.array(searchHitSchema) })
  }),
  'sessions.rename': defineRoute({ input: z.object({ sessionId, title: text(200).min(1) }), output: sessionSummarySchema }),
  'sessions.delete': defineRoute({ input: z.object({ sessionId }), output: ok }),
  /** Pin or archive a conversation; neither moves it in time (its `updatedAt` stays). */
  'sessions.setFlags': defineRoute({
    input: z.object({ sessionId, pinned: z.boolean().optional(), archived: z.boolean().optional() }),
    output: sessionSummarySchema
  }),
  /** The whole conversation as a file's text (Markdown or JSON), without the skill hints Cairn added for the model. */
  'sessions.export': defineRoute({ input: z.object({ sessionId, format: z.enum(sessionExportFormats) }), output: sessionExportSchema }),
  /**
   * The folder a conversation works in from its next turn on (made when missing). With `sessionId: null`
   * it only checks (and makes) a folder chosen for a conversation not started yet. Answers the folder as stored.
   */
  'sessions.setWorkspace': defineRoute({ input: z.object({ sessionId: sessionId.nullable(), path: folderPath }), output: z.object({ path: z.string() }) }),
  /** The model this conversation answers with from its next turn on; null: the default model (Settings). */
  'sessions.setModel': defineRoute({ input: z.object({ sessionId, model: text(500).trim().min(1).nullable() }), output: sessionSummarySchema }),
  /**
   * The conversation's own instructions; saving restarts its prompt (composed again, with the current
   * memory, skills and global instructions, on its next turn). Refused while it is answering.
   */
  'sessions.setInstructions': defineRoute({ input: z.object({ sessionId, instructions: text(MAX_INSTRUCTIONS_CHARS) }), output: sessionSummarySchema }),
  /** The provider's models (cached in the data home; fetched when there is no list for its address yet, or on `refresh`). */
  'models.list': defineRoute({ input: z.object({ refresh: z.boolean().optional() }), output: modelListSchema }),

  'timeline.list': defineRoute({
    input: z.object({
      limit: z.number().int().min(1).max(500).default(100),
      beforeId: z.number().int().optional(),
      kinds: z.array(z.enum(ledgerKinds)).optional(),
      sources: z.array(z.enum(ledgerSources)).optional()
    }),
    output: z.object({ entries: z.array(ledgerEntrySchema), reviews: z.array(reviewRunSchema) })
  }),
  'timeline.get': defineRoute({ input: z.object({ id: z.number().int() }), output: ledgerEntrySchema }),
  /** `force`: the user saw the conflict and chose "Revert anyway" (skill changes only; memory keeps refusing). */
  'timeline.revert': defineRoute({ input: z.object({ id: z.number().int(), force: z.boolean().optional() }), output: revertResultSchema }),

  'skills.list': defineRoute({
    input: z.void(),
    output: z.object({ skills: z.array(skillItemSchema), diagnostics: z.array(skillDiagnosticSchema) })
  }),
  'skills.get': defineRoute({ input: z.object({ name: text(200).min(1) }), output: skillDetailSchema }),
  /** Every ledger row that touched the skill, newest first (for the diff viewer). */
  'skills.history': defineRoute({ input: z.object({ name: text(200).min(1) }), output: z.array(ledgerEntrySchema) }),
  /** Pin (learning only proposes changes) or disable (out of the index, files kept) a skill. */
  'skills.setFlags': defineRoute({
    input: z.object({ name: text(200).min(1), pinned: z.boolean().optional(), disabled: z.boolean().optional() }),
    output: skillItemSchema
  }),
  /** Makes the skill's file read as it did after ledger row `ledgerId` (itself a new ledger row, source `user`). */
  'skills.restore': defineRoute({ input: z.object({ name: text(200).min(1), ledgerId: z.number().int() }), output: revertResultSchema }),
  /** A skill the user writes in the Skills screen (source `user`), checked against the Agent Skills spec. */
  'skills.create': defineRoute({
    input: z.object({ name: text(200).min(1), category: text(200).nullable(), description: text(2000).min(1), body: text(200_000) }),
    output: skillWriteResultSchema
  }),
  /** SKILL.md edited by hand; `expected` is the text the editor started from (a newer one is refused, `changed`). */
  'skills.saveFile': defineRoute({
    input: z.object({ name: text(200).min(1), content: text(200_000).min(1), expected: text(200_000) }),
    output: skillWriteResultSchema
  }),
  /** "Delete" in the Skills screen: moved to the archive, which the timeline's revert restores. */
  'skills.archive': defineRoute({ input: z.object({ name: text(200).min(1) }), output: skillWriteResultSchema }),
  /** Opens the skill's folder in the system file manager (desktop); browser mode answers the path only (`opened: false`). */
  'skills.openFolder': defineRoute({ input: z.object({ name: text(200).min(1) }), output: z.object({ path: z.string(), opened: z.boolean() }) }),

  'memory.get': defineRoute({ input: z.void(), output: z.object({ memory: memoryStoreViewSchema, user: memoryStoreViewSchema }) }),
  'memory.add': defineRoute({
    // `allowSimilar`: the user chose to keep it beside an entry that says nearly the same or the opposite.
    input: z.object({ target: memoryTargetSchema, content: text(20_000).min(1), allowSimilar: z.boolean().optional(), workspace: folderPath.optional() }),
    output: memoryResultSchema
  }),
  'memory.replace': defineRoute({
    input: z.object({ target: memoryTargetSchema, oldText: text(20_000).min(1), content: text(20_000).min(1), workspace: folderPath.optional() }),
    output: memoryResultSchema
  }),
  'memory.remove': defineRoute({ input: z.object({ target: memoryTargetSchema, text: text(20_000).min(1), workspace: folderPath.optional() }), output: memoryResultSchema }),
  /** A pinned entry is never changed by learning without asking. */
  'memory.setPinned': defineRoute({ input: z.object({ target: memoryTargetSchema, text: text(20_000).min(1), pinned: z.boolean(), workspace: folderPath.optional() }), output: ok }),
  /** Every ledger row of one memory file, newest first: each entry's versions, for the diff viewer and restore. */
  'memory.history': defineRoute({ input: z.object({ target: memoryTargetSchema, entry: text(20_000).optional(), workspace: folderPath.optional() }), output: z.array(ledgerEntrySchema) }),
  /** Puts an entry back as ledger row `ledgerId` left it (a new ledger row, source `user`). */
  'memory.restore': defineRoute({ input: z.object({ ledgerId: z.number().int() }), output: revertResultSchema }),
  /** Proposals, newest first; `pending` counts what waits whatever the filter. */
  'inbox.list': defineRoute({
    input: z.object({
      states: z.array(z.enum(proposalStates)).default(['pending']),
      limit: z.number().int().min(1).max(500).default(200),
      beforeId: z.number().int().optional()
    }),
    output: z.object({ proposals: z.array(proposalSchema), pending: z.number().int() })
  }),
  'inbox.get': defineRoute({ input: z.object({ id: z.number().int() }), output: proposalSchema }),
  /** Applies it (with the user's own text when `editedAfter` is given); a stale proposal is refused, never applied blindly. */
  'inbox.approve': defineRoute({
    input: z.object({ id: z.number().int(), editedAfter: text(1_000_000).nullable().optional() }),
    output: proposalDecisionSchema
  }),
  'inbox.reject': defineRoute({ input: z.object({ id: z.number().int() }), output: proposalDecisionSchema }),
  /** Sets a stale proposal aside (`superseded`) and reviews its conversation (or the library) again; `reviewId` null when nothing is left to review. */
  'inbox.rereview': defineRoute({ input: z.object({ id: z.number().int() }), output: z.object({ result: proposalDecisionSchema, reviewId: z.string().nullable() }) }),
  /** Approves every pending proposal (of one review, when given), oldest first; stale ones are left pending. */
  'inbox.approveAll': defineRoute({ input: z.object({ reviewId: z.string().max(200).optional() }), output: z.object({ results: z.array(proposalDecisionSchema) }) }),

  // Read by every window at start (theme, language); changing settings belongs to the main window.
  'settings.get': defineRoute({ input: z.void(), output: settingsViewSchema, quickWindow: true }),
  'settings.update': defineRoute({ input: z.object({ patch: configPatchSchema }), output: settingsViewSchema }),
  /** `which`: the chat provider's key (default), the key for `learning.baseURL`, or the key for `search.embeddingBaseURL`. */
  'settings.setApiKey': defineRoute({
    input: z.object({ apiKey: text(1000).nullable(), which: z.enum(['chat', 'learning', 'embedding', 'memoryProvider']).default('chat') }),
    output: settingsViewSchema
  }),
  'settings.testConnection': defineRoute({
    input: z.object({ baseURL: text(2000).optional(), model: text(500).optional(), apiKey: text(1000).optional(), preset: z.string().max(50).optional() }),
    output: connectionTestSchema
  }),
  'settings.detectLocal': defineRoute({
    input: z.void(),
    output: z.object({ ollama: z.boolean(), lmstudio: z.boolean() })
  }),
  // Issue 29, part B: browser mode's "Remember on this computer" for every key and secret typed in Settings.
  'settings.rememberSecrets': defineRoute({ input: z.object({ remember: z.boolean() }), output: settingsViewSchema }),

  /** Desktop only (no-ops in browser mode): window and shell actions. */
  'window.openMain': defineRoute({ input: z.object({ sessionId: sessionId.optional() }), output: ok, quickWindow: true }),
  'window.hideQuick': defineRoute({ input: z.void(), output: ok, quickWindow: true }),
  /** Links in an answer (the quick window shows answers too). */
  'shell.openExternal': defineRoute({ input: z.object({ url: z.url({ protocol: /^https?$/ }).max(4000) }), output: ok, quickWindow: true }),
  /** Desktop only: the system folder picker for a conversation's workspace; `path` is null when cancelled. Browser mode refuses it (`UNSUPPORTED`). */
  'window.pickFolder': defineRoute({ input: z.object({ defaultPath: folderPath.optional() }), output: z.object({ path: z.string().nullable() }) }),

  ...learningRoutes,
  ...mcpRoutes,
  ...backupRoutes,
  ...importRoutes,
  ...syncRoutes,
  ...searchRoutes,
  // Issue 28: the memory provider, the archive, project memory and hidden entries.
  ...recallRoutes,
  ...archiveRoutes,
  ...memoryLayerRoutes,
  // Issue 29, part E: sent images shown again (thumbnails and the viewer).
  ...attachmentRoutes,
  // Issue 29, part F: the prompt library.
  ...promptRoutes
}

export type IpcRoutes = typeof ipcRoutes
export type IpcRoute = keyof IpcRoutes
export type RouteInput<R extends IpcRoute> = z.input<IpcRoutes[R]['input']>
export type ParsedInput<R extends IpcRoute> = z.output<IpcRoutes[R]['input']>
export type RouteOutput<R extends IpcRoute> = z.output<IpcRoutes[R]['output']>

/**
 * One learned change, from whichever process wrote it (the chat's own writes, a review worker's, an
 * import or sync in the app): the ledger row, and the review run it belongs to as stored now (null:
 * none). Without `review` the sender did not say, and the timeline reloads rather than guess.
 */
export interface LearnedChange {
  entry: LedgerEntry
  review?: ReviewRun | null
}

/** A review's event (its rows travel as ledger.changed, never here); once it ended, with its run as stored (so a timeline showing it updates without a reload). */
export type AppReviewEvent = Exclude<ReviewEvent, { type: 'review_action' }> & { run?: ReviewRun | null }

/** Events main pushes to every window (types only: main is trusted). */
export interface IpcEvents {
  'chat.event': AgentEvent
  'chat.status': { sessionId: string; running: boolean }
  'review.event': AppReviewEvent
  /** The one stream of learned changes, carrying the rows (see LearnedChange). */
  'ledger.changed': LearnedChange
  'sessions.changed': { sessionId: string }
  'settings.changed': { config: CairnConfig }
  'skills.changed': { name: string | null }
  'memory.changed': Record<string, never>
  /** Proposals were added or decided: the Inbox badge's count. */
  'inbox.changed': { pending: number }
  /** An MCP server's state changed (starting, ready, failed, tools listed), or the servers were reconfigured. */
  'mcp.changed': { servers: McpServerInfo[] }
  /** A backup started or finished (scheduled or asked for), or the schedule changed. */
  'backup.changed': BackupStatus
  /** An import started, made progress or ended, or learning from imported conversations moved on. */
  'import.changed': ImportActivity
  /** A sync started or ended (with its outcome), or sync was set up or changed. */
  'sync.changed': SyncStatus
  /** The word pass over older messages or the filling of search by meaning moved on, or search settings changed. */
  'search.changed': SearchUpkeep
  /** Issue 28, part D: the memory provider changed, failed, recovered or was sent something. */
  'memoryProvider.changed': MemoryProviderStatus | null
  /** Main asks a window to show something (tray item, quick prompt → full conversation). */
  /** Main tells a window where to go (tray, quick prompt, application menu); `newChat` opens an empty conversation, incognito with `incognito`. */
  'app.navigate': { view: 'chat' | 'timeline' | 'inbox' | 'skills' | 'memory' | 'settings'; sessionId?: string; ledgerId?: number; proposalId?: number; newChat?: boolean; incognito?: boolean }
}
export type IpcEventName = keyof IpcEvents

/** Exactly one handler per route; a missing or extra handler is a compile error. */
export type IpcHandlers = {
  [R in IpcRoute]: (input: ParsedInput<R>, ctx: IpcContext) => Promise<RouteOutput<R>>
}

export interface IpcContext {
  /** Which window asked, as the transport established it (see {@link IpcSender}). */
  sender: IpcSender
}

export { configSchema }
