import { z } from 'zod'
import { defineTool, type ToolDef } from '../tools/types'
import { requestApproval } from './approval'
import { argumentLeavingWorkspace } from './command-paths'
import { notFoundMessage, statOrNull } from './fs-info'
import { isWithin, realPathOf, resolveToolPath, workspaceRoot, type WorkspaceEnv } from './paths'
import { runShellCommand } from './shell-process'
import { capLine, formatCount } from './text'

export const COMMAND_DEFAULT_TIMEOUT_MS = 60_000
export const COMMAND_MAX_TIMEOUT_MS = 600_000
export const COMMAND_MAX_OUTPUT_CHARS = 20_000

const runCommandSchema = z.object({
  command: z.string().trim().min(1).describe('Run by /bin/sh -c (cmd.exe on Windows), with no input: pass flags like -y.'),
  cwd: z.string().optional().describe('Default: the workspace.'),
  timeout_ms: z
    .number()
    .int()
    .min(1)
    .max(COMMAND_MAX_TIMEOUT_MS)
    .optional()
    .describe(`Default ${formatCount(COMMAND_DEFAULT_TIMEOUT_MS)}, max ${formatCount(COMMAND_MAX_TIMEOUT_MS)}.`)
})

export interface RunCommandToolOptions {
  /** Time between SIGTERM and SIGKILL when a command is stopped (tests shorten it). */
  killGraceMs?: number
}

export function createRunCommandTool(env: WorkspaceEnv, options: RunCommandToolOptions = {}): ToolDef<typeof runCommandSchema> {
  return defineTool({
    name: 'run_command',
    description:
      'Run a shell command; returns exit_code, stdout and stderr. Killed after timeout_ms: do not start servers or watchers.',
    schema: runCommandSchema,
    async run(args, ctx) {
      const cwd = resolveToolPath(args.cwd ?? '.', ctx, env)
      const stats = statOrNull(cwd.abs)
      if (!stats) return { success: false, error: notFoundMessage(cwd.abs, cwd.display, 'Folder') }
      if (!stats.isDirectory()) return { success: false, error: `cwd ${cwd.display} is a file, not a folder. Pass the folder that contains it.` }

      // A saved prefix and "this conversation" cover the workspace only: a command run outside it (by
      // its real folder, so a symlink inside cannot lead out) is asked about every time, once only.
      const root = realPathOf(workspaceRoot(ctx, env))
      const real = realPathOf(cwd.abs)
      const outside = !isWithin(real, root)
      const runIn = outside ? real : cwd.abs
      const where = outside ? `${real} (outside the workspace ${root}${real === cwd.abs ? '' : `, reached through the symlink ${cwd.display}`})` : cwd.abs
      // A saved prefix grants the workspace only: an argument leading out of it is asked about every time.
      const reach = outside ? null : argumentLeavingWorkspace(args.command, real, root)
      const reaches = !reach ? '' : 'expands' in reach ? `; the shell would expand ${reach.word}` : `; ${reach.word} leads to ${reach.leadsTo}, outside the workspace`
      const firstLine = args.command.split('\n')[0]
      const shortCommand = capLine(firstLine, 120) + (args.command.includes('\n') ? ' …' : '')
      const cut = shortCommand !== firstLine ? ` (${args.command.length} characters, shown whole)` : ''
      const refusal = await requestApproval(
        ctx,
        {
          kind: 'command',
          tool: 'run_command',
          summary: `Run \`${shortCommand}\`${cut} in ${where}${reaches}`,
          command: args.command,
          cwd: runIn,
          preview: args.command,
          ...(outside || reach ? { outsideWorkspace: true, scopes: ['once' as const] } : {})
        },
        `run \`${shortCommand}\``
      )
      if (refusal) return refusal
      if (ctx.signal?.aborted) return { success: false, cancelled: true, error: 'The turn was stopped before the command started; it did not run.' }

      const timeoutMs = args.timeout_ms ?? COMMAND_DEFAULT_TIMEOUT_MS
      let result
      try {
        result = await runShellCommand({
          command: args.command,
          cwd: runIn,
          timeoutMs,
          signal: ctx.signal,
          maxOutputChars: COMMAND_MAX_OUTPUT_CHARS,
          killGraceMs: options.killGraceMs
        })
      } catch (error) {
        return { success: false, error: `Could not start the shell to run the command: ${(error as Error).message}.` }
      }

      const fields = {
        exit_code: result.exitCode,
        signal: result.signal,
        timed_out: result.timedOut,
        stdout: result.stdout,
        stderr: result.stderr,
        duration_ms: result.durationMs,
        cwd: cwd.display
      }
      if (result.cancelled) {
        return { success: false, cancelled: true, error: 'The command was stopped by the user; it and everything it started were killed.', ...fields }
      }
      let note: string | undefined
      if (result.timedOut) {
        note = `Killed after ${formatCount(timeoutMs)} ms (timeout), with everything it started. If it needs longer, raise timeout_ms (max ${formatCount(COMMAND_MAX_TIMEOUT_MS)}); long-running servers should be started by the user instead.`
      } else if (result.backgroundLeft) {
        note = 'The command exited but left background processes running; their later output is not captured and they are not stopped by Cairn.'
      }
      return { success: true, ...fields, ...(note ? { note } : {}) }
    }
  })
}
