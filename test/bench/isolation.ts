/**
 * How much a background review disturbs the chat process. A review scans a data home of N skills
 * (default 1000) and patches every one (batches of parallel skill_view, then parallel skill_manage
 * patch calls, played by the scripted provider in its own process). It runs once in a review worker
 * process (ReviewHost + forkReviewWorker) and once in-process (runReview called here), while
 * `monitorEventLoopDelay` (1 ms resolution) records this process's event-loop delay.
 * Prints JSON: per mode {wallMs, patched, eventLoopDelayMs: {mean, p50, p99, max}}. Target: p99 < 20 ms with the worker.
 * Usage: `npx tsx test/bench/isolation.ts [--skills 1000] [--batch 100]`.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import type { ReviewJob } from '../../shared/review-protocol'
import { ChatProvider } from '../../electron/core/provider/provider'
import type { ProviderSettings } from '../../electron/core/provider/provider-settings'
import { CairnCore } from '../../electron/core/cairn'
import { ConfigStore } from '../../electron/core/config/config-store'
import { ensureHome } from '../../electron/core/config/home'
import { ReviewHost, reviewHostDepsOf } from '../../electron/core/learning/host/review-host'
import { reviewDepsOf, runReview } from '../../electron/core/learning/worker/review-runner'
import { forkReviewWorker } from '../../electron/core/learning/host/spawn-worker'
import type { ScriptFile, ScriptedReply } from '../scripted-provider'

const repoRoot = resolve(__dirname, '..', '..')
const API_KEY = 'bench-key'

const skillName = (i: number): string => `bench-skill-${String(i).padStart(4, '0')}`
const oldLine = (i: number): string => `3. Check the output of step two for skill ${i}.`
const newLine = (i: number): string => `3. Check the output of step two for skill ${i}; on a timeout, retry once with --verbose.`

function skillText(i: number): string {
  return [
    '---',
    `name: ${skillName(i)}`,
    `description: Procedure number ${i} of the isolation benchmark, with the pitfalls met so far.`,
    '---',
    `# Bench skill ${i}`,
    '',
    `1. Prepare the workspace for task ${i}.`,
    `2. Run \`bench-tool run --task ${i}\` and wait for it to finish.`,
    oldLine(i),
    '4. Record the result in the project notes.',
    '',
    '## Pitfalls',
    ...Array.from({ length: 12 }, (_, line) => `- Pitfall ${line + 1} of task ${i}: read the log before retrying.`),
    ''
  ].join('\n')
}

async function makeHome(skills: number, baseURL: string): Promise<string> {
  const home = mkdtempSync(join(tmpdir(), 'cairn-isolation-'))
  const paths = ensureHome(home)
  for (let i = 0; i < skills; i++) {
    const dir = join(paths.skillsDir, 'bench', skillName(i))
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, 'SKILL.md'), skillText(i))
  }
  await new ConfigStore(paths.configFile).update({
    provider: { preset: 'custom', baseURL, model: 'scripted', maxRetries: 0, requestTimeoutMs: 120_000 },
    skills: { extraDirs: [] }
  })
  return home
}

/** skills_list, then per batch: view every skill of the batch, then patch every one; then a closing line. */
function script(skills: number, batch: number): ScriptFile {
  const replies: ScriptedReply[] = [{ toolCalls: [{ name: 'skills_list', arguments: {} }] }]
  for (let start = 0; start < skills; start += batch) {
    const ids = Array.from({ length: Math.min(batch, skills - start) }, (_, k) => start + k)
    replies.push({ toolCalls: ids.map((i) => ({ name: 'skill_view', arguments: { name: skillName(i) } })) })
    replies.push({
      toolCalls: ids.map((i) => ({
        name: 'skill_manage',
        arguments: { action: 'patch', name: skillName(i), old_string: oldLine(i), new_string: newLine(i) }
      }))
    })
  }
  replies.push({ text: `Patched ${skills} skills with the retry pitfall.` })
  return { replies, apiKey: API_KEY }
}

async function startServer(scriptPath: string): Promise<{ url: string; child: ChildProcessWithoutNullStreams }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/scripted-provider/cli.ts', '--port', '0', '--script', scriptPath, '--quiet'], {
    cwd: repoRoot
  })
  const url = await new Promise<string>((done, fail) => {
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const match = /listening on (http:\/\/\S+\/v1)/.exec(out)
      if (match) done(match[1])
    })
    child.stderr.on('data', (chunk: Buffer) => process.stderr.write(chunk))
    child.once('exit', (code) => fail(new Error(`scripted server exited (${code}) before listening`)))
  })
  return { url, child }
}

interface Measured {
  wallMs: number
  patched: number
  eventLoopDelayMs: { mean: number; p50: number; p99: number; max: number }
}

async function measure(work: () => Promise<void>): Promise<Omit<Measured, 'patched'>> {
  const histogram = monitorEventLoopDelay({ resolution: 1 })
  histogram.enable()
  const started = performance.now()
  await work()
  const wallMs = performance.now() - started
  histogram.disable()
  const ms = (ns: number) => Math.round((ns / 1e6) * 100) / 100
  return {
    wallMs: Math.round(wallMs),
    eventLoopDelayMs: { mean: ms(histogram.mean), p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max) }
  }
}

function countPatched(home: string, skills: number): number {
  let patched = 0
  for (let i = 0; i < skills; i++) {
    if (readFileSync(join(home, 'skills', 'bench', skillName(i), 'SKILL.md'), 'utf8').includes(newLine(i))) patched++
  }
  return patched
}

function job(): Omit<ReviewJob, 'reviewId'> {
  return {
    sessionId: null,
    kinds: ['skills'],
    reasons: [{ code: 'requested' as const }],
    messages: [
      { role: 'user', content: 'The bench tool timed out again; retrying once with --verbose fixed it.' },
      { role: 'assistant', content: 'Good to know: a verbose retry fixes the timeout.' }
    ],
    skillsUsed: []
  }
}

async function runMode(mode: 'worker' | 'in-process', skills: number, batch: number, scriptPath: string): Promise<Measured> {
  const server = await startServer(scriptPath)
  const home = await makeHome(skills, server.url)
  const core = await CairnCore.open({ home })
  const settings: ProviderSettings = { preset: 'custom', baseURL: server.url, model: 'scripted', apiKey: API_KEY, requestTimeoutMs: 120_000, maxRetries: 0 }
  const maxIterations = 2 * Math.ceil(skills / batch) + 2
  try {
    let failure: string | null = null
    const result = await measure(async () => {
      if (mode === 'in-process') {
        await runReview({ deps: reviewDepsOf(core), provider: new ChatProvider(settings), job: { ...job(), reviewId: 'bench-in-process' }, maxIterations, allowSkillCreation: false })
        return
      }
      const host = new ReviewHost({ ...reviewHostDepsOf(core), spawn: () => forkReviewWorker(), provider: () => settings, limits: { maxIterations, timeoutMs: 900_000 } })
      host.events.on((event) => {
        if (event.type === 'review_failed') failure = event.error
      })
      const status = await host.wait(host.enqueue(job()))
      await host.close()
      if (status !== 'done') failure ??= status
    })
    if (failure) throw new Error(`${mode} review failed: ${failure}`)
    return { ...result, patched: countPatched(home, skills) }
  } finally {
    await core.close()
    server.child.kill()
    rmSync(home, { recursive: true, force: true })
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { skills: { type: 'string', default: '1000' }, batch: { type: 'string', default: '100' } } })
  const skills = Number(values.skills)
  const batch = Number(values.batch)
  const scratch = mkdtempSync(join(tmpdir(), 'cairn-isolation-script-'))
  const scriptPath = join(scratch, 'script.json')
  writeFileSync(scriptPath, JSON.stringify(script(skills, batch)))
  try {
    const worker = await runMode('worker', skills, batch, scriptPath)
    const inProcess = await runMode('in-process', skills, batch, scriptPath)
    const output = {
      skills,
      batch,
      worker,
      inProcess,
      targetP99Ms: 20,
      workerMeetsTarget: worker.eventLoopDelayMs.p99 < 20
    }
    process.stdout.write(JSON.stringify(output, null, 2) + '\n')
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`)
  process.exit(1)
})
