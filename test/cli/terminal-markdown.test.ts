import { stripVTControlCharacters } from 'node:util'
import { describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../shared/agent-events'
import { textPrinter } from '../../electron/cli/chat-output'
import { createMarkdownRenderer } from '../../electron/cli/markdown-render'
import { completedBlocksEnd, MarkdownBlocks, wantsTerminalMarkdown } from '../../electron/cli/terminal-markdown'

const render = createMarkdownRenderer()
const ids = { sessionId: 's', turnId: 't' }
const text = (t: string): AgentEvent => ({ type: 'text_delta', ...ids, text: t })
const finished: AgentEvent = { type: 'turn_finished', ...ids, reason: 'completed', text: '', usage: { promptTokens: 0, completionTokens: 0, cachedTokens: 0 }, toolCalls: 0 }

/** A CLI output whose stdout is (or is not) a terminal, recording what was written where. */
function recordingIO(isTTY: boolean) {
  const written = { out: '', err: '' }
  return { io: { isTTY, out: (s: string) => void (written.out += s), err: (s: string) => void (written.err += s) }, written }
}

/** Streams `markdown` a few characters at a time, as a model does. */
function streamed(markdown: string, size = 3): string[] {
  const pieces: string[] = []
  for (let at = 0; at < markdown.length; at += size) pieces.push(markdown.slice(at, at + size))
  return pieces
}

const ANSWER = [
  '# Plan',
  'First **check** the `config`, then:',
  '',
  '1. run the tests',
  '2. read the log',
  '',
  '```sh',
  'npm test',
  '',
  'npm run lint',
  '```',
  '| step | time |',
  '| --- | --- |',
  '| test | 2 s |',
  '',
  '> Done when both pass.'
].join('\n')

describe('where streamed markdown has complete blocks', () => {
  it('ends a block at a blank line, a heading line or a closing fence, never inside a fence or mid-paragraph', () => {
    expect(completedBlocksEnd('A paragraph still going')).toBe(0)
    expect(completedBlocksEnd('A paragraph\nover two lines\n')).toBe(0)
    expect(completedBlocksEnd('A paragraph.\n\nThe next')).toBe('A paragraph.\n\n'.length)
    expect(completedBlocksEnd('# Title\nText')).toBe('# Title\n'.length)
    expect(completedBlocksEnd('```\ncode\n\nmore code\n')).toBe(0)
    expect(completedBlocksEnd('```\ncode\n\nmore\n```\nafter')).toBe('```\ncode\n\nmore\n```\n'.length)
    // A ~~~ line does not close a ``` fence, nor a shorter run a longer one.
    expect(completedBlocksEnd('````\na\n~~~\n```\n\n')).toBe(0)
    expect(completedBlocksEnd('\n\n\n')).toBe(0)
  })

  it('rendered block by block as it streams, an answer reads as it does rendered whole', () => {
    const blocks = new MarkdownBlocks(render)
    const shown = streamed(ANSWER).map((piece) => blocks.push(piece)).join('') + blocks.end()
    expect(stripVTControlCharacters(shown)).toBe(stripVTControlCharacters(render(ANSWER)).replace(/\n+$/, ''))
    expect(stripVTControlCharacters(shown)).toMatch(/1\. run the tests\n\s+2\. read the log/)
    expect(shown).not.toContain('**')
    expect(shown).not.toContain('```')
  })
})

describe('the answer printer', () => {
  it('renders on a terminal: a block shows once it is complete, the rest when the answer ends', () => {
    const { io, written } = recordingIO(true)
    const print = textPrinter(io, () => 80, new MarkdownBlocks(render))
    print(text('Some **bold** words.\n\nAnd a sec'))
    expect(stripVTControlCharacters(written.out)).toBe('Some bold words.')
    print(text('ond one.'))
    print(finished)
    expect(stripVTControlCharacters(written.out)).toBe('Some bold words.\n\nAnd a second one.\n')
  })

  it('erases the rendered text a retry voids, and what was still held is never shown', () => {
    const { io, written } = recordingIO(true)
    const print = textPrinter(io, () => 80, new MarkdownBlocks(render))
    print(text('A **first** try.\n\nthat breaks'))
    print({ type: 'retry', ...ids, attempt: 1, delayMs: 1000, reason: 'The connection dropped.', discardPartial: true })
    print(text('The answer.'))
    print(finished)
    expect(written.out).toContain('\r\x1b[J')
    expect(written.out).not.toContain('breaks')
    expect(stripVTControlCharacters(written.out.slice(written.out.indexOf('\r\x1b[J')))).toBe('\rThe answer.\n')
  })

  it('prints the text as it comes, byte for byte, when stdout is not a terminal', () => {
    const { io, written } = recordingIO(false)
    const print = textPrinter(io)
    for (const piece of streamed(ANSWER)) print(text(piece))
    print(finished)
    expect(written.out).toBe(`${ANSWER}\n`)
  })

  it('is wanted on a terminal unless NO_COLOR or TERM=dumb says otherwise', () => {
    const tty = recordingIO(true).io
    expect(wantsTerminalMarkdown(tty, { TERM: 'xterm-256color' })).toBe(true)
    expect(wantsTerminalMarkdown(tty, { TERM: 'xterm-256color', NO_COLOR: '1' })).toBe(false)
    expect(wantsTerminalMarkdown(tty, { TERM: 'dumb' })).toBe(false)
    expect(wantsTerminalMarkdown(recordingIO(false).io, {})).toBe(false)
  })
})
