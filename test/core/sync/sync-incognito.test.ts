import { execFileSync } from 'node:child_process'
import { afterEach, describe, expect, it } from 'vitest'
import { runSync, SyncError } from '../../../electron/core/sync'
import { appFixture, type AppFixture } from '../../helpers/app-fixture'
import { startGitHost, type GitHost } from '../../support/git-host'

let fx: AppFixture | undefined
let host: GitHost | undefined
afterEach(async () => {
  await fx?.close()
  await host?.close()
  fx = host = undefined
})

async function finished(app: AppFixture, sessionId: string): Promise<void> {
  await app.waitFor('chat.status', (status) => status.sessionId === sessionId && !status.running)
}

/** Runs a sync, waiting out one the app's own schedule may have started. */
async function syncWhenFree(app: AppFixture): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await runSync(app.core, { token: null })
      return
    } catch (error) {
      if (!(error instanceof SyncError && error.code === 'busy') || attempt > 50) throw error
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
}

describe('an incognito chat never reaches the sync tree', () => {
  it('a sync while one is open (conversation lists on) sends the saved chat and nothing of the incognito one', async () => {
    host = await startGitHost()
    await host.createBareRepo('team.git')
    fx = await appFixture({ config: { sync: { remote: host.url('team.git'), deviceName: 'laptop', sessionSummaries: true } } })
    fx.server.enqueue({ text: 'Noted: the garden has bees.' })
    const saved = await fx.ok('chat.send', { sessionId: null, text: 'I keep bees called honeywick in the garden' })
    await finished(fx, saved.sessionId)
    // A model at its worst in the incognito chat: it tries to write the detail to memory.
    fx.server.enqueue(
      { toolCalls: [{ name: 'memory', arguments: { action: 'add', target: 'user', content: 'User is seeing a lawyer named quokkafern' } }] },
      { text: 'I will keep that to this chat.' }
    )
    const secret = await fx.ok('chat.send', { sessionId: null, text: 'Between us: my lawyer quokkafern says I should settle', incognito: true })
    await finished(fx, secret.sessionId)

    // The app may have synced on its own meanwhile (after the saved chat); either way this sync runs with the incognito chat open.
    await syncWhenFree(fx)
    const repo = host.repoPath('team.git')
    const tree = execFileSync('git', ['-C', repo, 'ls-tree', '-r', '--name-only', 'main'], { encoding: 'utf8' })
    expect(tree).toContain('sessions/laptop.md')
    const pushed = execFileSync('git', ['-C', repo, 'show', 'main:sessions/laptop.md'], { encoding: 'utf8' })
    expect(pushed).toContain('honeywick')
    expect(() => execFileSync('git', ['-C', repo, 'grep', '-q', '-i', 'quokkafern', 'main'])).toThrow()
  })
})
