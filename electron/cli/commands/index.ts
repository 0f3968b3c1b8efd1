import { IMPORT_SOURCES } from './import-sources'
import type { CliCommand } from './types'

/**
 * Each command's code, loaded when that command runs: `cairn --help` and a typo answer without
 * loading the core, the MCP SDK, isomorphic-git or the markdown renderer (the bundle is split by
 * command, scripts/build-cli.mjs).
 */
export const commands = {
  chat: async () => (await import('./chat')).chatCommand,
  sessions: async () => (await import('./sessions')).sessionsCommand,
  serve: async () => (await import('./serve')).serveCommand,
  tool: async () => (await import('./tool')).toolCommand,
  skills: async () => (await import('./skills')).skillsCommand,
  memory: async () => (await import('./memory')).memoryCommand,
  search: async () => (await import('./search')).searchCommand,
  timeline: async () => (await import('./timeline')).timelineCommand,
  revert: async () => (await import('./revert')).revertCommand,
  review: async () => (await import('./review')).reviewCommand,
  inbox: async () => (await import('./inbox')).inboxCommand,
  curate: async () => (await import('./curate')).curateCommand,
  doctor: async () => (await import('./doctor')).doctorCommand,
  mcp: async () => (await import('./mcp')).mcpCommand,
  backup: async () => (await import('./backup')).backupCommand,
  restore: async () => (await import('./restore')).restoreCommand,
  import: async () => (await import('./import')).importCommand,
  sync: async () => (await import('./sync')).syncCommand,
  prompts: async () => (await import('./prompts')).promptsCommand
} satisfies Record<string, () => Promise<CliCommand>>

export type CommandName = keyof typeof commands

/** A command's lines in `cairn --help`: how it is called, then what it does (continued on the next lines). */
type HelpEntry = [call: string, what: string, ...more: string[]]

/**
 * Every command's help, keyed like `commands`: a command added there without a line here does not
 * compile, and `usageText` is made from this table, so the list cannot drift from what runs.
 */
const commandHelp: Record<CommandName, HelpEntry[]> = {
  chat: [['chat ["<prompt>"]', 'run one turn, or without a prompt chat interactively', '(--session ID or --continue to go on, --yes, --json, --wait)']],
  sessions: [['sessions [--json]', 'list conversations (show <id>, export <id>)']],
  serve: [['serve [--port N]', 'browser mode: the UI on 127.0.0.1 (prints the URL to open)']],
  tool: [["tool <name> '<json>'", 'run one tool (memory, skills_list, skill_view, skill_manage, session_search)']],
  skills: [['skills [--json]', 'list skills by category, with usage and load warnings', '(pin|unpin|disable|enable|history|restore|diff <name>: tend one skill)']],
  memory: [['memory [--json]', 'what Cairn remembers, with where each entry came from and pins', '(history, pin|unpin <user|memory> <text>, restore <id>)']],
  search: [['search <query> [--json]', 'find past conversations in plain words']],
  timeline: [['timeline [--json]', 'everything Cairn learned, newest first']],
  revert: [['revert <id>', 'undo one learned change from the timeline']],
  review: [['review [--session ID]', 'learn from a conversation now (--wait to see what it learned)']],
  inbox: [['inbox [--json]', 'changes learning proposes, waiting for you (show|approve|reject|rereview <id>, approve --all)']],
  curate: [['curate [--wait]', 'tidy the library: archive unused skills, propose merges of overlapping ones']],
  doctor: [['doctor [--repair]', 'check the data home (state.db, ledger, locks, temp files, skills); --repair fixes it']],
  mcp: [
    ['mcp list|test|import', "the MCP servers Cairn uses as tools: their state and tools, one server's", 'connection, servers from Claude Desktop or Claude Code'],
    ['mcp serve [--http]', "Cairn's memory and skills as an MCP server for your other agents"]
  ],
  backup: [['backup [--out FILE]', 'one .tar.gz of the data home (database, memory, skills, attachments, settings; no secrets)']],
  restore: [['restore FILE [--yes]', 'put a backup back, after checking it (a home with data is kept aside, never deleted)']],
  import: [
    ...IMPORT_SOURCES.map((source): HelpEntry => [`import ${source.id} ${source.args}`, source.what]),
    ['import list|undo <id>', 'the imports so far; take one whole batch back', '(--dry-run on any import shows what would come; learn [ID] to learn from its conversations)']
  ],
  sync: [['sync [setup URL]', 'keep memory, skills and prompts the same on every device over a git repository', '(status, leave)']],
  prompts: [['prompts [list]', 'the prompt library: saved prompts with {{variables}} (show|add|rm <name>)']]
}

const CALL_WIDTH = 25

function helpLines([call, what, ...more]: HelpEntry): string {
  const first = call.length < CALL_WIDTH ? `  ${call.padEnd(CALL_WIDTH)}${what}` : `  ${call}\n  ${' '.repeat(CALL_WIDTH)}${what}`
  return [first, ...more.map((line) => `  ${' '.repeat(CALL_WIDTH)}${line}`)].join('\n')
}

export const usageText = `Cairn: a desktop assistant that learns from every conversation.

Usage: cairn [--home DIR] <command> [options]

Commands:
${Object.values(commandHelp)
  .flat()
  .map(helpLines)
  .join('\n')}

Data home: --home DIR, else $CAIRN_HOME, else ~/.cairn
Run "cairn <command> --help" for a command's options.
`
