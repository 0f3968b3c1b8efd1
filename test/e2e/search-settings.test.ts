import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CairnCore } from '../../electron/core/cairn'
import { openStateDb } from '../../electron/core/db/state-db'
import { startE2E, type E2E } from './fixture'
import { composer } from './helpers'

/** Chinese messages stored as an install from before migration 14 left them: no words yet, a backlog to index. */
function seedOlderHistory(core: CairnCore): void {
  core.sessions.create({ id: 'older' })
  core.sessions.appendMany('older', [
    { role: 'user', content: '上周部署到服务器的时候失败了' },
    { role: 'assistant', content: '她穿着和服去了京都' }
  ])
  core.db.exec('UPDATE messages SET segmented = NULL')
  core.db.exec('INSERT INTO segment_backlog (id, after_id, through_id) SELECT 1, 0, max(id) FROM messages')
}

let e2e: E2E

beforeAll(async () => {
  e2e = await startE2E({ seed: seedOlderHistory })
})

afterAll(async () => {
  await e2e?.close()
})

describe('Settings → Search (browser mode)', () => {
  it('indexes the older messages in the background and says search by meaning is off, with how to turn it on', async () => {
    const { page } = e2e
    await page.goto(e2e.url)
    await composer(page).waitFor()
    await page.getByRole('button', { name: 'Settings', exact: true }).click()
    await page.getByRole('tab', { name: 'Search', exact: true }).click()
    const part = page.getByRole('region', { name: 'Search', exact: true })
    await part.scrollIntoViewIfNeeded()
    await part.getByText('Up to date: every message is indexed by word.').waitFor()
    await part.getByText('Search by meaning is off.').waitFor()
    await part.getByText(/enter an embedding model below/).waitFor()
    expect(e2e.pageErrors).toEqual([])

    const db = openStateDb(join(e2e.home, 'state.db'), { readonly: true })
    try {
      expect(db.prepare('SELECT count(*) FROM segment_backlog').pluck().get()).toBe(0)
      expect(db.prepare('SELECT count(*) FROM messages WHERE segmented IS NULL').pluck().get()).toBe(0)
    } finally {
      db.close()
    }
  })
})
