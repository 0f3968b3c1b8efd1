/**
 * The source text of a plain scalar in front matter YAML. The parser turns `version: 1.10` into the
 * number 1.1 and `date: 2025-01-31` into a Date; a field moved under `metadata` as a string should read
 * as its author wrote it.
 */

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** Lines one level below the top-level `parent:` line, with that level's indentation removed. */
function childLines(lines: string[], parent: string): string[] {
  const opener = new RegExp(`^(?:${escapeRegExp(parent)}|"${escapeRegExp(parent)}"|'${escapeRegExp(parent)}')[ \\t]*:[ \\t]*(?:#.*)?$`)
  const start = lines.findIndex((line) => opener.test(line))
  if (start === -1) return []
  const block: string[] = []
  for (const line of lines.slice(start + 1)) {
    if (/^[^\s#]/.test(line)) break
    block.push(line)
  }
  const indent = /^[ \t]+/.exec(block.find((line) => line.trim() !== '' && !line.trim().startsWith('#')) ?? '')?.[0]
  if (!indent) return []
  return block.filter((line) => line.startsWith(indent) && !/^\s/.test(line.slice(indent.length))).map((line) => line.slice(indent.length))
}

/**
 * The written text of `key`'s plain scalar value at the top level of `yaml` (or one level under the
 * top-level `parent`), without a trailing comment. Null when the key is not there or its value is not a
 * plain one-line scalar (quoted, a block, a list or map, an alias, a tag), where the parsed value is exact.
 */
export function writtenScalar(yaml: string, key: string, parent?: string): string | null {
  if (yaml === '') return null
  const lines = yaml.split(/\r?\n/)
  const scope = parent === undefined ? lines : childLines(lines, parent)
  const pattern = new RegExp(`^(?:${escapeRegExp(key)}|"${escapeRegExp(key)}"|'${escapeRegExp(key)}')[ \\t]*:[ \\t]+(.*)$`)
  for (const line of scope) {
    const match = pattern.exec(line)
    if (!match) continue
    const value = match[1].replace(/[ \t]+#.*$/, '').trim()
    if (value === '' || /^["'[{|>&*!%@`]/.test(value)) return null
    return value
  }
  return null
}
