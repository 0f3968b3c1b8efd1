import { describe, expect, it } from 'vitest'
import { translator } from '../../shared/i18n'
import { describeRationale } from '../../shared/i18n/describe-rationale'
import { parseStoredRationale, storedRationale } from '../../shared/proposal-rationale'

const en = translator('en')
const zh = translator('zh-CN')

/** The sentences the core wrote into `proposals.rationale` before rationales were codes. */
const older = {
  conflict: "This device and laptop changed this in different ways, so the sync kept this device's version and put laptop's here. Approve to take it instead.",
  overflow: "This came from another device, but after the merge it did not fit under the memory file's limit, so it waits here instead of being cut. Make room (or shorten it), then approve.",
  danger: "laptop changed this in a way that could hurt if an assistant followed it, so the sync kept this device's version and put laptop's here. Look at it before you approve.",
  imported: "Imported, but it did not fit under the memory file's limit, so it waits here instead of being cut. Make room (or shorten it), then approve.",
  claude: "Claude Code kept this in CLAUDE.md. Another agent's memory is only a candidate here: approve it to keep it.",
  version: 'Imported version of devops/deploy'
}

describe('proposal rationales as codes', () => {
  it('words a sync conflict in English exactly as the core used to, and in Chinese', () => {
    const stored = storedRationale({ code: 'sync_conflict', device: 'laptop' })
    expect(describeRationale(stored, en)).toBe(older.conflict)
    expect(describeRationale(stored, zh)).toBe('本设备和 laptop 以不同方式修改了这里，因此同步保留了本设备的版本，并把 laptop 的版本放在这里。批准即可改用它。')
    expect(describeRationale(storedRationale({ code: 'sync_overflow', device: null }), en)).toBe(older.overflow)
  })

  it('reads older rows English back into codes, so they are worded in the user language too', () => {
    expect(parseStoredRationale(older.conflict)).toEqual({ code: 'sync_conflict', device: 'laptop' })
    expect(parseStoredRationale(older.overflow)).toEqual({ code: 'sync_overflow', device: null })
    expect(parseStoredRationale(older.danger)).toEqual({ code: 'dangerous_content', device: 'laptop' })
    expect(parseStoredRationale(older.imported)).toEqual({ code: 'import_overflow' })
    expect(parseStoredRationale(older.claude)).toEqual({ code: 'claude_code_memory', file: 'CLAUDE.md' })
    expect(parseStoredRationale(older.version)).toEqual({ code: 'imported_version', folder: 'devops/deploy' })
    for (const text of Object.values(older)) expect(describeRationale(text, en)).toBe(text)
    expect(describeRationale(older.danger, zh)).toMatch(/^laptop 的修改/)
  })

  it("shows a reviewer's own words as written, and nothing for none", () => {
    expect(describeRationale('The user prefers pnpm.', zh)).toBe('The user prefers pnpm.')
    expect(describeRationale('{not json', en)).toBe('{not json')
    expect(describeRationale(null, en)).toBeNull()
  })
})
