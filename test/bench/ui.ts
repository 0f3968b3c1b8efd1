/**
 * Long histories in the UI: headless Chromium against the built `cairn serve` on seeded homes.
 * Prints JSON: opening a 10-turn and a 3,000-turn conversation (click in the sidebar → last message
 * on screen; median of a few runs) and their ratio, DOM nodes and JS heap with the long one open and
 * after scrolling to its top, the sidebar's first load with 10 and with 10,000 conversations,
 * frame times and long tasks while an answer streams in, typing latency in the composer, and how
 * far the message being read moves when an older page comes in above it (scrolling up in steps).
 * Progress goes to stderr. Builds nothing: run `npm run build` first.
 *
 *   npm run bench:ui [-- --root DIR] [--runs 3] [--turns 3000] [--conversations 10000] [--only scroll] [--out FILE]
 *
 * --root is a Cairn folder with `out/` built (default: this checkout), e.g. a copy of an earlier build.
 * --only scroll: the long conversation's scrolling figures alone (drift, reaching its top).
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import type { Page } from 'playwright-core'
import type { ScriptedReply } from '../scripted-provider'
import { answerMarker, manyTitle, questionText, seedLongConversation, seedManyConversations } from './seed-history'
import { newBenchContext, startBenchCairn, VIEWPORT, type BenchCairn } from './ui-serve'
import { measurePrependDrift, timeKeyUntilShown, type PrependFigures } from './ui-prepend'
import { domNodes, heapMB, median, round, SIDEBAR, startFrameRecorder, stopFrameRecorder, timeOpen, timeScrollUntilShown, timeTyping, type FrameFigures, type TypingFigures } from './ui-measure'

const { values } = parseArgs({
  options: {
    root: { type: 'string', default: join(__dirname, '..', '..') },
    runs: { type: 'string', default: '3' },
    turns: { type: 'string', default: '3000' },
    conversations: { type: 'string', default: '10000' },
    only: { type: 'string' },
    out: { type: 'string' }
  }
})
const root = values.root!
const runs = positive(values.runs!, '--runs')
const longTurns = positive(values.turns!, '--turns')
const manyCount = positive(values.conversations!, '--conversations')
if (values.only !== undefined && values.only !== 'scroll') throw new Error(`--only takes "scroll", got "${values.only}".`)
const scrollOnly = values.only === 'scroll'
const SHORT_TURNS = 10
const SHORT = 'Short conversation'
const LONG = 'Long conversation'
/** 34 characters, as in the issue. */
const TYPED = 'Can you summarise the last answer?'

function positive(text: string, name: string): number {
  const value = Number(text)
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive whole number, got "${text}".`)
  return value
}

function log(text: string): void {
  process.stderr.write(`[bench:ui] ${text}\n`)
}

let streamed = 0
/** The streamed answer: about 1,200 characters of markdown in 120 chunks, 15 ms apart. */
function streamingReply(): ScriptedReply {
  streamed += 1
  const paragraph = 'This part of the answer arrives a few words at a time, the way a model streams it, so the list has to keep up. '
  const text = [`Streamed answer ${streamed}.`, paragraph.repeat(4), '- first point\n- second point\n- third point', '```ts\nconst total = items.reduce((sum, item) => sum + item.size, 0)\n```', paragraph.repeat(3), `End of streamed answer ${streamed}.`].join('\n\n')
  const chunks: string[] = []
  const size = Math.ceil(text.length / 120)
  for (let at = 0; at < text.length; at += size) chunks.push(text.slice(at, at + size))
  return { chunks, chunkDelayMs: 15 }
}

interface ConversationFigures {
  openMs: number[]
  domNodes: number
  heapMB: number
  typing: TypingFigures
  streaming: FrameFigures
}

interface ScrollFigures {
  prepend: PrependFigures
  scrollToTopMs: number
  domNodesAtTop: number
  heapAtTopMB: number
  homeKeyToTopMs: number | null
}

/** Opens the conversation `runs` times in fresh pages; on the last page measures the rest. */
async function measureConversation(cairn: BenchCairn, title: string, turns: number): Promise<ConversationFigures> {
  const openMs: number[] = []
  let page: Page | null = null
  for (let run = 0; run < runs; run++) {
    await page?.context().close()
    page = await cairn.openApp()
    openMs.push(round(await timeOpen(page, title, answerMarker(turns))))
    log(`${title}: opened in ${openMs[run]} ms`)
  }
  page = page!
  const nodes = (await domNodes(page)).total
  const heap = await heapMB(page)
  const typings: TypingFigures[] = []
  for (let run = 0; run < runs; run++) typings.push(await timeTyping(page, TYPED))
  const typing: TypingFigures = {
    totalMs: median(typings.map((t) => t.totalMs)),
    keyP50Ms: median(typings.map((t) => t.keyP50Ms)),
    keyP95Ms: median(typings.map((t) => t.keyP95Ms))
  }
  log(`${title}: typing ${JSON.stringify(typing)}`)
  const streaming = await measureStreaming(page)
  log(`${title}: streaming ${JSON.stringify(streaming)}`)
  await page.context().close()
  return { openMs, domNodes: nodes, heapMB: heap, typing, streaming }
}

/** In fresh pages: older pages coming in while scrolling up in steps, then the way to the first question. */
async function measureScrolling(cairn: BenchCairn, title: string, turns: number): Promise<ScrollFigures> {
  let page = await cairn.openApp()
  await timeOpen(page, title, answerMarker(turns))
  const prepend = await measurePrependDrift(page)
  log(`${title}: older pages put in front ${JSON.stringify(prepend)}`)
  await page.context().close()
  page = await cairn.openApp()
  await timeOpen(page, title, answerMarker(turns))
  const scrollToTopMs = round(await timeScrollUntilShown(page, questionText(1), 'up'))
  log(`${title}: at the top after ${scrollToTopMs} ms`)
  const figures = { prepend, scrollToTopMs, domNodesAtTop: (await domNodes(page)).total, heapAtTopMB: await heapMB(page) }
  await page.context().close()
  page = await cairn.openApp()
  await timeOpen(page, title, answerMarker(turns))
  const homeKeyToTopMs = await timeKeyUntilShown(page, 'Home', questionText(1))
  log(`${title}: Home key to the first question in ${homeKeyToTopMs} ms`)
  await page.context().close()
  return { ...figures, homeKeyToTopMs }
}

async function measureStreaming(page: Page): Promise<FrameFigures> {
  const box = page.getByRole('textbox', { name: 'Message', exact: true })
  await box.fill('Please write a longer answer so I can watch it stream.')
  // Named before Enter: the request may reach the scripted server before press() resolves.
  const expected = `End of streamed answer ${streamed + 1}.`
  await startFrameRecorder(page)
  await box.press('Enter')
  await page.locator('.message.assistant:not([aria-busy="true"])', { hasText: expected }).waitFor({ timeout: 300_000 })
  return stopFrameRecorder(page)
}

/** A fresh page's load until the sidebar shows its newest conversation, from navigation start. */
async function sidebarLoad(cairn: BenchCairn): Promise<{ ms: number; domNodes: number; sidebarNodes: number | null }> {
  const context = await newBenchContext(cairn.browser)
  const page = await context.newPage()
  await page.goto(cairn.url)
  const ready = await page.waitForFunction(
    ({ sidebar, title }) => {
      const w = globalThis as unknown as { document: { querySelector(s: string): { textContent: string | null } | null }; performance: { now(): number } }
      return w.document.querySelector(sidebar)?.textContent?.includes(title) ? w.performance.now() : false
    },
    { sidebar: SIDEBAR, title: manyTitle(1) },
    { polling: 'raf' }
  )
  const ms = round((await ready.jsonValue()) as number)
  const nodes = await domNodes(page, SIDEBAR)
  await context.close()
  return { ms, domNodes: nodes.total, sidebarNodes: nodes.inside }
}

async function measureSidebar(count: number): Promise<{ ms: number; domNodes: number; sidebarNodes: number | null; loadMs: number[] }> {
  log(`seeding ${count} conversations`)
  const cairn = await startBenchCairn({ root, seed: (core) => void seedManyConversations(core, { count }) })
  try {
    const loads = []
    for (let run = 0; run < runs; run++) loads.push(await sidebarLoad(cairn))
    const figures = { ms: median(loads.map((load) => load.ms)), domNodes: loads[0].domNodes, sidebarNodes: loads[0].sidebarNodes, loadMs: loads.map((load) => load.ms) }
    log(`sidebar with ${count}: ${JSON.stringify(figures)}`)
    return figures
  } finally {
    await cairn.close()
  }
}

const WHAT = {
  open: 'ms from the click on the conversation in the sidebar until its last message is on screen (median of `runs` fresh pages)',
  ratio: 'long ÷ short (the issue asks ≤ 2)',
  domNodes: 'elements in the whole page (the issue asks < 5,000 with the long conversation open, and with the big sidebar)',
  heapMB: 'JS heap in use after a forced GC (CDP Performance.getMetrics JSHeapUsedSize)',
  prepend: 'scrolling the long conversation up 600 px at a time, settling after each step: per step that put an older page in front, how far the top-most fully visible message moved beyond the step (px)',
  scrollToTopMs: 'ms of scrolling the message list up until the first question is on screen (older pages load on the way), fresh page',
  homeKeyToTopMs: 'ms from pressing Home in the message list (focused) until the first question is on screen, fresh page (null: not within 30 s)',
  sidebar: 'ms from navigation start until the sidebar shows the newest conversation (median), fresh page each run',
  streaming: 'while a 1,200-character answer streams in (120 chunks, 15 ms apart): requestAnimationFrame deltas and PerformanceObserver longtask entries',
  typing: `typing "${TYPED}" (${TYPED.length} characters) in the composer: wall time of the whole, and per key the keydown → next frame latency (median of runs)`
}

async function main(): Promise<void> {
  log(`seeding a ${SHORT_TURNS}-turn and a ${longTurns}-turn conversation (root ${root})`)
  let longMessages = 0
  const cairn = await startBenchCairn({
    root,
    server: { respond: streamingReply },
    seed: (core) => {
      longMessages = seedLongConversation(core, { turns: longTurns, title: LONG }).messageCount
      seedLongConversation(core, { turns: SHORT_TURNS, title: SHORT, hugeOutputTurn: null })
    }
  })
  const environment = { root, chromium: cairn.browser.version(), viewport: VIEWPORT, runs, at: new Date().toISOString() }
  let short: ConversationFigures | null = null
  let long: ConversationFigures | null = null
  let scrolling: ScrollFigures
  try {
    if (!scrollOnly) {
      short = await measureConversation(cairn, SHORT, SHORT_TURNS)
      long = await measureConversation(cairn, LONG, longTurns)
    }
    scrolling = await measureScrolling(cairn, LONG, longTurns)
  } finally {
    await cairn.close()
  }
  const longScrolling = { longTurns, longMessages, ...scrolling }
  if (!short || !long) return print({ what: WHAT, environment, longConversation: longScrolling })

  const fewSidebar = await measureSidebar(10)
  const manySidebar = await measureSidebar(manyCount)
  const shortOpen = median(short.openMs)
  const longOpen = median(long.openMs)
  print({
    what: WHAT,
    environment,
    open: { shortTurns: SHORT_TURNS, longTurns, longMessages, shortMs: shortOpen, longMs: longOpen, ratio: round(longOpen / shortOpen), shortRunsMs: short.openMs, longRunsMs: long.openMs },
    longConversation: { domNodes: long.domNodes, heapMB: long.heapMB, ...longScrolling },
    shortConversation: { domNodes: short.domNodes, heapMB: short.heapMB },
    sidebar: {
      fewConversations: 10,
      manyConversations: manyCount,
      fewMs: fewSidebar.ms,
      manyMs: manySidebar.ms,
      ratio: round(manySidebar.ms / fewSidebar.ms),
      manyDomNodes: manySidebar.domNodes,
      manySidebarNodes: manySidebar.sidebarNodes,
      fewRunsMs: fewSidebar.loadMs,
      manyRunsMs: manySidebar.loadMs
    },
    streaming: { short: short.streaming, long: long.streaming },
    typing: { short: short.typing, long: long.typing }
  })
}

function print(result: object): void {
  const json = JSON.stringify(result, null, 2)
  if (values.out) writeFileSync(values.out, json + '\n')
  process.stdout.write(json + '\n')
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
  process.exit(1)
})
