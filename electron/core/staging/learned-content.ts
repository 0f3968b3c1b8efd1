import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { diffLines, diffWordsWithSpace } from 'diff'
import type { ContentDanger } from '../../../shared/dangers'
import type { Provenance } from '../../../shared/provenance'
import { skillChangeDangers } from '../security/skill-dangers'
import type { SkillStore } from '../skills'
import { checkSupportPath } from '../skills'
import type { ProvenanceEvidence } from '../text/provenance-evidence'

/** What a memory or skill write adds, for judging where it came from and whether it is dangerous. */
export interface LearnedCallContent {
  /** The text the call puts in (judged for provenance); empty for a removal. */
  added: string
  /** For a skill: the changed text before and after (judged for what dangerous it adds). */
  skillChange: { before: string | null; after: string } | null
}

export interface LearnedCallJudgement {
  provenance: Provenance
  dangers: ContentDanger[]
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : ''
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return null
  }
}

/** Word diffs cost O(N·D); past this many characters the inserted text is found by lines. */
const WORD_DIFF_LIMIT = 20_000

/**
 * The text `after` adds to `before`: for a change to a skill only what is new counts as evidence (the
 * rest was there before, whoever wrote it). Word by word for small texts, line by line for large ones.
 */
export function insertedText(before: string | null, after: string): string {
  if (!before) return after
  const parts = before.length + after.length <= WORD_DIFF_LIMIT ? diffWordsWithSpace(before, after) : diffLines(before, after)
  return parts
    .filter((part) => part.added)
    .map((part) => part.value.trim())
    .filter(Boolean)
    .join('\n')
}

/** What a `memory` call writes: its content, or every content of a batch's operations. */
function memoryContent(args: Record<string, unknown>): LearnedCallContent | null {
  const operations = Array.isArray(args.operations) ? (args.operations as Array<Record<string, unknown>>) : null
  if (!operations && (args.action === 'read' || args.action === 'search')) return null
  const contents = operations ? operations.map((operation) => text(operation?.content)) : [text(args.content)]
  return { added: contents.filter(Boolean).join('\n'), skillChange: null }
}

/** What a `skill_manage` call writes, and the file text it changes (the current file for edit and write_file). */
function skillContent(args: Record<string, unknown>, skills: Pick<SkillStore, 'get'>): LearnedCallContent | null {
  const skill = typeof args.name === 'string' ? skills.get(args.name) : null
  const current = (file: string): string | null => {
    if (!skill) return null
    if (!file || file === 'SKILL.md') return readText(skill.path)
    const checked = checkSupportPath(file)
    return checked.ok ? readText(join(dirname(skill.path), checked.path)) : null
  }
  switch (args.action) {
    case 'create':
      return { added: text(args.content), skillChange: { before: null, after: text(args.content) } }
    case 'edit': {
      const before = current('SKILL.md')
      return { added: insertedText(before, text(args.content)), skillChange: { before, after: text(args.content) } }
    }
    case 'patch':
      // Only what the patch puts in counts: the rest of the file was there before.
      return { added: insertedText(text(args.old_string), text(args.new_string)), skillChange: { before: text(args.old_string), after: text(args.new_string) } }
    case 'write_file': {
      const before = current(text(args.file_path))
      return { added: insertedText(before, text(args.file_content)), skillChange: { before, after: text(args.file_content) } }
    }
    case 'delete':
    case 'remove_file':
      return { added: '', skillChange: null }
    default:
      return null
  }
}

/** What a learning call writes; null for calls that only read (memory read, skills_list, skill_view) or are malformed. */
export function learnedCallContent(name: string, args: Record<string, unknown>, skills: Pick<SkillStore, 'get'>): LearnedCallContent | null {
  if (name === 'memory') return memoryContent(args)
  if (name === 'skill_manage') return skillContent(args, skills)
  return null
}

/**
 * Where a learning call's content came from (by the conversation's evidence) and what dangerous it
 * adds; null when the call writes nothing. A removal puts nothing in: it is the assistant's own doing.
 */
export function judgeLearnedCall(name: string, args: Record<string, unknown>, deps: { skills: Pick<SkillStore, 'get'>; evidence: ProvenanceEvidence }): LearnedCallJudgement | null {
  const content = learnedCallContent(name, args, deps.skills)
  if (!content) return null
  const provenance: Provenance = content.added.trim() ? deps.evidence.judge(content.added, { ownActions: name === 'skill_manage' }) : { origin: 'model' }
  const dangers = content.skillChange ? skillChangeDangers(content.skillChange.before, content.skillChange.after) : []
  return { provenance, dangers }
}
