import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openStateDb, type StateDb } from '../../../electron/core/db/state-db'
import { SessionStore } from '../../../electron/core/sessions'
import { prepareIndex, storeBatch, type VectorIdentity } from '../../../electron/core/sessions/semantic-index'
import { fuseSessions, reciprocalRankFusion, semanticCandidates } from '../../../electron/core/sessions/semantic-search'
import { loadVectorExtension, unpackedPath } from '../../../electron/core/sessions/semantic-vec'

describe('reciprocalRankFusion', () => {
  it('scores each id by the sum of 1 / (k + rank) over the lists it is in', () => {
    const fused = reciprocalRankFusion([
      ['a', 'b', 'c'],
      ['c', 'a']
    ])
    expect(fused.map((r) => r.id)).toEqual(['a', 'c', 'b'])
    expect(fused[0].score).toBeCloseTo(1 / 61 + 1 / 62, 12)
    expect(fused[1].score).toBeCloseTo(1 / 63 + 1 / 61, 12)
    expect(fused[2].score).toBeCloseTo(1 / 62, 12)
  })

  it('lifts what both lists found above what one list ranked first', () => {
    const keyword = [1, 2, 3, 4, 5]
    const meaning = [9, 8, 7, 4, 6]
    expect(reciprocalRankFusion([keyword, meaning])[0].id).toBe(4)
  })

  it('with a small k the top ranks weigh more', () => {
    // Rank 1 in one list against rank 2 in both: k = 0 prefers the single first place.
    const lists = [
      ['solo', 'both'],
      ['x', 'both']
    ]
    expect(reciprocalRankFusion(lists, 0)[0].id).toBe('solo')
    expect(reciprocalRankFusion(lists, 60)[0].id).toBe('both')
  })

  it('breaks ties by first appearance, counts a repeated id once per list, and handles empty input', () => {
    expect(reciprocalRankFusion([['p'], ['q']]).map((r) => r.id)).toEqual(['p', 'q'])
    // The repeat keeps its place in the list: q is still third.
    expect(reciprocalRankFusion([['p', 'p', 'q']]).map((r) => r.score)).toEqual([1 / 61, 1 / 63])
    expect(reciprocalRankFusion([])).toEqual([])
    expect(reciprocalRankFusion([[], []])).toEqual([])
  })

  it('refuses a negative constant', () => {
    expect(() => reciprocalRankFusion([['a']], -1)).toThrow('The fusion constant must be 0 or more, not -1.')
  })
})

describe('semanticCandidates', () => {
  let dir: string
  let db: StateDb
  const identity: VectorIdentity = { model: 'hand', baseURL: 'http://local', requestedDimensions: 0 }

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cairn-knn-'))
    db = openStateDb(join(dir, 'state.db'))
    expect(loadVectorExtension(db).available).toBe(true)
  })

  afterEach(() => {
    db.close()
    rmSync(dir, { recursive: true, force: true })
  })

  /** Stores messages with the given 3-d vectors; returns their ids. */
  function seed(sessionId: string, vectors: number[][]): number[] {
    const store = new SessionStore(db)
    store.create({ id: sessionId })
    const messages = store.appendMany(sessionId, vectors.map((_, i) => ({ role: 'user' as const, content: `m${i}` })))
    storeBatch(db, identity, messages.map((m) => ({ id: m.id, content: m.content ?? '' })), new Map(messages.map((m, i) => [m.id, Float32Array.from(vectors[i])])))
    return messages.map((m) => m.id)
  }

  it('returns the nearest messages first, ranked from 1, with their sessions', () => {
    prepareIndex(db, identity)
    const [east, north] = seed('a', [
      [1, 0, 0],
      [0, 1, 0]
    ])
    const [northEast] = seed('b', [[0.7, 0.7, 0]])
    const found = semanticCandidates(db, Float32Array.from([1, 0.1, 0]), 3)
    expect(found.map((c) => [c.messageId, c.sessionId, c.rank])).toEqual([
      [east, 'a', 1],
      [northEast, 'b', 2],
      [north, 'a', 3]
    ])
    expect(found[0].distance).toBeLessThan(found[1].distance)
    expect(semanticCandidates(db, Float32Array.from([1, 0.1, 0]), 1)).toHaveLength(1)
  })

  it('leaves out the current conversation and still returns k', () => {
    prepareIndex(db, identity)
    seed('current', [
      [1, 0, 0],
      [0.99, 0.01, 0]
    ])
    const others = seed('other', [
      [0.5, 0.5, 0],
      [0, 1, 0]
    ])
    const found = semanticCandidates(db, Float32Array.from([1, 0, 0]), 2, { excludeSessionId: 'current' })
    expect(found.map((c) => c.messageId)).toEqual(others)
    expect(found.map((c) => c.rank)).toEqual([1, 2])
  })

  it('is empty without an index, or for a query of another size', () => {
    expect(semanticCandidates(db, Float32Array.from([1, 0, 0]), 3)).toEqual([])
    prepareIndex(db, identity)
    seed('a', [[1, 0, 0]])
    expect(semanticCandidates(db, Float32Array.from([1, 0, 0, 0]), 3)).toEqual([])
    expect(semanticCandidates(db, Float32Array.from([1, 0, 0]), 0)).toEqual([])
  })
})

describe('unpackedPath', () => {
  it('points a path inside app.asar at app.asar.unpacked, and leaves others alone', () => {
    expect(unpackedPath('/opt/Cairn/resources/app.asar/node_modules/sqlite-vec-linux-x64/vec0.so')).toBe('/opt/Cairn/resources/app.asar.unpacked/node_modules/sqlite-vec-linux-x64/vec0.so')
    expect(unpackedPath('C:\\Cairn\\resources\\app.asar\\node_modules\\sqlite-vec-windows-x64\\vec0.dll')).toBe('C:\\Cairn\\resources\\app.asar.unpacked\\node_modules\\sqlite-vec-windows-x64\\vec0.dll')
    expect(unpackedPath('/work/node_modules/sqlite-vec-linux-x64/vec0.so')).toBe('/work/node_modules/sqlite-vec-linux-x64/vec0.so')
  })
})

describe('fuseSessions', () => {
  const found = (sessionId: string, messageId: number, rank: number) => ({ sessionId, messageId, rank, distance: rank / 10 })

  it('ranks a conversation both searches found above ones only one found, by its closest message', () => {
    const fused = fuseSessions(['k1', 'both', 'k3'], [found('m1', 10, 1), found('both', 20, 2), found('m1', 11, 3), found('both', 21, 4)])
    expect(fused.map((f) => f.sessionId)).toEqual(['both', 'k1', 'm1', 'k3'])
    expect(fused[0]).toMatchObject({ keywordRank: 2, meaningRank: 2, meaningMessageId: 20 })
    expect(fused.find((f) => f.sessionId === 'm1')).toMatchObject({ keywordRank: null, meaningRank: 1, meaningMessageId: 10 })
    expect(fused.find((f) => f.sessionId === 'k3')).toMatchObject({ keywordRank: 3, meaningRank: null, meaningMessageId: null })
  })

  it('keeps the keyword order when nothing was found by meaning', () => {
    expect(fuseSessions(['a', 'b', 'c'], []).map((f) => f.sessionId)).toEqual(['a', 'b', 'c'])
  })
})
