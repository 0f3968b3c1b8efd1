import type { SessionStore } from '../sessions'

/**
 * The same first message sent again from a new chat while a conversation holding only that message
 * and its failure exists: that conversation is the one to answer (the sidebar never lists "hello",
 * "hello", and nothing typed is lost). Takes the model chosen for the new chat. Null: start a new one.
 */
export function unansweredToAnswer(sessions: Pick<SessionStore, 'findUnanswered' | 'update'>, text: string, workspace: string | undefined, model: string | undefined): string | null {
  const found = sessions.findUnanswered(text, workspace ?? null)
  if (found && model) sessions.update(found, { model })
  return found
}
