import { readdirSync, rmSync } from 'node:fs'
import { join, relative } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tree, violations, type Violation } from './lint-tree'

describe('the runtime axis of the learning loop', () => {
  let bad: string
  let good: string
  let badFound: Promise<Violation[]>

  beforeAll(() => {
    const host = `export const enqueue = () => 1\n`
    const runner = `export const runReview = () => 1\n`
    // The lint reads these three roots: every tree has them.
    const roots = { 'shared/contract.ts': `export const contract = 1\n`, 'renderer/src/view.ts': `export const v = 1\n` }
    bad = tree({
      ...roots,
      'electron/core/learning/host/review-host.ts': host,
      'electron/core/learning/worker/review-runner.ts': runner,
      // The worker side reaching into the host's queue.
      'electron/core/learning/worker/review-policy.ts': `import { enqueue } from '../host/review-host'\nexport const p = enqueue\n`,
      // ... or into the app's parts, which only the host side runs.
      'electron/core/app/chat-manager.ts': `export const chats = () => 1\n`,
      'electron/core/learning/worker/review-prompts.ts': `import { chats } from '../../app/chat-manager'\nexport const q = chats\n`,
      'electron/worker/review-entry.ts': `import { enqueue } from '../core/learning/host/review-host'\nimport { runReview } from '../core/learning/worker/review-runner'\nexport const e = [enqueue, runReview]\n`,
      // The host side running a review in its own process by importing the runner.
      'electron/core/learning/host/learning-loop.ts': `import { runReview } from '../worker/review-runner'\nexport const l = runReview\n`,
      'electron/core/app/cairn-app.ts': `import { runReview } from '../learning/worker/review-runner'\nexport const a = runReview\n`,
      'electron/cli/review.ts': `import { runReview } from '../core/learning/worker/review-runner'\nexport const c = runReview\n`,
      // The spawner may name the entry, but not the runner.
      'electron/main/review/utility-spawner.ts': `import { runReview } from '../../core/learning/worker/review-runner'\nexport const s = runReview\n`,
      // A learning file on neither side.
      'electron/core/learning/helpers.ts': `import { enqueue } from './host/review-host'\nexport const h = enqueue\n`
    })
    good = tree({
      ...roots,
      'shared/review-protocol.ts': `export const REVIEW_PROTOCOL = 'cairn.review'\n`,
      'electron/core/ledger/review-runs.ts': `export const runs = () => 1\n`,
      'electron/core/learning/host/review-host.ts': `import { REVIEW_PROTOCOL } from '../../../../shared/review-protocol'\nimport { runs } from '../../ledger/review-runs'\nexport const enqueue = () => [REVIEW_PROTOCOL, runs()]\n`,
      'electron/core/learning/worker/review-runner.ts': `import { REVIEW_PROTOCOL } from '../../../../shared/review-protocol'\nimport { runs } from '../../ledger/review-runs'\nexport const runReview = () => [REVIEW_PROTOCOL, runs()]\n`,
      'electron/worker/review-entry.ts': `import { runReview } from '../core/learning/worker/review-runner'\nexport const e = runReview\n`,
      'electron/core/app/cairn-app.ts': `import { enqueue } from '../learning/host/review-host'\nexport const a = enqueue\n`,
      // The one named exception: the spawner hands the worker entry to the bundler.
      'electron/main/review/utility-spawner.ts': `import entry from '../../worker/review-entry?modulePath'\nexport const s = entry\n`
    })
    badFound = violations(bad)
  })

  afterAll(() => {
    for (const dir of [bad, good]) rmSync(dir, { recursive: true, force: true })
  })

  it('fails worker code importing the host side of learning', async () => {
    const found = await badFound
    const has = (from: string) => found.some((v) => v.rule === 'runtime:worker-is-not-host' && v.from === from)
    expect(has('electron/core/learning/worker/review-policy.ts')).toBe(true)
    expect(has('electron/worker/review-entry.ts')).toBe(true)
    expect(has('electron/core/learning/worker/review-prompts.ts')).toBe(true)
  })

  it('fails host code (the learning host, the app, the CLI) importing worker code, and the spawner naming more than the entry', async () => {
    const found = await badFound
    const has = (rule: string, from: string) => found.some((v) => v.rule === rule && v.from === from)
    expect(has('runtime:host-is-not-worker', 'electron/core/learning/host/learning-loop.ts')).toBe(true)
    expect(has('runtime:host-is-not-worker', 'electron/core/app/cairn-app.ts')).toBe(true)
    expect(has('runtime:host-is-not-worker', 'electron/cli/review.ts')).toBe(true)
    expect(has('runtime:spawner-names-only-the-entry', 'electron/main/review/utility-spawner.ts')).toBe(true)
  })

  it('fails a learning file that belongs to neither side', async () => {
    const found = await badFound
    expect(found.some((v) => v.rule === 'runtime:learning-file-has-a-side' && v.from === 'electron/core/learning/helpers.ts')).toBe(true)
  })

  it('finds every file of the real learning/ on one side, including files the import rules never see', () => {
    const root = join(__dirname, '../../electron/core/learning')
    const files = readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    expect(files.length).toBeGreaterThan(20)
    expect(files.filter((file) => !/^(host|worker)\//.test(file))).toEqual([])
  })

  it('passes both sides sharing only the protocol and the lower layers, and the spawner naming the entry', async () => {
    expect(await violations(good)).toEqual([])
  })
})
