import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import type { RecordedChatRequest, ScriptedReply } from '../scripted-provider'
import { newTurnState } from '../../electron/core/tools/types'
import { isReviewRequest, reviewUserText } from '../helpers/review-fixture'
import { NARROW, WIDE, startE2E, type E2E } from './fixture'
import type { PageDom } from './page-dom'
import { assistantCount, composer, eventually, fileText, lastUserText, overflowingElements, paintedEmoji, send } from './helpers'

const SKILL = 'node-project-setup'
const SKILL_BEFORE = `---
name: ${SKILL}
description: Set up a Node.js project checkout so its tests run.
---
# Node project setup
1. Check the Node version with \`node --version\`.
2. Run \`npm install\`.
3. Run the tests with \`npm test\`.
`
const OLD_STEPS = '2. Run `npm install`.\n3. Run the tests with `npm test`.'
const NEW_STEPS = '2. Run `pnpm install` (the user uses pnpm, never npm).\n3. Run the tests with `pnpm test`.'
const MEMORY_ENTRY = 'Uses pnpm for Node projects, never npm'
const CORRECTION = "No, that's wrong: I always use pnpm, never npm."

// A skill the user wrote themselves: a review may only propose changing it.
const USER_SKILL = 'git-push-routine'
const USER_SKILL_BEFORE = `---
name: ${USER_SKILL}
description: Push a finished branch.
---
# Git push routine
1. Run the tests.
2. Push with \`git push --force\`.
`
const USER_SKILL_OLD = '2. Push with `git push --force`.'
const USER_SKILL_NEW = '2. Push with `git push --force-with-lease`.'
const PUSH_CORRECTION = 'I said to never use a plain --force push, use --force-with-lease.'
const PUSH_ANSWER = 'Understood: --force-with-lease it is.'

/**
 * The background review, step by step: save the preference and read the skill, then patch the
 * skill, then report. The chat model just acknowledges. The push conversation's review wants to
 * patch the user's own skill instead.
 */
function respond(request: RecordedChatRequest): ScriptedReply {
  if (!isReviewRequest(request)) {
    if (lastUserText(request) === PUSH_CORRECTION) return { chunks: [PUSH_ANSWER] }
    return { chunks: ['Got it: ', 'pnpm from now on.'], chunkDelayMs: 100 }
  }
  const step = assistantCount(request)
  if (reviewUserText(request).includes(PUSH_CORRECTION)) {
    if (step === 0) return { toolCalls: [{ name: 'skill_view', arguments: { name: USER_SKILL } }] }
    if (step === 1) return { toolCalls: [{ name: 'skill_manage', arguments: { action: 'patch', name: USER_SKILL, old_string: USER_SKILL_OLD, new_string: USER_SKILL_NEW } }] }
    return { text: `Proposed fixing the push step of ${USER_SKILL}.` }
  }
  if (step === 0) {
    return {
      delayMs: 1_000,
      toolCalls: [
        { name: 'memory', arguments: { action: 'add', target: 'user', content: MEMORY_ENTRY } },
        { name: 'skill_view', arguments: { name: SKILL } }
      ]
    }
  }
  if (step === 1) return { toolCalls: [{ name: 'skill_manage', arguments: { action: 'patch', name: SKILL, old_string: OLD_STEPS, new_string: NEW_STEPS } }] }
  return { text: `Saved the pnpm preference and updated ${SKILL}.` }
}

let e2e: E2E
let page: Page
let skillFile: string
let userSkillFile: string

beforeAll(async () => {
  e2e = await startE2E({
    server: { respond },
    // Skills from before these conversations: one Cairn wrote in an earlier chat (a review may tend
    // it freely), one the user wrote (a review only proposes changes to it).
    seed: async (core) => {
      const manage = core.learningTools().find((tool) => tool.name === 'skill_manage')!
      for (const [name, content, source] of [[SKILL, SKILL_BEFORE, 'agent'], [USER_SKILL, USER_SKILL_BEFORE, 'user']] as const) {
        const result = (await manage.run({ action: 'create', name, category: 'dev', content }, { write: { source, sessionId: null }, turn: newTurnState() })) as { success: boolean }
        expect(result.success).toBe(true)
      }
    }
  })
  skillFile = join(e2e.home, 'skills', 'dev', SKILL, 'SKILL.md')
  userSkillFile = join(e2e.home, 'skills', 'dev', USER_SKILL, 'SKILL.md')
  expect(fileText(skillFile)).toBe(SKILL_BEFORE)
  expect(fileText(userSkillFile)).toBe(USER_SKILL_BEFORE)
  page = e2e.page
  await page.goto(e2e.url)
  await composer(page).waitFor()
})

afterAll(async () => {
  await e2e?.close()
})

describe('learning from a conversation', () => {
  it('runs a review after a correction and shows what it learned: toast, memory, timeline and the chat chip', async () => {
    await send(page, CORRECTION)
    await page.getByText('Got it: pnpm from now on.').waitFor()
    // The user moves on to Memory while the review runs in its worker process.
    await openSection(page, 'Memory', 'Memory')
    const summary = `User profile updated · Skill "${SKILL}" updated`

    const toast = page.getByRole('status').filter({ hasText: 'Learned:' })
    await toast.waitFor({ timeout: 30_000 })
    expect(await toast.innerText()).toContain(summary)
    // No emoji glyph is painted (without an emoji font it is an empty box).
    expect(await paintedEmoji(toast)).toEqual([])
    // The memory screen shows the new entry without a reload.
    await page.getByRole('region', { name: 'About you' }).getByText(MEMORY_ENTRY).waitFor()
    await e2e.screenshot('memory-learned-toast')
    expect(fileText(join(e2e.home, 'memories', 'USER.md'))).toBe(MEMORY_ENTRY)
    expect(fileText(skillFile)).toContain(NEW_STEPS)

    await toast.getByRole('button', { name: 'View' }).click()
    const review = page.getByRole('region', { name: 'Background review' })
    await review.waitFor()
    expect(await toast.count()).toBe(0)
    const head = await review.locator('header').innerText()
    expect(head).toContain(summary)
    expect(head).toContain('2 changes')
    expect(head).toContain('the user corrected the assistant')
    expect(await paintedEmoji(review.locator('header'))).toEqual([])
    const memory = review.getByRole('article', { name: 'Memory added' })
    expect(await memory.innerText()).toContain(MEMORY_ENTRY)
    const patch = review.getByRole('article', { name: 'Skill edited' })
    expect(await patch.innerText()).toMatch(new RegExp(`${SKILL} · SKILL\\.md[\\s\\S]*Review`))
    // The skill Cairn wrote in an earlier chat is outside the review, by "Chat".
    const created = page.getByRole('article', { name: 'Skill created' }).filter({ hasText: SKILL })
    expect(await created.innerText()).toContain('Chat')
    expect(await review.getByRole('article', { name: 'Skill created' }).count()).toBe(0)
    await e2e.screenshot('timeline')

    // Back in the conversation, a chip says what was learned (and the toast does not repeat it).
    await page.getByRole('navigation', { name: 'Conversations' }).getByRole('button', { name: /No, that's wrong/ }).click()
    const chip = page.getByRole('button', { name: /^Learned:/ })
    await chip.waitFor()
    expect(await chip.innerText()).toContain(summary)
    expect(await paintedEmoji(chip)).toEqual([])
    expect(await toast.count()).toBe(0)
    await e2e.screenshot('chat-learned')
    await chip.click()
    await review.waitFor()
  })

  it('opens the skill patch in the diff viewer, unified and side by side', async () => {
    const patch = page.getByRole('region', { name: 'Background review' }).getByRole('article', { name: 'Skill edited' })
    const viewChanges = patch.getByRole('button', { name: /View changes/ })
    expect(await viewChanges.innerText()).toMatch(/\+2\s*−2/)
    await viewChanges.click()

    await page.getByRole('heading', { level: 2, name: SKILL }).waitFor()
    expect(await page.getByRole('tab', { selected: true }).innerText()).toMatch(/History/)
    const table = page.getByRole('table')
    await table.waitFor()
    expect(await table.getAttribute('data-mode')).toBe('unified')
    // Line numbers count the front matter: the steps are lines 7 and 8 of SKILL.md.
    expect(await table.locator('tr[data-type="del"]').allInnerTexts()).toEqual([
      expect.stringMatching(/^\s*7\s+−\s+2\. Run `npm install`\.$/),
      expect.stringMatching(/^\s*8\s+−\s+3\. Run the tests with `npm test`\.$/)
    ])
    expect(await table.locator('tr[data-type="add"]').allInnerTexts()).toEqual([
      expect.stringMatching(/^\s*7\s+\+\s+2\. Run `pnpm install` \(the user uses pnpm, never npm\)\.$/),
      expect.stringMatching(/^\s*8\s+\+\s+3\. Run the tests with `pnpm test`\.$/)
    ])
    expect(await table.locator('tr[data-type="context"]').allInnerTexts()).toContainEqual(expect.stringMatching(/^\s*6\s+6\s+1\. Check the Node version/))
    await e2e.screenshot('skill-diff-unified')

    await page.getByRole('button', { name: 'Side by side' }).click()
    await page.locator('table[data-mode="split"]').waitFor()
    const rows = table.locator('tr.split-row')
    const changed = rows.filter({ has: page.locator('td[data-type="del"]') })
    expect(await changed.count()).toBe(2)
    // Each changed line: the old text on the left, the new text on the right, on the same row.
    const first = changed.first().locator('td.code')
    expect(await first.nth(0).getAttribute('data-type')).toBe('del')
    expect(await first.nth(0).innerText()).toBe('2. Run `npm install`.')
    expect(await first.nth(1).getAttribute('data-type')).toBe('add')
    expect(await first.nth(1).innerText()).toBe('2. Run `pnpm install` (the user uses pnpm, never npm).')
    await e2e.screenshot('skill-diff-split')
  })

  it('reverts the patch after confirmation: SKILL.md is back and the timeline shows the undo', async () => {
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Timeline' }).click()
    const patch = page.getByRole('region', { name: 'Background review' }).getByRole('article', { name: 'Skill edited' })
    await patch.getByRole('button', { name: 'Revert' }).click()
    const dialog = page.getByRole('dialog', { name: 'Revert this change?' })
    await dialog.waitFor()
    expect(await dialog.innerText()).toContain(`“Skill edited” on ${SKILL} · SKILL.md`)
    await e2e.screenshot('timeline-revert-confirm')
    // Cancel first: nothing changes.
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await dialog.waitFor({ state: 'detached' })
    expect(fileText(skillFile)).toContain(NEW_STEPS)

    await patch.getByRole('button', { name: 'Revert' }).click()
    await dialog.getByRole('button', { name: 'Revert' }).click()
    await page.getByRole('status').filter({ hasText: 'Change reverted.' }).waitFor()
    await eventually(() => fileText(skillFile), (text) => text === SKILL_BEFORE, 'SKILL.md to be restored')

    const undo = page.getByRole('article', { name: 'Undo of “Skill edited”' })
    await undo.waitFor()
    expect(await undo.innerText()).toContain(`${SKILL} · SKILL.md`)
    await patch.getByText('Reverted', { exact: true }).waitFor()
    expect(await patch.getByRole('button', { name: 'Revert' }).count()).toBe(0)
    await e2e.screenshot('timeline-reverted')
  })

  it('leaves a skill the user wrote alone: the review\'s patch waits in the Inbox instead', async () => {
    await page.getByRole('button', { name: 'New chat' }).click()
    await send(page, PUSH_CORRECTION)
    await page.getByText(PUSH_ANSWER).waitFor()
    const toast = page.getByRole('status').filter({ hasText: 'waiting for you' })
    await toast.waitFor({ timeout: 30_000 })
    expect(await toast.innerText()).toContain('Cairn has 1 suggestion waiting for you')
    expect(fileText(userSkillFile)).toBe(USER_SKILL_BEFORE)

    await toast.getByRole('button', { name: 'Review' }).click()
    await page.getByRole('heading', { level: 1, name: 'Inbox' }).waitFor()
    const proposal = page.getByRole('article', { name: `Patch the skill “${USER_SKILL}”` })
    await proposal.waitFor()
    expect(await proposal.innerText()).toContain('You wrote this skill, so Cairn asks.')
    expect(await proposal.locator('tr[data-type="add"] .code').allInnerTexts()).toEqual([USER_SKILL_NEW])
    expect(await proposal.locator('tr[data-type="del"] .code').allInnerTexts()).toEqual([USER_SKILL_OLD])
    await e2e.screenshot('inbox-user-skill-proposal')
    // Still untouched on disk, and nothing of it in the timeline as a change made.
    expect(fileText(userSkillFile)).toBe(USER_SKILL_BEFORE)
    await openSection(page, 'Timeline', 'Learning timeline')
    await page.getByRole('article', { name: 'Skill created' }).filter({ hasText: USER_SKILL }).waitFor()
    expect(await page.getByRole('article', { name: 'Skill edited' }).filter({ hasText: USER_SKILL }).count()).toBe(0)
  })

  it('lays out every main screen in light and dark, wide and narrow, without anything cut off', async () => {
    const screens: Array<{ name: string; open(target: Page): Promise<void> }> = [
      {
        name: 'chat',
        async open(target) {
          await target.getByRole('navigation', { name: 'Conversations' }).getByRole('button', { name: /No, that's wrong/ }).click()
          await target.getByText('Got it: pnpm from now on.').waitFor()
        }
      },
      { name: 'timeline', open: (target) => openSection(target, 'Timeline', 'Learning timeline') },
      {
        name: 'skills',
        async open(target) {
          await openSection(target, 'Skills', 'Skills')
          await target.getByRole('button', { name: new RegExp(SKILL) }).click()
          await target.getByRole('heading', { level: 2, name: SKILL }).waitFor()
          // The review's patch, opened in the diff viewer.
          await target.getByRole('tab', { name: /History/ }).click()
          await target.getByRole('button', { name: /Skill edited.*Review/ }).click()
          await target.getByRole('table').waitFor()
        }
      },
      { name: 'memory', open: (target) => openSection(target, 'Memory', 'Memory') },
      {
        name: 'inbox',
        async open(target) {
          await openSection(target, 'Inbox', 'Inbox')
          await target.getByRole('article', { name: `Patch the skill “${USER_SKILL}”` }).waitFor()
        }
      },
      { name: 'settings', open: (target) => openSettings(target) }
    ]
    const problems: string[] = []
    for (const [size, viewport] of [['wide', WIDE], ['narrow', NARROW]] as const) {
      for (const scheme of ['light', 'dark'] as const) {
        const target = await e2e.newPage({ viewport, colorScheme: scheme })
        await target.goto(e2e.url)
        await composer(target).waitFor()
        expect(await target.evaluate(() => (globalThis as unknown as PageDom).document.documentElement.dataset.theme)).toBe(scheme)
        for (const screen of screens) {
          await screen.open(target)
          await e2e.screenshot(`screen-${screen.name}-${scheme}-${size}`, target)
          for (const problem of await overflowingElements(target)) problems.push(`${screen.name} ${scheme} ${size}: ${problem}`)
        }
        await target.context().close()
      }
    }
    expect(problems).toEqual([])
    expect(e2e.pageErrors).toEqual([])
  })
})

async function openSection(target: Page, button: string, heading: string): Promise<void> {
  await target.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: button }).click()
  await target.getByRole('heading', { level: 1, name: heading }).waitFor()
}

async function openSettings(target: Page): Promise<void> {
  await target.getByRole('button', { name: 'Settings', exact: true }).click()
  await target.getByRole('heading', { level: 1, name: 'Settings' }).waitFor()
  await target.getByRole('tab', { name: 'Appearance', exact: true }).click()
  await target.getByRole('heading', { level: 2, name: 'Appearance' }).waitFor()
}
