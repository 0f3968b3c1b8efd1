import { createHash } from 'node:crypto'
import type { Embedder } from '../provider/embeddings'
import { relevantSkills, type SkillHinter } from './skill-hints'
import type { IndexSkill } from './skills-index'

export interface MeaningHintOptions {
  /**
   * Cosine similarity a skill's description must reach. Embedding models differ (related texts score
   * about 0.4–0.6 on OpenAI's, 0.6–0.8 on nomic-embed-text); 0.5 with the margin below keeps weak
   * matches out on both and the lexical rule still adds a skill named by the message's words.
   */
  threshold?: number
  /** Hints after the best stay within this much of it: one clear match is not joined by loose ones. */
  margin?: number
  /** The longest a turn waits for the embedder before hinting by words alone. */
  timeoutMs?: number
  /** After a failure, how long the embedder is left alone (a broken endpoint must not cost every turn its wait). */
  pauseAfterFailureMs?: number
  limit?: number
  now?: () => number
  /** Where skill vectors are kept (default: one cache for the process). */
  cache?: Map<string, Float32Array>
}

const CACHE_LIMIT = 4000

/** Skill vectors by embedder and content hash, shared by every conversation of this process: a catalogue is embedded once, not per conversation. */
const processVectors = new Map<string, Float32Array>()

/**
 * Hints by meaning when `search.embeddingModel` is set: the message and each skill's name and
 * description are embedded (descriptions cached by model and content hash, so a catalogue is embedded
 * once), and skills whose cosine similarity passes the threshold are hinted, joined by the lexical
 * rule's picks. Never delays a turn by more than `timeoutMs`: a slow or failing embedder gives the
 * lexical hints, and a description fill that outlives the wait goes on in the background for the next turn.
 */
export class MeaningSkillHinter implements SkillHinter {
  private readonly vectors: Map<string, Float32Array>
  private pausedUntil = 0
  /** A ranking that outlived its wait is still running: the next turn does not start another. */
  private running = false
  private readonly threshold: number
  private readonly margin: number
  private readonly timeoutMs: number
  private readonly pauseMs: number
  private readonly limit: number
  private readonly now: () => number

  constructor(private readonly embedder: () => Embedder | null, options: MeaningHintOptions = {}) {
    this.threshold = options.threshold ?? 0.5
    this.margin = options.margin ?? 0.1
    this.timeoutMs = options.timeoutMs ?? 1500
    this.pauseMs = options.pauseAfterFailureMs ?? 60_000
    this.limit = options.limit ?? 3
    this.now = options.now ?? Date.now
    this.vectors = options.cache ?? processVectors
  }

  async hint(message: string, catalogue: IndexSkill[], signal?: AbortSignal): Promise<IndexSkill[]> {
    const lexical = relevantSkills(message, catalogue, this.limit)
    const skills = catalogue.filter((skill) => !skill.disabled)
    const embedder = this.embedder()
    if (!embedder || !skills.length || !message.trim() || this.running || this.now() < this.pausedUntil || signal?.aborted) return lexical
    const byMeaning = await this.withinTime(this.rank(embedder, message, skills))
    if (!byMeaning) return lexical
    const picked = [...byMeaning, ...lexical.filter((skill) => !byMeaning.includes(skill))]
    return picked.slice(0, this.limit)
  }

  /** The skills by meaning, best first, or null when the embedder failed (then paused a while). */
  private async rank(embedder: Embedder, message: string, skills: IndexSkill[]): Promise<IndexSkill[] | null> {
    const identity = `${embedder.settings.baseURL}\u0000${embedder.settings.model}\u0000${embedder.settings.dimensions}`
    const keys = skills.map((skill) => `${identity}\u0000${contentHash(skillText(skill))}`)
    const missing = skills.filter((_, i) => !this.vectors.has(keys[i]))
    this.running = true
    try {
      const vectors = await embedder.embed([message, ...missing.map(skillText)])
      missing.forEach((skill, i) => this.remember(`${identity}\u0000${contentHash(skillText(skill))}`, vectors[i + 1]))
      const query = vectors[0]
      const scored = skills
        .map((skill, i) => ({ skill, similarity: cosine(query, this.vectors.get(keys[i])) }))
        .filter((s) => s.similarity >= this.threshold)
        .sort((a, b) => b.similarity - a.similarity)
      const best = scored[0]?.similarity ?? 0
      return scored.filter((s) => s.similarity >= best - this.margin).map((s) => s.skill)
    } catch {
      this.pausedUntil = this.now() + this.pauseMs
      return null
    } finally {
      this.running = false
    }
  }

  /**
   * The ranking if it comes within the time bound; otherwise null, the embedder paused like a failing
   * one (a model that slow would cost every turn the whole wait), and the ranking still fills the cache when it ends.
   */
  private withinTime(ranking: Promise<IndexSkill[] | null>): Promise<IndexSkill[] | null> {
    let timer: ReturnType<typeof setTimeout> | undefined
    const late = new Promise<null>((resolve) => {
      timer = setTimeout(() => {
        this.pausedUntil = this.now() + this.pauseMs
        resolve(null)
      }, this.timeoutMs)
      timer.unref?.()
    })
    return Promise.race([ranking, late]).finally(() => clearTimeout(timer))
  }

  private remember(key: string, vector: Float32Array | undefined): void {
    if (!vector) return
    if (this.vectors.size >= CACHE_LIMIT) this.vectors.delete(this.vectors.keys().next().value as string)
    this.vectors.set(key, vector)
  }
}

/** What is embedded for a skill: its name in words and its description. */
function skillText(skill: IndexSkill): string {
  return `${skill.name.replace(/[-_.]/g, ' ')}: ${skill.description}`
}

function contentHash(text: string): string {
  return createHash('sha256').update(text).digest('hex')
}

function cosine(a: Float32Array, b: Float32Array | undefined): number {
  if (!b || a.length !== b.length) return 0
  let dot = 0
  let normA = 0
  let normB = 0
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i]
    normA += a[i] * a[i]
    normB += b[i] * b[i]
  }
  return normA && normB ? dot / Math.sqrt(normA * normB) : 0
}
