import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import type { RecordedChatRequest, ScriptedReply } from '../scripted-provider'
import { isReviewRequest } from '../helpers/review-fixture'
import { startE2E, type E2E } from './fixture'
import { composer, endingToolResult, send } from './helpers'

const everythingBin = join(__dirname, '..', '..', 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js')

/** The model asks for the MCP echo tool once per user message, then says what it got back. */
function respond(request: RecordedChatRequest): ScriptedReply {
  if (isReviewRequest(request)) return { text: 'Nothing to save.' }
  const result = endingToolResult(request)
  if (result) return { text: `The tool said: ${JSON.stringify(result).slice(0, 80)}` }
  return { toolCalls: [{ name: 'mcp__everything__echo', arguments: { message: 'hello from the e2e test' } }] }
}

let e2e: E2E
let page: Page
const config = () => JSON.parse(readFileSync(join(e2e.home, 'config.json'), 'utf8'))

beforeAll(async () => {
  e2e = await startE2E({
    server: { respond },
    config: { mcpServers: { everything: { command: process.execPath, args: [everythingBin, 'stdio'] }, broken: { command: '/no/such/program' } } }
  })
  page = e2e.page
  await page.goto(e2e.url)
  await composer(page).waitFor()
})

afterAll(async () => {
  await e2e?.close()
})

describe('MCP servers in the app (browser mode)', () => {
  it('shows a real server ready with its tools and a broken one failed with why, and turns a tool off in config.json', async () => {
    await page.getByRole('button', { name: 'Settings', exact: true }).click()
    await page.getByRole('tab', { name: 'Tools (MCP)', exact: true }).click()
    const section = page.getByRole('region', { name: 'Tools (MCP)' })
    const everything = section.locator('.mcp-server', { hasText: 'everything' })
    await expect.poll(() => everything.getByRole('status').textContent(), { timeout: 20_000 }).toMatch(/^Ready, \d+ tools$/)
    const broken = section.locator('.mcp-server', { hasText: 'broken' })
    await expect.poll(() => broken.getByRole('status').textContent(), { timeout: 20_000 }).toBe('Failed')
    expect(await broken.getByText('Its program could not be started.').count()).toBe(1)

    await everything.getByRole('button', { name: 'Show the tools of everything' }).click()
    await everything.getByRole('checkbox', { name: 'Offer get-env to the model' }).click()
    await expect.poll(() => config().mcpServers.everything.disabledTools).toEqual(['get-env'])
    expect(e2e.pageErrors).toEqual([])
  })

  it('asks before the MCP tool runs, and "always allow this tool" adds exactly it to autoApprove', async () => {
    await page.getByRole('button', { name: 'New chat' }).click()
    await send(page, 'Echo something')
    const card = page.getByRole('region', { name: 'Permission needed' })
    await card.waitFor({ timeout: 30_000 })
    expect(await card.getByText('Use echo from everything').count()).toBe(1)
    expect(await card.getByRole('group', { name: 'Arguments' }).textContent()).toContain('"message": "hello from the e2e test"')
    await card.getByRole('button', { name: 'Always allow echo from everything, with any arguments' }).click()
    await page.getByText(/The tool said: .*hello from the e2e test/).waitFor({ timeout: 20_000 })
    await expect.poll(() => config().mcpServers.everything.autoApprove).toEqual(['echo'])
  })

  it('fills the composer from a server’s prompt picked with "/"', async () => {
    const box = page.locator('.composer-input')
    await box.fill('/simple')
    await page.getByRole('option', { name: /everything:simple-prompt/ }).waitFor()
    await box.press('Enter')
    await expect.poll(() => box.inputValue()).toContain('This is a simple prompt without arguments.')
  })
})
