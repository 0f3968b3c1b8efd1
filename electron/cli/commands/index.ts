import type { CliCommand } from './types'

/**
 * Each command's code, loaded when that command runs: `cairn --help` and a typo answer without
 * loading the core, the MCP SDK, isomorphic-git or the markdown renderer (the bundle is split by
 * command, scripts/build-cli.mjs).
 */
export const commands: Record<string, () => Promise<CliCommand>> = {
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
}

export const usageText = `Cairn: a desktop assistant that learns from every conversation.

Usage: cairn [--home DIR] <command> [options]

Commands:
  chat ["<prompt>"]        run one turn, or without a prompt chat interactively
                           (--session ID or --continue to go on, --yes, --json, --wait)
  sessions [--json]        list conversations
  serve [--port N]         browser mode: the UI on 127.0.0.1 (prints the URL to open)
  tool <name> '<json>'     run one tool (memory, skills_list, skill_view, skill_manage, session_search)
  skills [--json]          list skills by category, with usage and load warnings
                           (pin|unpin|disable|enable|history|restore|diff <name>: tend one skill)
  memory [--json]          what Cairn remembers, with where each entry came from and pins
                           (history, pin|unpin <user|memory> <text>, restore <id>)
  search <query> [--json]  find past conversations in plain words
  timeline [--json]        everything Cairn learned, newest first
  revert <id>              undo one learned change from the timeline
  review [--session ID]    learn from a conversation now (--wait to see what it learned)
  inbox [--json]           changes learning proposes, waiting for you (show|approve|reject|rereview <id>, approve --all)
  curate [--wait]          tidy the library: archive unused skills, propose merges of overlapping ones
  doctor [--repair]        check the data home (state.db, ledger, locks, temp files, skills); --repair fixes it
  mcp list|test|import     the MCP servers Cairn uses as tools: their state and tools, one server's
                           connection, servers from Claude Desktop or Claude Code
  mcp serve [--http]       Cairn's memory and skills as an MCP server for your other agents
  backup [--out FILE]      one .tar.gz of the data home (database, memory, skills, attachments, settings; no secrets)
  restore FILE [--yes]     put a backup back, after checking it (a home with data is kept aside, never deleted)
  import hermes [PATH]     bring a Hermes home in (memory, skills, conversations) as one batch
                           (--dry-run to see what would come; list, undo <id> to take a batch back)
  sync [setup URL]         keep memory and skills the same on every device over a git repository
                           (status, leave)
  prompts [list]           the prompt library: saved prompts with {{variables}} (show|add|rm <name>)

Data home: --home DIR, else $CAIRN_HOME, else ~/.cairn
Run "cairn <command> --help" for a command's options.
`
