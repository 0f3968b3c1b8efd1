import { describe, expect, it } from 'vitest'
import { toolOutcome } from '../../electron/cli/tool-outcome'

describe('the one line a finished tool call gets', () => {
  it('says what it came to in words', () => {
    expect(toolOutcome('run_command', true, JSON.stringify({ success: true, exit_code: 2, signal: null, timed_out: false, stdout: 'x\ny' }))).toBe('exit 2')
    expect(toolOutcome('run_command', true, JSON.stringify({ success: true, exit_code: null, signal: null, timed_out: true }))).toBe('timed out')
    // A command that ran and failed is worded by how it ended, not dumped as JSON (its output is shown under it).
    expect(toolOutcome('run_command', false, JSON.stringify({ success: true, exit_code: 3, signal: null, timed_out: false, stdout: 'x' }))).toBe('exit 3')
    expect(toolOutcome('read_file', true, JSON.stringify({ success: true, total_lines: 1 }))).toBe('1 line')
    expect(toolOutcome('list_dir', true, JSON.stringify({ success: true, count: 3 }))).toBe('3 entries')
    expect(toolOutcome('search_files', true, JSON.stringify({ count: 4, files_with_matches: 1 }))).toBe('4 matches in 1 file')
    expect(toolOutcome('fetch_url', true, JSON.stringify({ title: 'Example Domain' }))).toBe('Example Domain')
    expect(toolOutcome('memory', true, JSON.stringify({ success: true }))).toBe('')
  })

  it("gives a failure's own message on one line, not its JSON", () => {
    expect(toolOutcome('read_file', false, JSON.stringify({ success: false, error: 'There is no file notes.md.\nList the folder first.' }))).toBe('There is no file notes.md. List the folder first.')
    expect(toolOutcome('other', false, 'plain\ntext')).toBe('plain text')
  })
})
