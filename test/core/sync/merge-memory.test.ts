import { describe, expect, it } from 'vitest'
import { charCount } from '../../../electron/core/memory/memory-file'
import { mergeMemoryEntries, type MemoryConflict, type MemoryMergeResult } from '../../../electron/core/sync/merge-memory'
import { isNearDuplicate } from '../../../electron/core/text/entry-similarity'

const LIMIT = 100_000
const merge = (base: string[], ours: string[], theirs: string[], limit = LIMIT): MemoryMergeResult => mergeMemoryEntries({ base, ours, theirs, limit })

const editor = 'User edits code in VS Code with the Vim keybindings enabled'
const editorLight = 'User edits code in VS Code with the Vim keybindings disabled'
const editorZed = 'User edits code in Zed with the Vim keybindings enabled'
const timezone = 'User lives in Berlin and works on Central European Time'
const deploy = 'Deploys go through the staging cluster before production on Fridays'
const pets = 'User has two cats called Miso and Tofu'
const tea = 'User drinks green tea every afternoon'

describe('mergeMemoryEntries: entries from the base', () => {
  it('keeps entries both sides kept and drops entries either side removed', () => {
    const result = merge([editor, timezone, deploy], [editor, deploy], [editor, timezone])
    expect(result).toEqual({ entries: [editor], conflicts: [], overflow: [] })
  })

  it('takes a rewording made on one side, in ours’ place', () => {
    expect(merge([editor, timezone], [timezone, editor], [editorLight, timezone]).entries).toEqual([timezone, editorLight])
    expect(merge([editor, timezone], [editorLight, timezone], [editor, timezone]).entries).toEqual([editorLight, timezone])
  })

  it('takes the same rewording made on both sides once, without a conflict', () => {
    expect(merge([editor, timezone], [editorLight, timezone], [timezone, editorLight])).toEqual({ entries: [editorLight, timezone], conflicts: [], overflow: [] })
  })

  it('keeps ours and proposes theirs when both reworded the same entry differently', () => {
    const result = merge([editor, timezone], [editorLight, timezone], [editorZed, timezone])
    expect(result.entries).toEqual([editorLight, timezone])
    expect(result.conflicts).toEqual([{ kind: 'changed_both', base: editor, ours: editorLight, theirs: editorZed }])
  })

  it('leaves out and proposes back a rewording of an entry the other side removed, whichever side reworded', () => {
    const oursReworded = merge([editor, timezone], [editorLight, timezone], [timezone])
    expect(oursReworded.entries).toEqual([timezone])
    expect(oursReworded.conflicts).toEqual([{ kind: 'changed_removed', base: editor, changed: editorLight, changedBy: 'ours' }])
    const theirsReworded = merge([editor, timezone], [timezone], [timezone, editorLight])
    expect(theirsReworded.entries).toEqual([timezone])
    expect(theirsReworded.conflicts).toEqual([{ kind: 'changed_removed', base: editor, changed: editorLight, changedBy: 'theirs' }])
  })

  it('reads an unrelated new entry in place of a removed one as a removal and an addition', () => {
    // `pets` shares no words with `editor`: theirs removed one fact and learned another.
    // Read as a rewording, `pets` would take `editor`'s place at the front.
    expect(merge([editor, timezone], [editor, timezone, tea], [pets, timezone])).toEqual({ entries: [timezone, tea, pets], conflicts: [], overflow: [] })
  })

  it('pairs each removed entry with its closest new entry, one to one', () => {
    const base = [editor, timezone]
    const timezoneMoved = 'User lives in Lisbon and works on Western European Time'
    // Theirs reworded both; each rewording must land on its own base entry, not both on the first.
    const result = merge(base, [editor, timezone, tea], [timezoneMoved, editorZed])
    expect(result.entries).toEqual([editorZed, timezoneMoved, tea])
    expect(result.conflicts).toEqual([])
  })
})

describe('mergeMemoryEntries: additions', () => {
  it('keeps additions from both sides: ours in place, then theirs in theirs’ order', () => {
    const result = merge([editor], [pets, editor], [editor, tea, deploy])
    expect(result.entries).toEqual([pets, editor, tea, deploy])
  })

  it('keeps an entry added on both sides once, exactly or as a near duplicate', () => {
    expect(merge([editor], [editor, tea], [editor, tea]).entries).toEqual([editor, tea])
    const teaShouted = 'user drinks GREEN tea, every afternoon!'
    const result = merge([editor], [editor, tea], [editor, teaShouted])
    expect(result.entries).toHaveLength(2)
    expect(result.entries.filter((entry) => isNearDuplicate(entry, tea))).toHaveLength(1)
  })

  it('drops an addition that repeats what the other side added or reworded', () => {
    const lightAgain = 'user edits code in vs code with the vim keybindings DISABLED'
    expect(merge([editor], [editorLight], [editor, lightAgain])).toEqual({ entries: [editorLight], conflicts: [], overflow: [] })
    const teaAgain = 'User drinks green tea, every afternoon.'
    expect(merge([editor], [editor, pets, tea], [editor, teaAgain, deploy]).entries).toEqual([editor, pets, teaAgain, deploy])
  })

  it('takes rewordings of one entry that say the same on both sides once, without a conflict', () => {
    const lightAgain = 'user edits code in vs code with the vim keybindings DISABLED'
    // Either merge order keeps the same wording (of equal length, the first by code units).
    expect(merge([editor, tea], [lightAgain, tea], [tea, editorLight])).toEqual({ entries: [editorLight, tea], conflicts: [], overflow: [] })
    expect(merge([editor, tea], [editorLight, tea], [tea, lightAgain])).toEqual({ entries: [editorLight, tea], conflicts: [], overflow: [] })
  })

  it('keeps near duplicates that one side already kept side by side', () => {
    const teaAgain = 'User drinks green tea every afternoon.'
    const theirs = [editor, tea, teaAgain]
    expect(merge([editor], [editor], theirs).entries).toEqual(theirs)
    expect(merge([editor], [editor, pets], theirs).entries).toEqual([editor, pets, tea, teaAgain])
  })
})

describe('mergeMemoryEntries: the limit', () => {
  it('moves theirs’ additions to overflow from the last, then ours’, until the entries fit; none is cut', () => {
    const base = [editor]
    const ours = [editor, pets, timezone]
    const theirs = [editor, tea, deploy]
    const all = merge(base, ours, theirs)
    expect(all.entries).toEqual([editor, pets, timezone, tea, deploy])

    const withoutDeploy = charCount([editor, pets, timezone, tea])
    expect(merge(base, ours, theirs, withoutDeploy)).toEqual({ entries: [editor, pets, timezone, tea], conflicts: [], overflow: [deploy] })
    const onlyOursFirst = charCount([editor, pets])
    const tight = merge(base, ours, theirs, onlyOursFirst)
    expect(tight.entries).toEqual([editor, pets])
    expect(tight.overflow).toEqual([timezone, tea, deploy])
  })

  it('returns entries over the limit as they are when rewordings alone outgrow it', () => {
    const longer = `${editor}, and the leader key is the space bar in every mode`
    const result = merge([editor, timezone], [longer, timezone], [editor, timezone, tea], charCount([editor, timezone]))
    expect(result.overflow).toEqual([tea])
    expect(result.entries).toEqual([longer, timezone])
    expect(charCount(result.entries)).toBeGreaterThan(charCount([editor, timezone]))
  })

  it('fits a side that alone is over the limit through the same overflow', () => {
    const result = merge([editor], [editor], [editor, tea, pets], charCount([editor, tea]))
    expect(result).toEqual({ entries: [editor, tea], conflicts: [], overflow: [pets] })
  })
})

/** A small deterministic generator (mulberry32), so every run checks the same cases. */
function seeded(seed: number): () => number {
  let state = seed
  return () => {
    state = (state + 0x6d2b79f5) | 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Ten distinct words per fact, so one word changed is a rewording (9/11 alike) and not a near duplicate. */
const fact = (id: string, variant = ''): string =>
  `fact${id} ${['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta'].map((word) => word + id).join(' ')} ${variant || `omega${id}`}`

interface Case {
  base: string[]
  ours: string[]
  theirs: string[]
}

function generate(random: () => number): Case {
  const pick = (n: number): number => Math.floor(random() * n)
  const base = Array.from({ length: 1 + pick(6) }, (_, i) => fact(`b${i}`))
  const side = (name: string): string[] => {
    const entries: string[] = []
    base.forEach((entry, i) => {
      const roll = random()
      if (roll < 0.45) entries.push(entry)
      else if (roll < 0.75) entries.push(fact(`b${i}`, `variant${pick(2)}`))
      // else: removed
    })
    if (random() < 0.5) entries.splice(pick(entries.length + 1), 0, fact(`${name}${pick(100)}`))
    if (random() < 0.3) entries.push(fact(`shared${pick(3)}`))
    if (random() < 0.3) entries.push(fact(`shared${pick(3)}`).toUpperCase())
    // The same words as one of the rewordings either side may make (a near duplicate of it).
    if (random() < 0.2) entries.push(`— ${fact(`b${pick(base.length)}`, `variant${pick(2)}`)}`)
    return [...new Set(entries)]
  }
  return { base, ours: side('o'), theirs: side('t') }
}

const mirrored = (conflict: MemoryConflict): MemoryConflict =>
  conflict.kind === 'changed_both'
    ? { ...conflict, ours: conflict.theirs, theirs: conflict.ours }
    : { ...conflict, changedBy: conflict.changedBy === 'ours' ? 'theirs' : 'ours' }

describe('mergeMemoryEntries: properties over generated cases', () => {
  const cases = Array.from({ length: 400 }, (_, i) => generate(seeded(i + 1)))

  it('gives the same entries and mirrored conflicts with the sides swapped', () => {
    for (const { base, ours, theirs } of cases) {
      const forward = merge(base, ours, theirs)
      const backward = merge(base, theirs, ours)
      // A `changed_both` keeps the first side's rewording, so the swapped merge holds the other one.
      const swappedKeep = new Map(forward.conflicts.flatMap((c) => (c.kind === 'changed_both' ? [[c.ours, c.theirs] as const] : [])))
      const expected = forward.entries.map((entry) => swappedKeep.get(entry) ?? entry)
      expect(new Set(backward.entries), JSON.stringify({ base, ours, theirs })).toEqual(new Set(expected))
      expect(backward.conflicts).toEqual(forward.conflicts.map(mirrored))
    }
  })

  it('loses nothing: every text either side has is kept, proposed, a near duplicate of a kept one, or was removed by a side', () => {
    for (const { base, ours, theirs } of cases) {
      const result = merge(base, ours, theirs)
      expect(new Set(result.entries).size).toBe(result.entries.length)
      const proposed = result.conflicts.flatMap((c) => (c.kind === 'changed_both' ? [c.theirs] : [c.changed]))
      for (const text of [...ours, ...theirs]) {
        if (base.includes(text)) continue
        const accounted = [...result.entries, ...proposed].some((entry) => entry === text || isNearDuplicate(entry, text))
        expect(accounted, `${text} in ${JSON.stringify({ base, ours, theirs })}`).toBe(true)
      }
      // No base entry survives that either side removed or reworded.
      for (const entry of result.entries) if (base.includes(entry)) expect(ours.includes(entry) && theirs.includes(entry)).toBe(true)
    }
  })

  it('is idempotent: a side merged with itself, or with an untouched side, is that side', () => {
    for (const { base, ours, theirs } of cases) {
      expect(merge(base, ours, ours)).toEqual({ entries: ours, conflicts: [], overflow: [] })
      expect(merge(base, base, theirs).entries).toEqual(theirs)
      expect(merge(ours, ours, ours).entries).toEqual(ours)
      // The same entries in another order take the full merge rather than the shortcut, and still give that side.
      expect(new Set(merge(base, ours, [...ours].reverse()).entries)).toEqual(new Set(ours))
    }
  })

  it('never cuts an entry, and fits under the limit whenever the base-derived entries do', () => {
    // Without the `— ` near duplicates of rewordings, an entry's id tells whether it derives from the base (`factb…`).
    const plain = cases.filter(({ ours, theirs }) => ![...ours, ...theirs].some((entry) => entry.startsWith('—')))
    for (const [i, { base, ours, theirs }] of plain.entries()) {
      const limit = 200 + i * 3
      const result = merge(base, ours, theirs, limit)
      const full = merge(base, ours, theirs)
      expect([...result.entries, ...result.overflow].sort()).toEqual([...full.entries].sort())
      // Over only when nothing more could move: every entry left derives from a base entry (`factb…`).
      if (charCount(result.entries) > limit) expect(result.entries.every((entry) => entry.startsWith('factb'))).toBe(true)
      expect(result.overflow.every((entry) => !entry.startsWith('factb'))).toBe(true)
    }
  })
})
