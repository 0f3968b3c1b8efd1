import { execFile, fork, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { promisify } from 'node:util'

const run = promisify(execFile)

/** A real git smart-HTTP host (git http-backend) on 127.0.0.1, holding bare repositories in a temporary folder. */
export interface GitHost {
  /** `http://127.0.0.1:<port>/<repo>`: what a client clones, fetches and pushes. */
  url(repo: string): string
  /** A bare repository with `main` as its default branch that accepts pushes. */
  createBareRepo(repo: string): Promise<void>
  /** The bare repository on disk, for inspecting it with the git CLI. */
  repoPath(repo: string): string
  /** Require HTTP Basic auth with this user/token for every request (401 otherwise); `null` lifts it. */
  requireToken(user: string | null, token?: string): Promise<void>
  /** Breaks the next push (receive-pack request) after its first `afterBytes` body bytes, as a sync killed mid-push would. */
  dropNextPush(afterBytes: number): Promise<void>
  /** Stops the host and removes its repositories. */
  close(): Promise<void>
}

export interface GitHostOptions {
  token?: { user: string; password: string }
}

/** Starts the host in a child `node` process; `close()` it in `afterAll`/`afterEach`. */
export async function startGitHost(options: GitHostOptions = {}): Promise<GitHost> {
  const root = mkdtempSync(join(tmpdir(), 'cairn-git-host-'))
  const child = fork(join(__dirname, 'git-host-server.mjs'), [root], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] })
  const port = await listeningPort(child)
  let nextId = 0
  const tell = (message: Record<string, unknown>): Promise<void> =>
    new Promise((resolve, reject) => {
      const id = ++nextId
      const onMessage = (reply: { type: string; id: number }): void => {
        if (reply.type !== 'ack' || reply.id !== id) return
        child.off('message', onMessage)
        resolve()
      }
      child.on('message', onMessage)
      child.send({ ...message, id }, (error) => error && reject(error))
    })

  const repoPath = (repo: string): string => join(root, repo)
  const host: GitHost = {
    url: (repo) => `http://127.0.0.1:${port}/${repo}`,
    repoPath,
    async createBareRepo(repo) {
      await run('git', ['init', '--quiet', '--bare', '-b', 'main', repoPath(repo)])
      await run('git', ['-C', repoPath(repo), 'config', 'http.receivepack', 'true'])
    },
    requireToken: (user, token) => tell({ type: 'token', user, password: token ?? '' }),
    dropNextPush: (afterBytes) => tell({ type: 'dropNextPush', afterBytes }),
    async close() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve))
        child.kill()
        await exited
      }
      rmSync(root, { recursive: true, force: true })
    }
  }
  if (options.token) await host.requireToken(options.token.user, options.token.password)
  return host
}

function listeningPort(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream })
    const onExit = (code: number | null): void => reject(new Error(`git host exited before listening (code ${code})`))
    child.once('exit', onExit)
    child.once('error', reject)
    lines.once('line', (line) => {
      child.off('exit', onExit)
      resolve((JSON.parse(line) as { port: number }).port)
    })
  })
}
