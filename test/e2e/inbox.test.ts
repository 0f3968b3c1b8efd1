import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import type { RecordedChatRequest, ScriptedReply } from '../scripted-provider'
import { newTurnState } from '../../electron/core/tools/types'
import { isReviewRequest } from '../helpers/review-fixture'
import { startE2E, type E2E } from './fixture'
import { assistantCount, composer, eventually, fileText, overflowingElements, send } from './helpers'

const SKILL = 'node-project-setup'
const SKILL_BEFORE = `---
name: ${SKILL}
description: Set up a Node.js project checkout so its tests run.
---
# Node project setup
1. Check the Node version with \`node --version\`.
2. Run \`npm install\`.
`
const MEMORY_ENTRY = 'Uses pnpm for Node projects, never npm'

/** The review wants to remember the preference and patch the user's skill; in Ask mode both wait in the Inbox. */
function respond(request: RecordedChatRequest): ScriptedReply {
  if (!isReviewRequest(request)) return { chunks: ['Got it: pnpm from now on.'] }
  const step = assistantCount(request)
  if (step === 0) {
    return {
      toolCalls: [
        { name: 'memory', arguments: { action: 'add', target: 'user', content: MEMORY_ENTRY } },
        { name: 'skill_view', arguments: { name: SKILL } }
      ]
    }
  }
  if (step === 1) return { toolCalls: [{ name: 'skill_manage', arguments: { action: 'patch', name: SKILL, old_string: '2. Run `npm install`.', new_string: '2. Run `pnpm install`.' } }] }
  return { text: 'The user prefers pnpm; proposed remembering it and fixing the setup skill.' }
}

let e2e: E2E
let page: Page
let skillFile: string

beforeAll(async () => {
  e2e = await startE2E({
    server: { respond },
    config: { learning: { mode: 'ask' } },
    seed: async (core) => {
      const manage = core.learningTools().find((tool) => tool.name === 'skill_manage')!
      const result = (await manage.run({ action: 'create', name: SKILL, category: 'dev', content: SKILL_BEFORE }, { write: { source: 'user', sessionId: null }, turn: newTurnState() })) as { success: boolean }
      expect(result.success).toBe(true)
    }
  })
  skillFile = join(e2e.home, 'skills', 'dev', SKILL, 'SKILL.md')
  page = e2e.page
  await page.goto(e2e.url)
  await composer(page).waitFor()
})

afterAll(async () => {
  await e2e?.close()
})

describe('the Inbox in the browser', () => {
  it('a review in Ask mode changes nothing and says so: a toast and a count on the sidebar', async () => {
    await send(page, "No, that's wrong: I always use pnpm, never npm.")
    await page.getByText('Got it: pnpm from now on.').waitFor()
    const toast = page.getByRole('status').filter({ hasText: 'waiting for you' })
    await toast.waitFor({ timeout: 30_000 })
    expect(await toast.innerText()).toContain('Cairn has 2 suggestions waiting for you')
    const inbox = page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Inbox, 2 waiting' })
    await inbox.waitFor()
    // Nothing applied yet.
    expect(fileText(join(e2e.home, 'memories', 'USER.md')) ?? '').not.toContain(MEMORY_ENTRY)
    expect(fileText(skillFile)).toBe(SKILL_BEFORE)
    await toast.getByRole('button', { name: 'Review' }).click()
    await page.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor()
  })

  it('fits a 640 px window in light and dark: nothing cut off, the keyboard on the first proposal', async () => {
    const problems: string[] = []
    for (const scheme of ['light', 'dark'] as const) {
      const target = await e2e.newPage({ viewport: { width: 640, height: 820 }, colorScheme: scheme })
      await target.goto(e2e.url)
      await target.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: /^Inbox/ }).click()
      await target.getByRole('article', { name: 'Remember in About you' }).waitFor()
      expect(await target.locator(':focus').getAttribute('aria-label')).toBe('Remember in About you')
      await e2e.screenshot(`inbox-${scheme}-640`, target)
      for (const problem of await overflowingElements(target)) problems.push(`${scheme}: ${problem}`)
      await target.context().close()
    }
    expect(problems).toEqual([])
  })

  it('approving a proposal applies it; rejecting one leaves the file alone', async () => {
    const remember = page.getByRole('article', { name: 'Remember in About you' })
    await remember.waitFor()
    expect(await remember.innerText()).toContain(MEMORY_ENTRY)
    const patch = page.getByRole('article', { name: `Patch the skill “${SKILL}”` })
    expect(await patch.locator('tr[data-type="add"]').allInnerTexts()).toEqual([expect.stringContaining('2. Run `pnpm install`.')])
    await e2e.screenshot('inbox-two-proposals')

    await remember.getByRole('button', { name: 'Approve' }).click()
    await remember.waitFor({ state: 'detached' })
    await eventually(() => fileText(join(e2e.home, 'memories', 'USER.md')), (text) => text === MEMORY_ENTRY, 'USER.md to hold the approved entry')

    await patch.getByRole('button', { name: 'Reject' }).click()
    await patch.waitFor({ state: 'detached' })
    await page.getByText('Nothing waiting for you').waitFor()
    expect(fileText(skillFile)).toBe(SKILL_BEFORE)
    // The badge is gone with the last proposal.
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Inbox', exact: true }).waitFor()

    // The approved change is in the Timeline, like any other.
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Timeline' }).click()
    const added = page.getByRole('article', { name: 'Memory added' })
    await added.waitFor()
    expect(await added.innerText()).toContain(MEMORY_ENTRY)
    expect(e2e.pageErrors).toEqual([])
  })
})
