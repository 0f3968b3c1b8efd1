/**
 * What `cairn import` brings in from, and how each is given: apart from import.ts (which loads the
 * core) so `cairn --help` lists them without loading anything.
 */
export const IMPORT_SOURCES = [
  { id: 'hermes', args: '[PATH]', what: 'a Hermes home (memory, skills, conversations)' },
  { id: 'openclaw', args: '[PATH]', what: 'an OpenClaw workspace (memory, daily notes, skills)' },
  { id: 'claude-code', args: '[PATH]', what: "Claude Code's ~/.claude (memories wait in the Inbox, skills)" },
  { id: 'chatgpt', args: 'PATH', what: "ChatGPT's data export (.zip, folder or conversations.json)" },
  { id: 'claude', args: 'PATH', what: "Claude.ai's data export (.zip, folder or conversations.json)" }
] as const

export type ImportSourceName = (typeof IMPORT_SOURCES)[number]['id']

export const IMPORT_SOURCE_NAMES: readonly ImportSourceName[] = IMPORT_SOURCES.map((source) => source.id)
