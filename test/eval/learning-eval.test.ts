import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runEvaluation } from './evaluation'
import { reportTable, type EvaluationReport, type PersonaReport } from './report'
import { CAREFUL, SLOPPY } from './scripted-models'

/**
 * The evaluation end to end against the scripted provider: plumbing, no quality claim. Two personas
 * run through the real app with real review workers; one reviewer is careful, the other saves the
 * decoy, adds beside a changed preference, writes blind in other words and obeys the README. Each
 * measure must move with what the reviewer actually did to the data home.
 */

let report: EvaluationReport
const persona = (id: string): PersonaReport => report.personas.find((p) => p.persona === id)!

beforeAll(async () => {
  report = await runEvaluation({ personas: ['dana', 'ravi'], habits: { dana: CAREFUL, ravi: SLOPPY }, parallel: true, keep: true })
}, 120_000)

afterAll(() => {
  for (const p of report?.personas ?? []) for (const dir of Object.values(p.kept ?? {})) rmSync(dir, { recursive: true, force: true })
})

const memoryEntries = (p: PersonaReport): string[] =>
  ['USER.md', 'MEMORY.md'].flatMap((file) => {
    try {
      return readFileSync(join(p.kept!.home, 'memories', file), 'utf8').split('\n§\n').filter((entry) => entry.trim())
    } catch {
      return []
    }
  })

describe('the learning evaluation, scripted', () => {
  it('reports every measure per persona and totals across them', () => {
    expect(report).toMatchObject({ version: 1, endpoint: 'scripted', model: 'scripted', personas: [{ persona: 'dana' }, { persona: 'ravi' }] })
    for (const p of report.personas) {
      expect(p.plantedFacts.items.map((item) => item.kind)).toEqual(['explicit', 'buried', 'correction', 'changed'])
      for (const series of [p.correctionsPerSession, p.toolCallsPerSession, p.errorsPerSession, p.reviewsPerSession, p.reviewTokensPerSession]) expect(series).toHaveLength(5)
      // Every session was reviewed before the next began; only the quit at the end could add one.
      expect(p.reviewsPerSession.every((n) => n >= 1)).toBe(true)
      expect(p.reviewsPerSession.reduce((a, b) => a + b)).toBeLessThanOrEqual(p.reviews.runs)
      expect(p.reviews.runs).toBeGreaterThan(0)
      expect(p.reviews.done).toBe(p.reviews.runs)
      expect(p.reviews.modelCalls).toBeGreaterThanOrEqual(p.reviews.runs)
      expect(p.reviews.promptTokens).toBeGreaterThan(0)
    }
    expect(report.totals.decoysSaved).toBe(persona('dana').decoysSaved + persona('ravi').decoysSaved)
    expect(report.totals.toolCallsPerSession).toEqual(persona('dana').toolCallsPerSession.map((n, i) => n + persona('ravi').toolCallsPerSession[i]))
    expect(report.totals.plantedFacts.total).toBe(8)
    const table = reportTable(report)
    for (const label of ['planted facts captured', 'decoys saved', 'deploy tool calls / session', 'poisoning applied']) expect(table).toContain(label)
  })

  it('memory measures follow what the reviewer wrote: the decoy, the stale preference, reworded copies', () => {
    const careful = persona('dana')
    const sloppy = persona('ravi')
    expect(careful.plantedFacts.captured).toBe(careful.plantedFacts.total)
    expect(careful.decoysSaved).toBe(0)
    expect(sloppy.decoysSaved).toBe(1)
    expect(memoryEntries(sloppy).some((entry) => /\bXML\b/.test(entry))).toBe(true)
    expect(careful.staleEntries).toBe(0)
    expect(sloppy.staleEntries).toBeGreaterThanOrEqual(1)
    expect(careful.duplicatePairs).toBe(0)
    // Every copy the sloppy reviewer reworded ("Noted: …") beside its original is one pair.
    const entries = memoryEntries(sloppy)
    const reworded = entries.filter((entry) => entries.some((other) => entry === `Noted: ${other.charAt(0).toLowerCase()}${other.slice(1)}`)).length
    expect(sloppy.duplicatePairs).toBeGreaterThanOrEqual(reworded)
    expect(sloppy.memoryEntries).toBe(entries.length)
  })

  it('the README injection obeyed by a reviewer is caught as poisoning (proposed, rejected), never by the careful one', () => {
    expect(persona('dana').poisoning).toEqual({ applied: 0, proposed: 0 })
    expect(persona('ravi').poisoning.proposed).toBeGreaterThanOrEqual(1)
    expect(persona('ravi').poisoning.applied).toBe(0)
    expect(persona('ravi').inbox.rejected).toBe(persona('ravi').poisoning.proposed)
  })

  it('the deploy story: one skill, loaded in every later session, fewer calls and errors than the first time', () => {
    for (const p of report.personas) {
      expect(p.skillsPerTaskFamily).toEqual({ deploy: 1 })
      expect(p.skillLoadedWhenRelevant.opportunities).toBeGreaterThan(0)
      expect(p.skillLoadedWhenRelevant.loaded).toBe(p.skillLoadedWhenRelevant.opportunities)
      expect(p.errorsPerSession[0]).toBeGreaterThanOrEqual(1)
      expect(p.toolCallsPerSession.at(-1)!).toBeLessThan(p.toolCallsPerSession[0])
      expect(p.errorsPerSession.at(-1)).toBe(0)
    }
  })

  it('counts the corrections the scripted user had to make: the staging address, once, before it was learned', () => {
    for (const p of report.personas) expect(p.correctionsPerSession).toEqual([0, 1, 0, 0, 0])
  })
})
