import type { SessionStore } from '../sessions'
import type { AppWorkspaces } from './workspaces'

/** Where a new conversation of the app started: the desktop app, browser mode, or either one's quick prompt. */
export function appChatSource(mode: 'desktop' | 'browser', origin: 'main' | 'quick'): string {
  return `${mode === 'desktop' ? 'desktop' : 'browser'}${origin === 'quick' ? '-quick' : ''}`
}

export interface UnansweredChatDeps {
  sessions: Pick<SessionStore, 'findUnanswered' | 'update'>
  workspaces: Pick<AppWorkspaces, 'use' | 'defaultFolder'>
  mode: 'desktop' | 'browser'
}

/**
 * The same first message sent again from a new chat while a conversation holding only that message
 * and its failure exists: that conversation is the one to answer (the sidebar never lists "hello",
 * "hello", and nothing typed is lost). Only one working in the very folder the new chat would work in
 * (`workspace`, else the default folder) and started from the same place: its tools act where the user
 * now expects. Takes the model chosen for the new chat. Null: start a new one.
 */
export function unansweredToAnswer(deps: UnansweredChatDeps, text: string, origin: 'main' | 'quick', workspace: string | undefined, model: string | undefined): string | null {
  const folder = deps.workspaces.use(workspace ?? deps.workspaces.defaultFolder())
  const found = deps.sessions.findUnanswered(text, { workspace: folder, source: appChatSource(deps.mode, origin) })
  if (found && model) deps.sessions.update(found, { model })
  return found
}
