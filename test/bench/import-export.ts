/**
 * Import of a large ChatGPT data export: writes a synthetic `conversations.json` of 10,000 conversations
 * (message trees with regenerated answers, ~12 nodes each) to a temp dir, imports it into a fresh data
 * home, and prints JSON with the time, the rate and the peak RSS (sampled every 20 ms) against the RSS
 * before the import, so memory staying flat while the file is much larger shows the import streams.
 * Then imports it again (everything already there) and times that too.
 *
 *   npm run bench:import [-- --count 10000 --keep]
 */
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { once } from 'node:events'
import { CairnCore } from '../../electron/core/cairn'
import { importChatExport } from '../../electron/core/import'

const args = process.argv.slice(2)
const count = Number(args[args.indexOf('--count') + 1]) || 10_000
const keep = args.includes('--keep')
const words = 'sourdough kubernetes invoice marathon lisbon rebase pandas greenhouse kingfisher budget ingress tomato proxy schema draft'.split(' ')

function sentence(seed: number, length: number): string {
  const out: string[] = []
  for (let i = 0; i < length; i++) out.push(words[(seed * 31 + i * 7) % words.length])
  return `${out.join(' ')}.`
}

/** One conversation: a chain of turns where every third answer was regenerated (the old one left on a side branch). */
function conversation(index: number): object {
  const start = 1_700_000_000 + index * 60
  const mapping: Record<string, object> = { root: { id: 'root', message: null, parent: null, children: ['u0'] } }
  let parent = 'root'
  for (let turn = 0; turn < 5; turn++) {
    const user = `u${turn}`
    const answer = `a${turn}`
    const children = turn % 3 === 2 ? [`${answer}-old`, answer] : [answer]
    mapping[parent] = { ...(mapping[parent] as object), children: [user] }
    mapping[user] = { id: user, parent, children, message: message('user', sentence(index + turn, 14), start + turn * 10) }
    if (children.length === 2) mapping[`${answer}-old`] = { id: `${answer}-old`, parent: user, children: [], message: message('assistant', sentence(index, 20), start + turn * 10 + 4) }
    mapping[answer] = { id: answer, parent: user, children: [], message: message('assistant', sentence(index + turn + 1, 40), start + turn * 10 + 5) }
    parent = answer
  }
  return { id: `conv-${index}`, title: `Conversation ${index}`, create_time: start, update_time: start + 60, current_node: parent, mapping }
}

function message(role: string, text: string, time: number): object {
  return { author: { role }, create_time: time, content: { content_type: 'text', parts: [text] }, metadata: role === 'assistant' ? { model_slug: 'gpt-4o' } : {}, recipient: 'all' }
}

async function writeExport(file: string): Promise<void> {
  const out = createWriteStream(file)
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain')
  }
  await write('[')
  for (let i = 0; i < count; i++) await write(`${i ? ',' : ''}${JSON.stringify(conversation(i))}`)
  await write(']')
  out.end()
  await once(out, 'finish')
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-bench-import-'))
  const file = join(dir, 'conversations.json')
  await writeExport(file)
  const core = await CairnCore.open({ home: join(dir, 'home') })
  try {
    global.gc?.()
    const baseline = process.memoryUsage().rss
    let peak = baseline
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20)
    const started = performance.now()
    const report = await importChatExport(core, {
      app: 'chatgpt',
      path: file,
      onProgress: (progress) => {
        if (progress.total === undefined && progress.done % 2000 === 0) process.stderr.write(`imported ${progress.done}/${count}\n`)
      }
    })
    const seconds = (performance.now() - started) / 1000
    clearInterval(sampler)
    peak = Math.max(peak, process.memoryUsage().rss)
    const againStarted = performance.now()
    const again = await importChatExport(core, { app: 'chatgpt', path: file })
    const againSeconds = (performance.now() - againStarted) / 1000
    const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10
    console.log(
      JSON.stringify(
        {
          conversations: report.counts.sessions.added,
          messages: report.counts.sessions.messages,
          problems: report.problems.length,
          exportMb: mb(statSync(file).size),
          seconds: Math.round(seconds * 100) / 100,
          conversationsPerSecond: Math.round(report.counts.sessions.added / seconds),
          rssBeforeMb: mb(baseline),
          peakRssMb: mb(peak),
          peakRssGrowthMb: mb(peak - baseline),
          reimport: { added: again.counts.sessions.added, existing: again.counts.sessions.existing, seconds: Math.round(againSeconds * 100) / 100 }
        },
        null,
        2
      )
    )
  } finally {
    await core.close()
    if (!keep) rmSync(dir, { recursive: true, force: true })
  }
}

void main()
