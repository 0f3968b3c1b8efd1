import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative, sep } from 'node:path'
import Database from 'better-sqlite3'
import { CairnCore } from '../../../electron/core/cairn'

/** Every file a backup must carry over, as the test writes it, relative to the home. */
export const BACKED_UP = [
  'config.json',
  'memories/MEMORY.md',
  'memories/USER.md',
  'skills/devops/deploy-checklist/SKILL.md',
  'skills/devops/deploy-checklist/references/hosts.txt',
  'skills/.archive/old-habit/SKILL.md',
  'attachments/s1/diagram.png',
  'prompts/standup.md'
]

/** Files a backup must leave out: secrets, locks, staging, caches, logs, the REPL's history. */
export const LEFT_OUT = ['secrets.json', 'cli-history', 'tmp/review-1/MEMORY.md', 'cache/models.json', 'logs/mcp/github.log']

export const SECRET_VALUE = 'ghp_thisMustNeverLeaveTheMachine'

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix))
}

function skill(name: string, description: string): string {
  return `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n\n1. Check the hosts.\n`
}

/** A data home with conversations, memory, skills (one archived), an attachment, settings with an MCP secret reference, and local-only files. */
export async function seedBackupHome(home: string, sessions = 5): Promise<void> {
  const core = await CairnCore.open({ home })
  try {
    for (let i = 0; i < sessions; i++) {
      const session = core.sessions.create({ title: `deploy question ${i}` })
      core.sessions.appendMany(session.id, [
        { role: 'user', content: `How do I deploy service ${i} to the staging cluster?` },
        { role: 'assistant', content: `Run the checklist for service ${i}, then tag the release.` }
      ])
    }
    await core.memory.add('memory', 'The build server is called atlas.', { write: { source: 'user' } })
    await core.memory.add('user', 'Prefers short answers with commands first.', { write: { source: 'user' } })
  } finally {
    await core.close()
  }
  const write = (rel: string, content: string | Buffer) => {
    mkdirSync(join(home, rel, '..'), { recursive: true })
    writeFileSync(join(home, rel), content)
  }
  write('config.json', JSON.stringify({ mcpServers: { github: { command: 'gh-mcp', env: { GITHUB_TOKEN: '${secret:github}' } } } }, null, 2))
  write('skills/devops/deploy-checklist/SKILL.md', skill('deploy-checklist', 'Steps before every deploy to staging.'))
  write('skills/devops/deploy-checklist/references/hosts.txt', 'atlas\nborealis\n')
  write('skills/.archive/old-habit/SKILL.md', skill('old-habit', 'An archived skill nobody used.'))
  write('prompts/standup.md', '---\nname: standup\ndescription: Daily notes\n---\nWhat did {{team}} ship yesterday?\n')
  write('attachments/s1/diagram.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3, 255, 254]))
  write('secrets.json', JSON.stringify({ github: SECRET_VALUE }))
  write('cli-history', 'how do I deploy\n')
  write('tmp/review-1/MEMORY.md', 'staging copy of a review\n')
  write('cache/models.json', '[]')
  write('logs/mcp/github.log', `token ${SECRET_VALUE}\n`)
}

/** Every regular file under `root` (relative, `/`-separated) mapped to its bytes. */
export function filesOf(root: string, skip: (rel: string) => boolean = () => false): Map<string, Buffer> {
  const found = new Map<string, Buffer>()
  const visit = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name)
      const rel = relative(root, path).split(sep).join('/')
      if (skip(rel)) continue
      if (lstatSync(path).isDirectory()) visit(path)
      else found.set(rel, readFileSync(path))
    }
  }
  visit(root)
  return found
}

/** Every row of every table (FTS shadow tables included), in rowid order: two databases with the same data compare equal. */
export function tableRows(dbPath: string): Record<string, unknown[]> {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true })
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL TABLE%' ORDER BY name").pluck().all() as string[]
    const rows: Record<string, unknown[]> = {}
    for (const table of tables) rows[table] = db.prepare(`SELECT * FROM "${table}"`).raw().all()
    return rows
  } finally {
    db.close()
  }
}
