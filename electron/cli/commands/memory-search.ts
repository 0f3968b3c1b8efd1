import type { CairnCore } from '../../core/cairn'
import { coreMatches } from '../../core/memory/memory-search'
import { memoryTargets } from '../../core/memory'
import { archiveSourceWords } from '../format-change'
import { formatTime, oneLine, printJson, UsageError } from '../io'
import type { CliContext } from './types'

const FILE = { memory: 'MEMORY.md', user: 'USER.md' } as const

/**
 * `cairn memory search <query> [--json]`: the core entries holding the words, then the archive's best
 * matches (every project's; hidden entries marked, the old wording of replaced entries included), with
 * their ids and dates. A person searching is not a recall: nothing is marked recalled.
 */
export function searchCommand(ctx: CliContext, core: CairnCore, words: string[], json: boolean, limit: number): number {
  const query = words.join(' ').trim()
  if (!query) throw new UsageError('Give the words to look for, e.g. cairn memory search deploy staging.')
  const coreHits = memoryTargets.flatMap((target) => coreMatches(core.memory, target, query)).map(({ score: _score, ...match }) => match)
  const archived = core.archive.search(query, { limit, includeHidden: true, includeSuperseded: true })
  if (json) {
    printJson(ctx.io, { query, core: coreHits, archive: archived, archiveSize: core.archive.count() })
    return 0
  }
  if (coreHits.length === 0 && archived.length === 0) {
    ctx.io.out(`Nothing in memory or the archive matches "${oneLine(query, 60)}".\n`)
    return 0
  }
  if (coreHits.length) ctx.io.out('In memory:\n')
  for (const hit of coreHits) ctx.io.out(`  ${FILE[hit.target as keyof typeof FILE] ?? hit.target} #${hit.position}  ${oneLine(hit.text, 90)}\n`)
  if (archived.length) ctx.io.out(`${coreHits.length ? '\n' : ''}In the archive:\n`)
  for (const hit of archived) {
    const facts = [
      hit.target,
      archiveSourceWords[hit.source],
      `added ${formatTime(hit.addedAt)}`,
      hit.lastRecalledAt ? `last recalled ${formatTime(hit.lastRecalledAt)}` : 'never recalled',
      hit.hidden ? 'hidden' : null
    ].filter(Boolean)
    ctx.io.out(`  a${hit.id}  ${oneLine(hit.text, 90)}  (${facts.join(', ')})\n`)
  }
  return 0
}
