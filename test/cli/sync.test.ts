import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startGitHost, type GitHost } from '../support/git-host'
import { runCairn } from '../helpers/run-cli'

let host: GitHost
const dirs: string[] = []
afterEach(async () => {
  await host?.close()
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function home(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-cli-sync-'))
  dirs.push(dir)
  return dir
}

const cairn = (dir: string, args: string[], env: NodeJS.ProcessEnv = {}) => runCairn(['--home', dir, ...args], { cwd: dir, env })

describe('cairn sync', () => {
  it('with only team libraries, names each one and fails when one could not be pulled (never "Already in sync")', async () => {
    host = await startGitHost()
    const dir = home()
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ skills: { shared: [{ url: host.url('missing.git'), name: 'gone' }] } }))
    const run = await cairn(dir, ['sync'], { CAIRN_SYNC_TOKEN: 'personal-token' })
    expect(run.code).toBe(1)
    expect(run.stdout).toMatch(/^Team library gone: FAILED: .+$/m)
    expect(run.stdout).not.toContain('Already in sync')
    const json = await cairn(dir, ['sync', '--json'])
    expect(json.code).toBe(1)
    expect(JSON.parse(json.stdout).shared).toEqual([expect.objectContaining({ name: 'gone', outcome: 'failed' })])
  })

  it('sets up, syncs two homes through a token-guarded host, says what came in, and leaves', async () => {
    host = await startGitHost({ token: { user: 'cairn', password: 's3cret' } })
    await host.createBareRepo('notes.git')
    const [laptop, desktop] = [home(), home()]
    const token = { CAIRN_SYNC_TOKEN: 's3cret' }

    expect((await cairn(laptop, ['sync'])).stderr).toContain('Sync is not set up: run cairn sync setup <remote-url> first.')
    await cairn(laptop, ['tool', 'memory', JSON.stringify({ action: 'add', target: 'memory', content: 'The user deploys with fly.io.' })])
    const refused = await cairn(laptop, ['sync', 'setup', host.url('notes.git'), '--device', 'laptop'], { CAIRN_SYNC_TOKEN: 'wrong' })
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('refused the credentials')
    const setup = await cairn(laptop, ['sync', 'setup', host.url('notes.git'), '--device', 'laptop'], token)
    expect(setup.stderr).toBe('')
    expect(setup.stdout).toBe("Sent this device's changes.\n  sent: 1 changed file\n")

    const joined = await cairn(desktop, ['sync', 'setup', host.url('notes.git'), '--device', 'desktop', '--json'], token)
    expect(JSON.parse(joined.stdout)).toMatchObject({ outcome: 'pulled', received: 1, devices: ['laptop'] })
    const memory = await cairn(desktop, ['memory', '--json'])
    expect(memory.stdout).toContain('The user deploys with fly.io.')

    const status = await cairn(desktop, ['sync', 'status'])
    expect(status.stdout).toContain(`Syncing with ${host.url('notes.git')} (branch main) as "desktop".`)
    expect(status.stdout).toContain("Last sync: ")
    expect((await cairn(desktop, ['sync'], token)).stdout).toBe('Already in sync: nothing changed here or on the other devices.\n')

    const left = await cairn(desktop, ['sync', 'leave'])
    expect(left.stdout).toBe('This device no longer syncs. Its memories and skills stay as they are.\n')
    expect((await cairn(desktop, ['sync', 'status'])).stdout).toBe('Sync is not set up. Run cairn sync setup <remote-url>.\n')
    expect((await cairn(desktop, ['memory', '--json'])).stdout).toContain('The user deploys with fly.io.')
  })

  it('refuses an SSH remote with a way forward', async () => {
    const dir = home()
    const result = await cairn(dir, ['sync', 'setup', 'git@github.com:you/notes.git'])
    expect(result.code).toBe(1)
    expect(result.stderr).toContain("is an SSH remote; Cairn syncs over HTTPS. Use the repository's HTTPS URL with a token.")
  })
})
