import { describe, expect, it } from 'vitest'
import { mergeText } from '../../../electron/core/sync/merge-text'

// The opening of Hermes's `note-taking/obsidian` skill (Apache-2.0, ../shared/corpus/hermes-skills), inlined so
// the test runs without the corpus.
const skill = `---
name: obsidian
description: Read, search, create, and edit notes in the Obsidian vault.
platforms: [linux, macos, windows]
---

# Obsidian Vault

Use this skill for filesystem-first Obsidian vault work: reading notes, listing notes, searching note files, creating notes, appending content, and adding wikilinks.

## Vault path

Use a known or resolved vault path before calling file tools.

The documented vault-path convention is the \`OBSIDIAN_VAULT_PATH\` environment variable. If it is unset, use \`~/Documents/Obsidian Vault\`.

## Read a note

Use \`read_file\` with the resolved absolute path to the note. Prefer this over \`cat\` because it provides line numbers and pagination.

## List notes

Use \`search_files\` with \`target: "files"\` and the resolved vault path. Prefer this over \`find\` or \`ls\`.

- To list all markdown notes, use \`pattern: "*.md"\` under the vault path.
- To list a subfolder, search under that subfolder's absolute path.

## Wikilinks

Obsidian links notes with \`[[Note Name]]\` syntax. When creating notes, use these to link related content.
`

const replaceLine = (text: string, from: string, to: string): string => {
  if (!text.includes(from)) throw new Error(`fixture line not found: ${from}`)
  return text.replace(from, to)
}

const descriptionEdited = replaceLine(skill, 'description: Read, search, create, and edit notes in the Obsidian vault.', 'description: Read, search, create, edit and link notes in an Obsidian vault.')
const unsetEdited = replaceLine(skill, 'If it is unset, use `~/Documents/Obsidian Vault`.', 'If it is unset, ask the user where the vault is.')
const wikilinkSection = '\n## Embeds\n\nUse `![[Note Name]]` to embed one note in another.\n'

describe('mergeText', () => {
  it('merges edits to different parts of a SKILL.md', () => {
    const theirs = skill + wikilinkSection
    const result = mergeText(skill, descriptionEdited, replaceLine(theirs, 'If it is unset, use `~/Documents/Obsidian Vault`.', 'If it is unset, ask the user where the vault is.'))
    expect(result).toEqual({
      clean: true,
      text: replaceLine(descriptionEdited, 'If it is unset, use `~/Documents/Obsidian Vault`.', 'If it is unset, ask the user where the vault is.') + wikilinkSection
    })
  })

  it('gives both versions, without conflict markers, when the edits overlap', () => {
    const ours = replaceLine(skill, 'If it is unset, use `~/Documents/Obsidian Vault`.', 'If it is unset, use `~/Obsidian`.')
    const result = mergeText(skill, ours, unsetEdited)
    expect(result).toEqual({ clean: false, ours, theirs: unsetEdited })
  })

  it('takes the same edit made on both sides once, alongside other edits', () => {
    const ours = replaceLine(unsetEdited, '## Wikilinks', '## Links')
    const result = mergeText(skill, ours, unsetEdited + wikilinkSection)
    expect(result).toEqual({ clean: true, text: ours + wikilinkSection })
  })

  it('takes the other side’s text exactly when one side left the file as it was', () => {
    const crlfTheirs = unsetEdited.replace(/\n/g, '\r\n')
    expect(mergeText(skill, skill, crlfTheirs)).toEqual({ clean: true, text: crlfTheirs })
    expect(mergeText(skill, descriptionEdited, skill)).toEqual({ clean: true, text: descriptionEdited })
  })

  it('merges a file added on both sides only when both added the same text', () => {
    expect(mergeText(null, skill, skill)).toEqual({ clean: true, text: skill })
    expect(mergeText(null, skill, descriptionEdited)).toEqual({ clean: false, ours: skill, theirs: descriptionEdited })
  })

  it('writes the merge in ours’ line endings and with ours’ final newline', () => {
    const oursCrlf = descriptionEdited.replace(/\n/g, '\r\n')
    const merged = mergeText(skill, oursCrlf, unsetEdited)
    const both = replaceLine(descriptionEdited, 'If it is unset, use `~/Documents/Obsidian Vault`.', 'If it is unset, ask the user where the vault is.')
    expect(merged).toEqual({ clean: true, text: both.replace(/\n/g, '\r\n') })

    const oursWithoutFinalNewline = descriptionEdited.trimEnd()
    expect(mergeText(skill, oursWithoutFinalNewline, unsetEdited)).toEqual({ clean: true, text: both.trimEnd() })
  })

  it('keeps a change that only touched line endings on one side while merging the other side’s edit', () => {
    const oursCrlf = skill.replace(/\n/g, '\r\n')
    expect(mergeText(skill, oursCrlf, unsetEdited)).toEqual({ clean: true, text: unsetEdited.replace(/\n/g, '\r\n') })
  })

  it('reports a deletion on one side against an edit of the same lines on the other as overlapping', () => {
    const ours = replaceLine(skill, '- To list a subfolder, search under that subfolder\'s absolute path.\n', '')
    const theirs = replaceLine(skill, "search under that subfolder's absolute path.", 'search under its absolute path.')
    expect(mergeText(skill, ours, theirs).clean).toBe(false)
  })
})
