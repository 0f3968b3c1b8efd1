import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import fs, { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import git from 'isomorphic-git'
import http from 'isomorphic-git/http/node'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startGitHost, type GitHost } from '../../support/git-host'

const run = promisify(execFile)
/** Runs a command with `input` on its stdin. */
function pipeInto(command: string, args: string[], input: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = execFile(command, args, (error) => (error ? reject(error) : resolve()))
    child.stdin?.end(input)
  })
}
const author = { name: 'laptop', email: 'laptop@cairn.invalid', timestamp: 1_700_000_000, timezoneOffset: 0 }
const folders: string[] = []
const folder = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-git-client-'))
  folders.push(dir)
  return dir
}
afterAll(() => folders.forEach((dir) => rmSync(dir, { recursive: true, force: true })))

async function commitFile(dir: string, file: string, text: string, message = `write ${file}`): Promise<string> {
  writeFileSync(join(dir, file), text)
  await git.add({ fs, dir, filepath: file })
  return git.commit({ fs, dir, message, author })
}

/** A working copy with one commit on `main`, its `origin` pointing at `url`. */
async function localRepo(url: string): Promise<string> {
  const dir = folder()
  await git.init({ fs, dir, defaultBranch: 'main' })
  await git.addRemote({ fs, dir, remote: 'origin', url })
  await commitFile(dir, 'MEMORY.md', 'User prefers dark mode')
  return dir
}

const remoteHead = async (host: GitHost, repo: string): Promise<string> =>
  (await run('git', ['-C', host.repoPath(repo), 'rev-parse', 'main'])).stdout.trim()

describe('git host (git http-backend) with isomorphic-git', () => {
  let host: GitHost
  beforeAll(async () => {
    host = await startGitHost()
  })
  afterAll(() => host.close())

  it('clones an empty repository: no commits, no branch, and no error', async () => {
    await host.createBareRepo('empty.git')
    const dir = folder()
    await git.clone({ fs, http, dir, url: host.url('empty.git') })
    expect(await git.listBranches({ fs, dir })).toEqual([])
    await expect(git.resolveRef({ fs, dir, ref: 'HEAD' })).rejects.toThrow()
  })

  it('takes a push, and a second device clones and fetches it', async () => {
    await host.createBareRepo('memory.git')
    const laptop = await localRepo(host.url('memory.git'))
    const first = await git.resolveRef({ fs, dir: laptop, ref: 'HEAD' })
    const pushed = await git.push({ fs, http, dir: laptop, remote: 'origin', ref: 'main' })
    expect(pushed.ok).toBe(true)
    expect(await remoteHead(host, 'memory.git')).toBe(first)

    const desktop = folder()
    await git.clone({ fs, http, dir: desktop, url: host.url('memory.git') })
    expect(readFileSync(join(desktop, 'MEMORY.md'), 'utf8')).toBe('User prefers dark mode')

    const second = await commitFile(laptop, 'USER.md', 'Lives in Berlin')
    await git.push({ fs, http, dir: laptop, remote: 'origin', ref: 'main' })
    const fetched = await git.fetch({ fs, http, dir: desktop, remote: 'origin', ref: 'main' })
    expect(fetched.fetchHead).toBe(second)
    expect(await git.resolveRef({ fs, dir: desktop, ref: 'refs/remotes/origin/main' })).toBe(second)
  })

  it('serves the git CLI too, including its gzip-compressed request bodies', async () => {
    await host.createBareRepo('cli.git')
    const cli = folder()
    await run('git', ['clone', '--quiet', host.url('cli.git'), cli])
    // Forty branches make a clone's first request (one `want` line each) big enough, over 1 KB, for git to gzip it.
    const branches = Array.from({ length: 40 }, (_, i) => `commit refs/heads/b${i}\ncommitter desktop <desktop@cairn.invalid> 1700000000 +0000\ndata 9\nbranch ${String(i).padStart(2, '0')}\n`)
    await pipeInto('git', ['-C', cli, 'fast-import', '--quiet'], branches.join('\n'))
    await run('git', ['-C', cli, 'push', '--quiet', 'origin', '--all'])

    const fresh = folder()
    const clone = await run('git', ['clone', '--no-checkout', host.url('cli.git'), fresh], { env: { ...process.env, GIT_TRACE_CURL: '1', GIT_TRACE_CURL_NO_DATA: '1' } })
    expect(clone.stderr).toMatch(/Send header: Content-Encoding: gzip/i)
    expect((await run('git', ['-C', fresh, 'branch', '-r'])).stdout.split('\n').filter((line) => /origin\/b\d+$/.test(line))).toHaveLength(40)
  })

  it('keeps the repository as it was when a push breaks midway, and takes the next push whole', async () => {
    await host.createBareRepo('broken.git')
    const laptop = await localRepo(host.url('broken.git'))
    await git.push({ fs, http, dir: laptop, remote: 'origin', ref: 'main' })
    const before = await remoteHead(host, 'broken.git')
    // Hashes barely compress, so the pack is far bigger than where the push breaks.
    writeFileSync(join(laptop, 'big.md'), Array.from({ length: 4000 }, (_, i) => createHash('sha256').update(String(i)).digest('hex')).join('\n'))
    await git.add({ fs, dir: laptop, filepath: 'big.md' })
    const after = await git.commit({ fs, dir: laptop, message: 'big', author })

    await host.dropNextPush(1_000)
    await expect(git.push({ fs, http, dir: laptop, remote: 'origin', ref: 'main' })).rejects.toThrow()
    expect(await remoteHead(host, 'broken.git')).toBe(before)

    await git.push({ fs, http, dir: laptop, remote: 'origin', ref: 'main' })
    expect(await remoteHead(host, 'broken.git')).toBe(after)
  })
})

describe('git host with a token', () => {
  let host: GitHost
  afterEach(() => host.close())

  it('refuses a wrong token with 401 and takes the right one', async () => {
    host = await startGitHost({ token: { user: 'cairn', password: 'right-token' } })
    await host.createBareRepo('team.git')
    const laptop = await localRepo(host.url('team.git'))
    const wrong = git.push({ fs, http, dir: laptop, remote: 'origin', ref: 'main', onAuth: () => ({ username: 'cairn', password: 'wrong-token' }) })
    await expect(wrong).rejects.toMatchObject({ code: 'HttpError', data: { statusCode: 401 } })
    const none = git.push({ fs, http, dir: laptop, remote: 'origin', ref: 'main' })
    await expect(none).rejects.toMatchObject({ code: 'HttpError', data: { statusCode: 401 } })

    const right = await git.push({ fs, http, dir: laptop, remote: 'origin', ref: 'main', onAuth: () => ({ username: 'cairn', password: 'right-token' }) })
    expect(right.ok).toBe(true)
  })

  it('can lift or set the token while running', async () => {
    host = await startGitHost()
    await host.createBareRepo('open.git')
    const dir = folder()
    await host.requireToken('cairn', 'later-token')
    await expect(git.clone({ fs, http, dir, url: host.url('open.git') })).rejects.toMatchObject({ data: { statusCode: 401 } })
    await host.requireToken(null)
    await git.clone({ fs, http, dir: folder(), url: host.url('open.git') })
  })
})
