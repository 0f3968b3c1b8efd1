import { markdownRendererEntry } from './install-paths'
import type { CliIO } from './io'

/** Turns markdown into text styled for a terminal (escape sequences for bold, colour, tables). */
export type RenderMarkdown = (markdown: string) => string

/**
 * Answers are rendered as markdown only on a terminal that takes styling: a pipe or a file gets the
 * model's text byte for byte, and so does a terminal under NO_COLOR (https://no-color.org) or TERM=dumb.
 */
export function wantsTerminalMarkdown(io: CliIO, env: NodeJS.ProcessEnv = process.env): boolean {
  return io.isTTY && !env.NO_COLOR && env.TERM !== 'dumb'
}

let loaded: RenderMarkdown | null = null

/** Renders with the renderer in markdown-render.ts, loaded the first time (see there why it is kept apart). */
export function renderTerminalMarkdown(markdown: string): string {
  // `require`, not `import()`: printing an event stays synchronous.
  loaded ??= (require(markdownRendererEntry()) as typeof import('./markdown-render')).createMarkdownRenderer()
  return loaded(markdown)
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/
const HEADING = /^ {0,3}#{1,6}(\s|$)/

/**
 * Where the completed blocks at the start of streamed markdown end (0 when none has): after the last
 * blank line, closing code fence or heading line that is outside a code fence. What follows may still
 * grow (a paragraph, a list, an open fence), so it waits for more text.
 */
export function completedBlocksEnd(text: string): number {
  let end = 0
  let fence: string | null = null
  let lineStart = 0
  let hasContent = false
  for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', lineStart)) {
    const line = text.slice(lineStart, newline)
    lineStart = newline + 1
    const marker = FENCE.exec(line)?.[1]
    if (fence) {
      // A fence closes with a bare run of its own character, at least as long as the one that opened it.
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) {
        fence = null
        end = lineStart
        hasContent = false
      }
    } else if (marker) {
      fence = marker
    } else if (!line.trim()) {
      if (hasContent) end = lineStart
      hasContent = false
    } else if (HEADING.test(line)) {
      end = lineStart
      hasContent = false
    } else {
      hasContent = true
    }
  }
  return end
}

/**
 * Streams an answer's markdown to the terminal block by block: text is held until its block is complete
 * (so a table, a list or a code fence is rendered whole, not re-drawn as it grows), then rendered and
 * written. Blocks are joined with one blank line, as the renderer spaces them; the last block is
 * written without its trailing newline, which the caller adds where the answer ends.
 */
export class MarkdownBlocks {
  private pending = ''
  private wroteBlock = false

  constructor(private readonly render: RenderMarkdown = renderTerminalMarkdown) {}

  /** Takes streamed text; gives what to write now ('' while the current block is still open). */
  push(text: string): string {
    this.pending += text
    const end = completedBlocksEnd(this.pending)
    if (end === 0) return ''
    const done = this.pending.slice(0, end)
    this.pending = this.pending.slice(end)
    return this.renderBlocks(done)
  }

  /** The answer (or this part of it, before a tool call) ended: what is still held, rendered. */
  end(): string {
    const rest = this.pending
    this.pending = ''
    const shown = this.renderBlocks(rest)
    this.wroteBlock = false
    return shown
  }

  /** A retry voided the text: what was held is dropped unshown. */
  drop(): void {
    this.pending = ''
    this.wroteBlock = false
  }

  private renderBlocks(markdown: string): string {
    if (!markdown.trim()) return ''
    const rendered = this.render(markdown).replace(/^\n+|\n+$/g, '')
    if (!rendered) return ''
    const shown = `${this.wroteBlock ? '\n\n' : ''}${rendered}`
    this.wroteBlock = true
    return shown
  }
}
