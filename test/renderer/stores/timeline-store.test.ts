import { describe, expect, it } from 'vitest'
import { createClient } from '../../../renderer/src/ipc/client'
import { preloadTransport } from '../../../renderer/src/ipc/transport'
import { createTimelineStore, groupTimeline, matchesFilters } from '../../../renderer/src/stores/timeline'
import { FakeBridge } from '../helpers/fake-transport'
import { learned, ledger, review } from '../helpers/fixtures'

describe('groupTimeline', () => {
  it('puts a review’s rows together where its newest row is, newest first, with the review attached', () => {
    const entries = [
      ledger(1, { reviewId: 'rA' }),
      ledger(2),
      ledger(3, { reviewId: 'rA', kind: 'skill.patch', target: 'skills/devops/deploy/SKILL.md' }),
      ledger(4, { reviewId: 'rB' }),
      ledger(5, { source: 'user' })
    ]
    const groups = groupTimeline(entries, { rA: review('rA', { summary: learned({ memory: 1, skills: [{ name: 'deploy', verb: 'updated' }] }) }) })
    expect(groups.map((g) => (g.type === 'entry' ? `e${g.entry.id}` : `${g.reviewId}:${g.entries.map((e) => e.id).join(',')}`))).toEqual([
      'e5',
      'rB:4',
      'rA:3,1',
      'e2'
    ])
    const groupA = groups[2]
    expect(groupA.type === 'review' && groupA.review?.id).toBe('rA')
    const groupB = groups[1]
    expect(groupB.type === 'review' && groupB.review).toBeNull()
  })
})

describe('timeline filters', () => {
  it('matches rows by kind family and source', () => {
    const skillByReview = ledger(1, { kind: 'skill.create', source: 'review' })
    const memoryByUser = ledger(2, { kind: 'memory.remove', source: 'user' })
    expect(matchesFilters(skillByReview, { kinds: ['skill'], changes: [], sources: [] })).toBe(true)
    expect(matchesFilters(memoryByUser, { kinds: ['skill'], changes: [], sources: [] })).toBe(false)
    expect(matchesFilters(memoryByUser, { kinds: [], changes: [], sources: ['user', 'revert'] })).toBe(true)
    expect(matchesFilters(skillByReview, { kinds: ['memory', 'skill'], changes: [], sources: ['agent'] })).toBe(false)
  })

  it('asks main for exactly the chosen kinds and sources', async () => {
    const bridge = new FakeBridge({ 'timeline.list': { entries: [], reviews: [] } })
    const timeline = createTimelineStore(createClient(preloadTransport(bridge)))
    await timeline.getState().load()
    timeline.getState().toggleKind('memory')
    timeline.getState().toggleSource('review')
    await new Promise((resolve) => setTimeout(resolve, 0))
    const calls = bridge.callsTo('timeline.list')
    expect(calls[0]).toEqual({ limit: 100 })
    // The memory family takes in the memory archive's rows (issue 28).
    expect(calls.at(-1)).toEqual({ limit: 100, kinds: ['memory.add', 'memory.replace', 'memory.remove', 'archive.add', 'archive.remove'], sources: ['review'] })
    timeline.getState().clearFilters()
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(bridge.callsTo('timeline.list').at(-1)).toEqual({ limit: 100 })
  })

  it('pages back from the oldest row it has', async () => {
    const page = Array.from({ length: 100 }, (_, i) => ledger(200 - i))
    const bridge = new FakeBridge({ 'timeline.list': (input) => ({ entries: input.beforeId ? [ledger(5)] : page, reviews: [] }) })
    const timeline = createTimelineStore(createClient(preloadTransport(bridge)))
    await timeline.getState().load()
    expect(timeline.getState().hasMore).toBe(true)
    await timeline.getState().loadMore()
    expect(bridge.callsTo('timeline.list').at(-1)).toEqual({ limit: 100, beforeId: 101 })
    expect(timeline.getState().entries).toHaveLength(101)
    expect(timeline.getState().hasMore).toBe(false)
  })
})
