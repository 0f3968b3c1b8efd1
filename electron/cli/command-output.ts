import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import type { AgentEvent } from '../../shared/agent-events'
import { visibleControls } from '../../shared/visible-text'
import type { CliIO } from './io'

/** How much of a command's output is shown under it: its last lines, and at most this many characters of them. */
export const SHOWN_LINES = 20
export const SHOWN_CHARS = 4000

interface CommandStreams {
  stdout: string
  stderr: string
}

/**
 * The last command's whole output (as the tool kept it), for when what was shown was cut: the
 * interactive session prints it with `/output`; a one-turn `cairn chat` writes it to `file` (private
 * to the user: output can hold secrets) and names the file.
 */
export class CommandOutputs {
  private last: (CommandStreams & { command: string }) | null = null
  /** The commands of the calls under way, by call id (their results do not repeat them). */
  private readonly commands = new Map<string, string>()

  constructor(
    /** Where a cut output is written when there is no `/output` to ask; null: nowhere. */
    private readonly file: string | null,
    /** The interactive session, where `/output` prints it. */
    readonly interactive: boolean
  ) {}

  started(callId: string, command: string): void {
    this.commands.set(callId, command)
  }

  remember(callId: string, streams: CommandStreams): void {
    this.last = { command: this.commands.get(callId) ?? '', ...streams }
    this.commands.delete(callId)
  }

  /**
   * `/output`: the last command's whole output, or a line saying there is none. Printed to the terminal,
   * so with its control characters written out as the shortened view shows them (an escape sequence in a
   * command's output must not drive the terminal); newlines stay.
   */
  whole(): string {
    if (!this.last) return 'No command has run in this session yet.\n'
    return visibleControls(this.everything(), { newlines: true })
  }

  /** The command and its streams as they were, for the file (read by the user's own means). */
  private everything(): string {
    const { command, stdout, stderr } = this.last!
    return [`$ ${command}`, stdout ? `stdout:\n${withNewline(stdout)}` : '(no stdout)\n', stderr ? `stderr:\n${withNewline(stderr)}` : ''].join('\n')
  }

  /** How to see the whole output of the command just shown cut: `/output`, or the file it was written to. */
  wayToAll(): string {
    if (this.interactive) return '/output prints all of it'
    if (!this.file || !this.last) return 'run it yourself to see all of it'
    try {
      mkdirSync(dirname(this.file), { recursive: true })
      writeFileSync(this.file, this.everything(), { mode: 0o600 })
      return `all of it is in ${this.file}`
    } catch (error) {
      return `it could not be kept in ${this.file} (${(error as Error).message})`
    }
  }
}

function withNewline(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`
}

/** A finished run_command's result: its command and streams; null for other tools, a refusal, or a result that is not the tool's JSON. */
function commandStreams(event: Extract<AgentEvent, { type: 'tool_call_finished' }>): CommandStreams | null {
  if (event.name !== 'run_command') return null
  try {
    const parsed = JSON.parse(event.result) as Record<string, unknown>
    const stdout = typeof parsed.stdout === 'string' ? parsed.stdout : null
    const stderr = typeof parsed.stderr === 'string' ? parsed.stderr : null
    return stdout === null && stderr === null ? null : { stdout: stdout ?? '', stderr: stderr ?? '' }
  } catch {
    return null
  }
}

/** The end of a stream that fits: its last `lines` lines within `chars` characters, and how many lines were left out. */
function tailOf(text: string, lines: number, chars: number): { shown: string[]; cut: number } {
  const all = text.replace(/\n$/, '').split('\n')
  const shown: string[] = []
  let size = 0
  for (let index = all.length - 1; index >= 0 && shown.length < lines; index--) {
    const line = all[index]
    if (size + line.length + 1 > chars) {
      // A single huge line still shows its end, so something is always seen.
      if (shown.length === 0) shown.unshift(`…${line.slice(line.length - (chars - 1))}`)
      break
    }
    shown.unshift(line)
    size += line.length + 1
  }
  return { shown, cut: all.length - shown.length }
}

/**
 * Under a finished command, its output: the last lines of stdout (`│`) and of stderr (`!`), each
 * bounded, whatever the exit code, with a line saying how much was left out and how to see it all.
 * Written to stderr like the tool lines, so stdout keeps only the answer.
 */
export function showCommandOutput(io: CliIO, event: AgentEvent, outputs: CommandOutputs): void {
  if (event.type === 'tool_call_started' && event.name === 'run_command') outputs.started(event.callId, commandOf(event.arguments))
  if (event.type !== 'tool_call_finished') return
  const streams = commandStreams(event)
  if (!streams) return
  outputs.remember(event.callId, streams)
  const parts: Array<[label: string, mark: string, text: string]> = [
    ['stdout', '│', streams.stdout],
    ['stderr', '!', streams.stderr]
  ]
  // stderr usually says why a command failed: it gets its share first, stdout what is left.
  const budget = { lines: SHOWN_LINES, chars: SHOWN_CHARS }
  const tails = new Map<string, { shown: string[]; cut: number }>()
  for (const [label, , text] of [...parts].reverse()) {
    if (!text.trim()) continue
    const tail = tailOf(text, Math.max(1, budget.lines), Math.max(200, budget.chars))
    budget.lines -= tail.shown.length
    budget.chars -= tail.shown.join('\n').length
    tails.set(label, tail)
  }
  let cut = 0
  for (const [label, mark] of parts) {
    const tail = tails.get(label)
    if (!tail) continue
    cut += tail.cut
    io.err(`    ${label}:\n${tail.shown.map((line) => `    ${mark} ${visibleControls(line, { newlines: false })}\n`).join('')}`)
  }
  if (cut > 0) io.err(`    (${cut} earlier ${cut === 1 ? 'line' : 'lines'} not shown; ${outputs.wayToAll()})\n`)
}

function commandOf(args: string): string {
  try {
    const parsed = JSON.parse(args) as { command?: unknown }
    return typeof parsed.command === 'string' ? parsed.command : ''
  } catch {
    return ''
  }
}
