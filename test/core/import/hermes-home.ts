import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative, sep } from 'node:path'
import Database from 'better-sqlite3'
import { CairnCore } from '../../../electron/core/cairn'

const FIXTURE = join(__dirname, '..', '..', 'fixtures', 'hermes-home')

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix))
}

/**
 * Hermes's `state.db` tables as `hermes_state.py` (schema 17) creates them, with the FTS table and
 * triggers, so the importer meets the real shape: times in seconds (REAL), tool calls as OpenAI JSON.
 */
const HERMES_SCHEMA = /* sql */ `
  CREATE TABLE schema_version (version INTEGER NOT NULL);
  INSERT INTO schema_version VALUES (17);
  CREATE TABLE sessions (
    id TEXT PRIMARY KEY, source TEXT NOT NULL, user_id TEXT, session_key TEXT, chat_id TEXT, chat_type TEXT, thread_id TEXT,
    model TEXT, model_config TEXT, system_prompt TEXT, parent_session_id TEXT REFERENCES sessions(id),
    started_at REAL NOT NULL, ended_at REAL, end_reason TEXT,
    message_count INTEGER DEFAULT 0, tool_call_count INTEGER DEFAULT 0, input_tokens INTEGER DEFAULT 0, output_tokens INTEGER DEFAULT 0,
    cache_read_tokens INTEGER DEFAULT 0, cache_write_tokens INTEGER DEFAULT 0, reasoning_tokens INTEGER DEFAULT 0,
    cwd TEXT, git_branch TEXT, git_repo_root TEXT, title TEXT, api_call_count INTEGER DEFAULT 0,
    rewind_count INT NOT NULL DEFAULT 0, archived INT NOT NULL DEFAULT 0
  );
  CREATE TABLE messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL REFERENCES sessions(id), role TEXT NOT NULL, content TEXT,
    tool_call_id TEXT, tool_calls TEXT, tool_name TEXT, timestamp REAL NOT NULL, token_count INTEGER, finish_reason TEXT,
    reasoning TEXT, reasoning_content TEXT, reasoning_details TEXT, platform_message_id TEXT, observed INT DEFAULT 0,
    active INT NOT NULL DEFAULT 1, compacted INT NOT NULL DEFAULT 0
  );
  CREATE TABLE state_meta (key TEXT PRIMARY KEY, value TEXT);
  CREATE VIRTUAL TABLE messages_fts USING fts5(content);
  CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
    INSERT INTO messages_fts (rowid, content) VALUES (new.id, COALESCE(new.content, '') || ' ' || COALESCE(new.tool_name, '') || ' ' || COALESCE(new.tool_calls, ''));
  END;
`

const T0 = 1_767_000_000.25

type Row = [role: string, content: string | null, extra?: { toolCalls?: unknown; toolCallId?: string; toolName?: string; active?: number; compacted?: number }]

/** Three conversations: one with a tool call, one with rewound and compacted rows, and its compressed continuation. */
const CONVERSATIONS: Array<{ id: string; title: string | null; parent?: string; start: number; rows: Row[] }> = [
  {
    id: '20260101_090000_a1b2c3',
    title: 'Fixing the flaky invoice test',
    start: T0,
    rows: [
      ['system', 'You are Hermes, a helpful agent.'],
      ['user', 'The invoice rounding test failed again on CI. Can you look?'],
      ['assistant', null, { toolCalls: [{ id: 'call_1', type: 'function', function: { name: 'terminal', arguments: '{"command":"go test ./services/billing/..."}' } }] }],
      ['tool', 'FAIL invoice_rounding_test.go:41 expected 10.01 got 10.00', { toolCallId: 'call_1', toolName: 'terminal' }],
      ['assistant', 'It depends on the wall clock near midnight UTC; inject a clock instead of time.Now.']
    ]
  },
  {
    id: '20260102_140000_d4e5f6',
    title: 'Planning the Lisbon offsite',
    start: T0 + 86_400,
    rows: [
      ['user', 'Draft an agenda for the platform team offsite in Lisbon.', { active: 0, compacted: 1 }],
      ['assistant', 'A first agenda: morning retrospectives, an afternoon of roadmap work.', { active: 0, compacted: 1 }],
      ['user', 'Forget that, I rewound this message.', { active: 0 }]
    ]
  },
  {
    id: '20260102_150000_f7a8b9',
    title: null,
    parent: '20260102_140000_d4e5f6',
    start: T0 + 90_000,
    rows: [
      ['user', 'Add a pastelaria stop on the second day.'],
      ['assistant', 'Added: a stop at a pastelaria near the venue after lunch on day two.']
    ]
  }
]

export interface HermesDbOptions {
  /** Session columns an older Hermes lacked. */
  dropSessionColumns?: string[]
  /** This many more two-message conversations, for a large import. */
  extraSessions?: number
}

/** The conversations of the fixture: {@link CONVERSATIONS}, then `extra` short ones. */
function conversations(extra: number): typeof CONVERSATIONS {
  const more = Array.from({ length: extra }, (_, i) => ({
    id: `20260201_000000_${String(i).padStart(6, '0')}`,
    title: `Question ${i}`,
    start: T0 + 200_000 + i * 60,
    rows: [['user', `How do I rotate the key of service ${i}?`], ['assistant', `Run scripts/rotate.sh service-${i}.`]] as Row[]
  }))
  return [...CONVERSATIONS, ...more]
}

/** Writes `state.db` into a Hermes home with Hermes's schema and the fixture's conversations. */
export function writeHermesStateDb(home: string, options: HermesDbOptions = {}): void {
  const db = new Database(join(home, 'state.db'))
  try {
    db.exec(HERMES_SCHEMA)
    for (const column of options.dropSessionColumns ?? []) db.exec(`ALTER TABLE sessions DROP COLUMN ${column}`)
    const hasTitle = !options.dropSessionColumns?.includes('title')
    const insertSession = db.prepare(
      `INSERT INTO sessions (id, source, model, parent_session_id, started_at, ended_at${hasTitle ? ', title' : ''})
       VALUES (@id, 'cli', 'hermes-4-405b', @parent, @start, @end${hasTitle ? ', @title' : ''})`
    )
    const insertMessage = db.prepare(
      `INSERT INTO messages (session_id, role, content, tool_calls, tool_call_id, tool_name, timestamp, active, compacted)
       VALUES (@session, @role, @content, @toolCalls, @toolCallId, @toolName, @timestamp, @active, @compacted)`
    )
    const insertConversation = (conversation: (typeof CONVERSATIONS)[number]): void => {
      const { id, title, parent, start, rows } = conversation
      insertSession.run({ id, parent: parent ?? null, start, end: start + rows.length * 30, ...(hasTitle ? { title } : {}) })
      rows.forEach(([role, content, extra = {}], index) => {
        insertMessage.run({
          session: id,
          role,
          content,
          toolCalls: extra.toolCalls ? JSON.stringify(extra.toolCalls) : null,
          toolCallId: extra.toolCallId ?? null,
          toolName: extra.toolName ?? null,
          timestamp: start + index * 30,
          active: extra.active ?? 1,
          compacted: extra.compacted ?? 0
        })
      })
    }
    db.transaction(() => conversations(options.extraSessions ?? 0).forEach(insertConversation))()
  } finally {
    db.close()
  }
}

/** A fresh copy of test/fixtures/hermes-home with its state.db built. */
export function hermesHome(options: HermesDbOptions & { stateDb?: boolean } = {}): string {
  const home = join(tempDir('cairn-hermes-'), '.hermes')
  cpSync(FIXTURE, home, { recursive: true })
  if (options.stateDb !== false) writeHermesStateDb(home, options)
  return home
}

export const CAIRN_MEMORY = ['The build server is called atlas and runs Debian 12.', 'Deploys go out on Tuesdays after the standup.']
export const CAIRN_USER = ["The user's name is Mira; she prefers short answers."]

/** A Cairn data home that already remembers a few things (which the import's duplicates repeat). */
export async function cairnHome(): Promise<string> {
  const home = tempDir('cairn-import-home-')
  const core = await CairnCore.open({ home })
  try {
    for (const entry of CAIRN_MEMORY) await core.memory.add('memory', entry, { write: { source: 'user' } })
    for (const entry of CAIRN_USER) await core.memory.add('user', entry, { write: { source: 'user' } })
  } finally {
    await core.close()
  }
  return home
}

/** Every file under `dir` (relative path → bytes), skipping nothing: to compare a folder byte for byte. */
export function filesOf(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>()
  const walk = (path: string): void => {
    for (const name of readdirSync(path)) {
      const child = join(path, name)
      if (statSync(child).isDirectory()) walk(child)
      else files.set(relative(dir, child).split(sep).join('/'), readFileSync(child))
    }
  }
  if (existsSync(dir)) walk(dir)
  return files
}
