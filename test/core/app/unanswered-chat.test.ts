import { mkdtempSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { recordTurnFailure, storedTurnFailure } from '../../../electron/core/sessions/turn-failure'
import { appFixture, type AppFixture } from '../../helpers/app-fixture'

let fx: AppFixture

afterEach(async () => {
  await fx.close()
})

it('the same first message sent again from a new chat answers the unanswered conversation instead of adding another', async () => {
  fx = await appFixture()
  fx.server.enqueue({ fault: { type: 'http', status: 401 } }, { text: 'Hello at last.' })
  const first = await fx.ok('chat.send', { sessionId: null, text: 'hello' })
  await fx.waitFor('chat.status', (s) => s.sessionId === first.sessionId && !s.running)

  // Kept with its failure: listed (marked by failedTurn with one message) and shown again when opened.
  const { sessions } = await fx.ok('sessions.list', {})
  expect(sessions).toMatchObject([{ id: first.sessionId, messageCount: 1, failedTurn: { code: 'auth' } }])
  const opened = await fx.ok('sessions.get', { sessionId: first.sessionId })
  expect(opened.session.failedTurn).toMatchObject({ code: 'auth', messageId: opened.messages[0].id, retryable: false })

  const again = await fx.ok('chat.send', { sessionId: null, text: 'hello' })
  expect(again.sessionId).toBe(first.sessionId)
  await fx.waitFor('chat.event', (e) => e.type === 'turn_finished' && e.reason === 'completed')
  await fx.waitFor('chat.status', (s) => s.sessionId === first.sessionId && !s.running)
  const after = await fx.ok('sessions.list', {})
  expect(after.sessions).toHaveLength(1)
  expect(after.sessions[0].failedTurn).toBeUndefined()
  const answered = await fx.ok('sessions.get', { sessionId: first.sessionId })
  expect(answered.messages.map((m) => [m.role, m.content])).toEqual([
    ['user', 'hello'],
    ['assistant', 'Hello at last.']
  ])
  // A different first message is a conversation of its own.
  fx.server.enqueue({ text: 'Sure.' })
  const other = await fx.ok('chat.send', { sessionId: null, text: 'hello again' })
  expect(other.sessionId).not.toBe(first.sessionId)
  await fx.waitFor('chat.status', (s) => s.sessionId === other.sessionId && !s.running)
})


/** Waits until the conversation's latest turn has ended (a turn started since the last wait). */
const idleSeen = new Map<string, number>()
async function idle(sessionId: string): Promise<void> {
  const want = (idleSeen.get(sessionId) ?? 0) + 1
  const ended = () => fx.events.filter((e) => e.name === 'chat.status' && (e.payload as { sessionId: string; running: boolean }).sessionId === sessionId && !(e.payload as { running: boolean }).running).length
  await fx.waitFor('chat.status', (s) => s.sessionId === sessionId && !s.running && ended() >= want)
  idleSeen.set(sessionId, want)
}

it('is answered only in the folder a new chat would work in: a failed "hello" in one project is not taken up from another or the default folder', async () => {
  fx = await appFixture()
  const project = mkdtempSync(join(fx.userHome, 'project-x-'))
  fx.server.enqueue({ fault: { type: 'http', status: 401 } }, { text: 'Hello from the default folder.' }, { text: 'Hello in project X.' })
  const failed = await fx.ok('chat.send', { sessionId: null, text: 'hello', workspace: project })
  await idle(failed.sessionId)

  // No folder chosen: the new chat works in the default folder, so X's conversation is not the one.
  const elsewhere = await fx.ok('chat.send', { sessionId: null, text: 'hello' })
  expect(elsewhere.sessionId).not.toBe(failed.sessionId)
  await idle(elsewhere.sessionId)
  expect(fx.core.sessions.get(elsewhere.sessionId)!.workspace).toBe(fx.app.workspaces.defaultFolder())
  expect(fx.core.sessions.get(failed.sessionId)!.messageCount).toBe(1)

  // From X again: that conversation is answered.
  const same = await fx.ok('chat.send', { sessionId: null, text: 'hello', workspace: project })
  expect(same.sessionId).toBe(failed.sessionId)
  await idle(failed.sessionId)
  expect(fx.core.sessions.get(failed.sessionId)!.messageCount).toBe(2)
})

it('never takes up a conversation started elsewhere (another source, an import) in the same folder', async () => {
  fx = await appFixture()
  const folder = fx.app.workspaces.use(fx.app.workspaces.defaultFolder())
  const imported = fx.core.sessions.create({ source: 'chatgpt', model: null, workspace: folder })
  const asked = fx.core.sessions.append(imported.id, { role: 'user', content: 'hello' })
  recordTurnFailure(fx.core.sessions, imported.id, { messageId: asked.id, code: 'auth', message: 'refused', retryable: false, at: Date.now() })
  expect(fx.core.sessions.findUnanswered('hello', { workspace: folder, source: 'chatgpt' })).toBe(imported.id)
  fx.server.enqueue({ text: 'Hi.' })
  const sent = await fx.ok('chat.send', { sessionId: null, text: 'hello' })
  expect(sent.sessionId).not.toBe(imported.id)
  await idle(sent.sessionId)
})

it('goes on with the model now chosen in Settings when Retry follows a model that was not found', async () => {
  fx = await appFixture({ server: { models: ['scripted', 'good'] }, config: { provider: { model: 'missing' } } })
  fx.server.enqueue({ text: 'Answered on the good model.' }, { text: 'Again on it.' })
  const failed = await fx.ok('chat.send', { sessionId: null, text: 'hello' })
  await idle(failed.sessionId)
  expect(storedTurnFailure(fx.core.sessions.get(failed.sessionId)!)).toMatchObject({ code: 'model_not_found' })

  await fx.core.config.update({ provider: { model: 'good' } })
  await fx.ok('chat.regenerate', { sessionId: failed.sessionId })
  await idle(failed.sessionId)
  const requests = fx.server.chatRequests()
  expect(requests.at(-1)!.body.model).toBe('good')
  expect(fx.core.sessions.messages(failed.sessionId).map((m) => m.content)).toEqual(['hello', 'Answered on the good model.'])
})

it('a model picked in the switcher after the failure is the one the Retry uses', async () => {
  fx = await appFixture({ server: { models: ['scripted', 'good', 'picked'] }, config: { provider: { model: 'missing' } } })
  fx.server.enqueue({ text: 'On the picked model.' })
  const failed = await fx.ok('chat.send', { sessionId: null, text: 'hello' })
  await idle(failed.sessionId)
  await fx.core.config.update({ provider: { model: 'good' } })
  await fx.ok('sessions.setModel', { sessionId: failed.sessionId, model: 'picked' })
  await fx.ok('chat.regenerate', { sessionId: failed.sessionId })
  await idle(failed.sessionId)
  expect(fx.server.chatRequests().at(-1)!.body.model).toBe('picked')
})

it('a first turn that failed on the default model follows the default from then on; a model picked for it is kept', async () => {
  fx = await appFixture({ server: { models: ['scripted', 'picked', 'newer'] } })
  fx.server.enqueue({ fault: { type: 'http', status: 401 } }, { fault: { type: 'http', status: 401 } }, { text: 'On the newer default.' })
  const onDefault = await fx.ok('chat.send', { sessionId: null, text: 'hello' })
  await idle(onDefault.sessionId)
  const onPicked = await fx.ok('chat.send', { sessionId: null, text: 'hi there', model: 'picked' })
  await idle(onPicked.sessionId)
  expect(fx.core.sessions.get(onDefault.sessionId)!.model).toBeNull()
  expect(fx.core.sessions.get(onPicked.sessionId)!.model).toBe('picked')

  await fx.core.config.update({ provider: { model: 'newer' } })
  await fx.ok('chat.regenerate', { sessionId: onDefault.sessionId })
  await idle(onDefault.sessionId)
  expect(fx.server.chatRequests().at(-1)!.body.model).toBe('newer')
})
