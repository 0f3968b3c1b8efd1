import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { SyncHome } from './sync-home'
import { writeFileAtomicText } from '../fs/atomic'
import { ellipsize } from '../text/cut'

/** The newest conversations a device lists for the others. */
const MAX_LISTED = 500
const SUMMARY_CHARS = 600
const OPENING_CHARS = 300

/** `sessions/<device>.md`: each device writes only its own file, so these never conflict. */
export function sessionSummaryPath(device: string): string {
  const slug = device.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'device'
  return `sessions/${slug}.md`
}

/**
 * With `sync.sessionSummaries` on, the list of this device's own conversations (title, date, size and
 * what it was about: its latest condensed summary, else how it opened) for the other devices to read.
 * The conversations themselves stay here; imported ones are left out. Written only when it changed,
 * so an idle device makes no commits. Resolves with the path relative to the home.
 */
export async function writeSessionSummaries(core: SyncHome, device: string): Promise<string> {
  const path = sessionSummaryPath(device)
  const sections = [`# Conversations on ${device}\n\nListed by Cairn's sync (sync.sessionSummaries), newest first. The conversations stay on ${device}.\n`]
  const latestSummary = core.db.prepare("SELECT content FROM messages WHERE session_id = ? AND role = 'summary' AND branch_id IS NULL ORDER BY id DESC LIMIT 1")
  const firstQuestion = core.db.prepare("SELECT content FROM messages WHERE session_id = ? AND role = 'user' AND branch_id IS NULL ORDER BY id LIMIT 1")
  for (const session of core.sessions.list({ limit: MAX_LISTED })) {
    if (session.source.startsWith('import') || session.source === 'review') continue
    const summary = (latestSummary.get(session.id) as { content: string | null } | undefined)?.content
    const opening = (firstQuestion.get(session.id) as { content: string | null } | undefined)?.content
    const about = summary ? ellipsize(oneLine(summary), SUMMARY_CHARS) : opening ? ellipsize(oneLine(opening), OPENING_CHARS) : ''
    const day = new Date(session.startedAt).toISOString().slice(0, 10)
    sections.push(`## ${oneLine(session.title ?? 'Untitled')}\n\n${day} · ${session.messageCount} messages${about ? `\n\n${about}` : ''}\n`)
  }
  const text = sections.join('\n')
  const absolute = join(core.paths.root, path)
  if (!existsSync(absolute) || readFileSync(absolute, 'utf8') !== text) await writeFileAtomicText(absolute, text)
  return path
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}
