import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { openStateDb } from '../../electron/core/db/state-db'
import type { RecordedChatRequest, ScriptedReply } from '../scripted-provider'
import { isReviewRequest } from '../helpers/review-fixture'
import { startE2E, type E2E } from './fixture'
import { answers, composer, overflowingElements, send } from './helpers'

const SMALLEST = { width: 640, height: 720 }
const NOTICE = 'Incognito: this chat is not saved and Cairn will not learn from it.'

function respond(request: RecordedChatRequest): ScriptedReply {
  if (isReviewRequest(request)) return { text: 'Nothing to save.' }
  return { text: 'Order a chocolate cake and send the invitations on Friday.' }
}

let e2e: E2E

beforeAll(async () => {
  e2e = await startE2E({
    server: { respond },
    seed: async (core) => {
      await core.memory.add('user', 'Sam is allergic to nuts (zebrafinch)', { write: { source: 'user' } })
    }
  })
})

afterAll(async () => {
  await e2e?.close()
})

/** Ctrl+Shift+N from the message box, a question, its answer: an incognito chat as a user starts one. */
async function incognitoChat(page: Page): Promise<void> {
  await page.goto(e2e.url)
  await composer(page).waitFor()
  await composer(page).press('Control+Shift+N')
  await page.getByText(NOTICE).waitFor()
  await send(page, 'Plan a surprise party for Sam')
  await answers(page).filter({ hasText: 'chocolate cake' }).waitFor()
}

function storedConversations(): number {
  const db = openStateDb(join(e2e.home, 'state.db'), { readonly: true })
  try {
    return (db.prepare('SELECT count(*) AS n FROM sessions').get() as { n: number }).n + (db.prepare('SELECT count(*) AS n FROM messages').get() as { n: number }).n
  } finally {
    db.close()
  }
}

describe('an incognito chat in browser mode', () => {
  it('starts from the keyboard, says so in both themes at 640 px, is never listed or stored, and closes after a confirm', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const page = await e2e.newPage({ viewport: SMALLEST, colorScheme })
      await incognitoChat(page)
      expect(await overflowingElements(page), colorScheme).toEqual([])
      expect(await page.locator('.session-row').count()).toBe(0)
      await e2e.screenshot(`incognito-${colorScheme}-640`, page)

      // Closing asks (it cannot come back), then a plain new chat is open.
      page.once('dialog', (dialog) => void dialog.accept())
      await page.getByRole('button', { name: 'Close incognito chat' }).click()
      await page.getByText(NOTICE).waitFor({ state: 'detached' })
      await page.close()
    }
    const chats = e2e.server.chatRequests().filter((request) => !isReviewRequest(request))
    expect(chats).toHaveLength(2)
    for (const request of chats) expect(String(request.body.messages[0].content)).not.toContain('zebrafinch')
    expect(storedConversations()).toBe(0)
    expect(e2e.pageErrors).toEqual([])
  })
})
