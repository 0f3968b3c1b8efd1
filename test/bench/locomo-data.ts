import { readFileSync } from 'node:fs'
import { locomoFile } from '../helpers/shared-data'

/**
 * LoCoMo (snap-research/LoCoMo, CC BY-NC 4.0; benchmark data only, never shipped) parsed the way
 * ../shared/data/README.md prescribes: sessions in `session_N` order, evidence ids parsed with
 * `D\d+:\d+` after `D:` → `D`, turn numbers normalised, ids missing from the conversation dropped.
 */

export const locomoPath = locomoFile

export interface LocomoTurn {
  speaker: string
  diaId: string
  text: string
  caption: string | null
}

export interface LocomoSession {
  number: number
  dateTime: string
  /** Milliseconds since the epoch parsed from `dateTime` (e.g. "1:56 pm on 8 May, 2023"). */
  timestamp: number
  turns: LocomoTurn[]
}

export interface LocomoQuestion {
  question: string
  category: number
  /** Valid evidence ids, e.g. `D1:3`. */
  evidence: string[]
  /** Session numbers of the evidence. */
  goldSessions: number[]
}

export interface LocomoConversation {
  sampleId: string
  speakerA: string
  speakerB: string
  sessions: LocomoSession[]
  /** Only questions with at least one valid evidence id. */
  questions: LocomoQuestion[]
}

interface RawTurn {
  speaker: string
  dia_id: string
  text: string
  blip_caption?: string
}

interface RawSample {
  sample_id: string
  conversation: Record<string, unknown> & { speaker_a: string; speaker_b: string }
  qa: Array<{ question: string; category: number; evidence: string[] }>
}

export const categoryNames: Record<number, string> = {
  1: 'multi-hop',
  2: 'temporal',
  3: 'open-domain',
  4: 'single-hop',
  5: 'adversarial'
}

const months = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december']

/** "1:56 pm on 8 May, 2023" → epoch ms (UTC). */
export function parseLocomoDate(value: string): number {
  const match = /^(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([a-z]+),?\s+(\d{4})$/i.exec(value.trim())
  if (!match) throw new Error(`Unrecognised LoCoMo date: ${value}`)
  const [, hh, mm, ampm, day, monthName, year] = match
  const month = months.indexOf(monthName.toLowerCase())
  if (month < 0) throw new Error(`Unrecognised month in LoCoMo date: ${value}`)
  const hours = (Number(hh) % 12) + (ampm.toLowerCase() === 'pm' ? 12 : 0)
  return Date.UTC(Number(year), month, Number(day), hours, Number(mm))
}

/** `speaker: text [shares caption]`, the turn document of the reference floor. */
export function turnLine(turn: LocomoTurn): string {
  return `${turn.speaker}: ${turn.text}${turn.caption ? ` [shares ${turn.caption}]` : ''}`
}

export function parseEvidence(raw: string[], valid: ReadonlySet<string>): string[] {
  const ids: string[] = []
  for (const entry of raw) {
    for (const id of entry.replace(/D:/g, 'D').match(/D\d+:\d+/g) ?? []) {
      const [session, turn] = id.split(':')
      const normalised = `${session}:${Number(turn)}`
      if (valid.has(normalised) && !ids.includes(normalised)) ids.push(normalised)
    }
  }
  return ids
}

export function sessionOfDiaId(id: string): number {
  return Number(id.split(':')[0].slice(1))
}

export function loadLocomo(path = locomoPath): LocomoConversation[] {
  const samples = JSON.parse(readFileSync(path, 'utf8')) as RawSample[]
  return samples.map((sample) => {
    const conv = sample.conversation
    const numbers = Object.keys(conv)
      .map((key) => /^session_(\d+)$/.exec(key)?.[1])
      .filter((n): n is string => n !== undefined)
      .map(Number)
      .sort((a, b) => a - b)
    const sessions: LocomoSession[] = numbers.map((number) => {
      const dateTime = String(conv[`session_${number}_date_time`])
      const turns = (conv[`session_${number}`] as RawTurn[]).map((t) => ({
        speaker: t.speaker,
        diaId: t.dia_id,
        text: t.text,
        caption: t.blip_caption ?? null
      }))
      return { number, dateTime, timestamp: parseLocomoDate(dateTime), turns }
    })
    const valid = new Set(sessions.flatMap((s) => s.turns.map((t) => t.diaId)))
    const questions: LocomoQuestion[] = []
    for (const qa of sample.qa) {
      const evidence = parseEvidence(qa.evidence, valid)
      if (evidence.length === 0) continue
      questions.push({
        question: qa.question,
        category: qa.category,
        evidence,
        goldSessions: [...new Set(evidence.map(sessionOfDiaId))]
      })
    }
    return { sampleId: sample.sample_id, speakerA: conv.speaker_a, speakerB: conv.speaker_b, sessions, questions }
  })
}
