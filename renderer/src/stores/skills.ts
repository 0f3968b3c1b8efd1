import { createStore, type StoreApi } from 'zustand/vanilla'
import type { RouteInput } from '../../../shared/ipc/contract'
import type { SkillDetail, SkillDiagnosticItem, SkillItem, SkillWriteProblemCode } from '../../../shared/ipc/domain'
import type { LedgerEntry, RevertResult } from '../../../shared/ledger'
import type { RevertOutcome } from './timeline'
import { type CairnClient } from '../ipc/client'
import { describeError } from '../ipc/error-words'

/** A write from the Skills screen: done, or why nothing was written (the code is worded by the UI, `error` is main's English). */
export type SkillWriteOutcome = { ok: true; name: string } | { ok: false; code: SkillWriteProblemCode | null; error: string }

export interface SkillsState {
  skills: SkillItem[]
  diagnostics: SkillDiagnosticItem[]
  loaded: boolean
  loadError: string | null
  selected: string | null
  detail: SkillDetail | null
  history: LedgerEntry[]
  detailError: string | null
  /** The ledger row whose diff is open. */
  diffEntryId: number | null
  load(): Promise<void>
  select(name: string | null, options?: { ledgerId?: number }): Promise<void>
  openDiff(entryId: number | null): void
  /** Pin or disable a skill; answers the error to show, or null when it worked. */
  setFlags(name: string, flags: { pinned?: boolean; disabled?: boolean }): Promise<string | null>
  /** Makes the skill read as ledger row `ledgerId` left it (a new row, by the user). */
  restore(name: string, ledgerId: number): Promise<RevertOutcome>
  /** A skill changed on disk or in the ledger. */
  changed(name: string | null): void
  /** The search box's text: the list shows the skills it matches. */
  query: string
  setQuery(query: string): void
  create(input: RouteInput<'skills.create'>): Promise<SkillWriteOutcome>
  /** Saves SKILL.md edited by hand; `expected` is the text the editor opened with. */
  saveFile(name: string, content: string, expected: string): Promise<SkillWriteOutcome>
  /** "Delete": moves the skill to the archive (the timeline's revert restores it). */
  archive(name: string): Promise<SkillWriteOutcome>
  /** Opens the skill's folder (desktop) or answers where it is (browser mode: `opened` false). */
  openFolder(name: string): Promise<{ ok: true; path: string; opened: boolean } | { ok: false; error: string }>
}

export type SkillsStore = StoreApi<SkillsState>

export function createSkillsStore(client: CairnClient): SkillsStore {
  let seq = 0
  return createStore<SkillsState>()((set, get) => ({
    skills: [],
    diagnostics: [],
    loaded: false,
    loadError: null,
    selected: null,
    detail: null,
    history: [],
    detailError: null,
    diffEntryId: null,
    query: '',

    async load() {
      try {
        const { skills, diagnostics } = await client.request('skills.list')
        set({ skills, diagnostics, loaded: true, loadError: null })
      } catch (error) {
        set({ loaded: true, loadError: describeError(error) })
      }
    },

    async select(name, options) {
      const mine = ++seq
      const same = name === get().selected
      set({
        selected: name,
        diffEntryId: options?.ledgerId ?? null,
        detailError: null,
        ...(same ? {} : { detail: null, history: [] })
      })
      if (!name) return
      try {
        const [detail, history] = await Promise.all([client.request('skills.get', { name }), client.request('skills.history', { name })])
        if (mine === seq) set({ detail, history })
      } catch (error) {
        // A deleted skill still has history worth showing (and reverting).
        const history = await client.request('skills.history', { name }).catch(() => [] as LedgerEntry[])
        if (mine === seq) set({ detail: null, history, detailError: describeError(error) })
      }
    },

    openDiff: (diffEntryId) => set({ diffEntryId }),

    async setFlags(name, flags) {
      try {
        const item = await client.request('skills.setFlags', { name, ...flags })
        const detail = get().detail
        set({
          skills: get().skills.map((skill) => (skill.name === item.name ? item : skill)),
          ...(detail && detail.skill.name === item.name ? { detail: { ...detail, skill: item } } : {})
        })
        return null
      } catch (error) {
        return describeError(error)
      }
    },

    async restore(name, ledgerId) {
      try {
        const result: RevertResult = await client.request('skills.restore', { name, ledgerId })
        if (!result.ok) return { ok: false, code: result.code ?? null, key: result.key, params: result.params, error: result.error, conflict: result.conflict ?? null }
        get().changed(name)
        return { ok: true }
      } catch (error) {
        return { ok: false, code: null, error: describeError(error), conflict: null }
      }
    },

    setQuery: (query) => set({ query }),

    async create(input) {
      const outcome = await write(() => client.request('skills.create', input))
      if (outcome.ok) {
        await get().load()
        void get().select(outcome.name)
      }
      return outcome
    },

    async saveFile(name, content, expected) {
      const outcome = await write(() => client.request('skills.saveFile', { name, content, expected }))
      if (outcome.ok) get().changed(name)
      return outcome
    },

    async archive(name) {
      const outcome = await write(() => client.request('skills.archive', { name }))
      if (outcome.ok) {
        if (get().selected === name) void get().select(null)
        await get().load()
      }
      return outcome
    },

    async openFolder(name) {
      try {
        return { ok: true, ...(await client.request('skills.openFolder', { name })) }
      } catch (error) {
        return { ok: false, error: describeError(error) }
      }
    },

    changed(name) {
      void get().load()
      const { selected } = get()
      if (selected && (name === null || name === selected)) void get().select(selected, { ledgerId: get().diffEntryId ?? undefined })
    }
  }))
}

async function write(request: () => Promise<{ ok: true; name: string } | { ok: false; code: SkillWriteProblemCode; error: string }>): Promise<SkillWriteOutcome> {
  try {
    return await request()
  } catch (error) {
    return { ok: false, code: null, error: describeError(error) }
  }
}

/** Whether a skill matches the search: every word of the query appears in its name, description or category. */
export function matchesQuery(skill: Pick<SkillItem, 'name' | 'description' | 'category'>, query: string): boolean {
  const words = query.toLocaleLowerCase().split(/\s+/).filter(Boolean)
  if (!words.length) return true
  const haystack = `${skill.name} ${skill.description} ${skill.category ?? ''}`.toLocaleLowerCase()
  return words.every((word) => haystack.includes(word))
}

/** Skills grouped by category, categories sorted, uncategorised last. */
export function byCategory(skills: SkillItem[]): Array<{ category: string | null; skills: SkillItem[] }> {
  const groups = new Map<string | null, SkillItem[]>()
  for (const skill of skills) {
    const list = groups.get(skill.category) ?? []
    list.push(skill)
    groups.set(skill.category, list)
  }
  return [...groups.entries()]
    .sort(([a], [b]) => (a === null ? 1 : b === null ? -1 : a.localeCompare(b)))
    .map(([category, list]) => ({ category, skills: list.sort((x, y) => x.name.localeCompare(y.name)) }))
}
