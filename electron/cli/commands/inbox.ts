import type { Proposal } from '../../../shared/proposals'
import { wordedFailure } from '../worded-failure'
import { Inbox, type DecisionResult } from '../../core/learning/host/proposal-apply'
import { LearningState } from '../../core/learning/host/learning-state'
import { queueRereview } from '../../core/learning/host/rereview'
import { parseCommandArgs } from '../args'
import { cliLearning } from '../learning'
import { CliFailure, printJson, UsageError, type CliIO } from '../io'
import { describeTarget, proposalDetail, proposalLine } from './inbox-format'
import type { CliCommand, CliContext } from './types'

const USAGE = `Usage: cairn [--home DIR] inbox [--json]
       cairn [--home DIR] inbox show <id> [--json]
       cairn [--home DIR] inbox approve <id> [--text TEXT] | --all [--review ID]
       cairn [--home DIR] inbox reject <id>
       cairn [--home DIR] inbox rereview <id> [--wait]

Changes learning wants to make that wait for you: every change under learning.mode "ask", and
changes to what you wrote or pinned under "auto". Nothing here is applied until you approve it.

  (no action)   the pending proposals: id, what they change, age, why they wait, and STALE
                when their target changed since (a stale proposal is never applied)
  show <id>     the change as a unified diff (before → after)
  approve <id>  apply it (--text: your own text instead of the proposed one)
  approve --all apply every pending proposal, oldest first (--review ID: only that review's);
                stale ones are left waiting
  reject <id>   say no: it is not applied, and later reviews do not propose it again
  rereview <id> a stale proposal is set aside and its conversation reviewed again, so the change
                is proposed for the target as it is now (--wait: wait for that review)

Switch the mode in config.json: { "learning": { "mode": "auto" | "ask" | "off" } }
`

export const inboxCommand: CliCommand = {
  usage: USAGE,
  async run(ctx, args) {
    const { values, positionals } = parseCommandArgs(args, {
      json: { type: 'boolean' },
      all: { type: 'boolean' },
      review: { type: 'string' },
      text: { type: 'string' },
      wait: { type: 'boolean' }
    })
    const [action, idText, ...extra] = positionals
    if (extra.length) throw new UsageError(`Unexpected argument "${extra[0]}".`)
    if (values.review !== undefined && !values.all) throw new UsageError('--review goes with approve --all.')
    if (values.text !== undefined && (action !== 'approve' || values.all)) throw new UsageError('--text goes with approve <id>.')
    const inbox = new Inbox(await ctx.core())
    switch (action) {
      case undefined:
        if (idText !== undefined || values.all) throw new UsageError('Name an action: show, approve or reject.')
        return list(ctx.io, inbox, Boolean(values.json))
      case 'show': {
        const proposal = found(inbox, parseId(idText))
        if (values.json) printJson(ctx.io, proposal)
        else ctx.io.out(`${proposalDetail(proposal, ctx.io.isTTY)}\n`)
        return 0
      }
      case 'approve':
        if (values.all) {
          if (idText !== undefined) throw new UsageError('Give either an id or --all, not both.')
          return approveAll(ctx.io, inbox, values.review, Boolean(values.json))
        }
        return decided(ctx.io, await inbox.approve(parseId(idText), values.text), Boolean(values.json))
      case 'rereview':
        return rereview(ctx, inbox, parseId(idText), Boolean(values.wait), Boolean(values.json))
      case 'reject':
        return decided(ctx.io, await inbox.reject(parseId(idText)), Boolean(values.json))
      default:
        throw new UsageError(`Unknown action "${action}". Use show, approve, reject or rereview.`)
    }
  }
}

function list(io: CliIO, inbox: Inbox, json: boolean): number {
  const pending = inbox.list({ states: ['pending'], limit: 500, oldestFirst: true })
  if (json) {
    printJson(io, pending)
    return 0
  }
  if (pending.length === 0) {
    io.out('Nothing waits in the Inbox.\n')
    return 0
  }
  const now = Date.now()
  for (const proposal of pending) io.out(`${proposalLine(proposal, now)}\n`)
  io.out(`\n${pending.length} waiting. See one: cairn inbox show <id>. Decide: cairn inbox approve <id> | --all, cairn inbox reject <id>\n`)
  return 0
}

async function approveAll(io: CliIO, inbox: Inbox, reviewId: string | undefined, json: boolean): Promise<number> {
  const results = await inbox.approveAll(reviewId)
  if (json) {
    printJson(io, results)
    return results.every((result) => result.ok) ? 0 : 1
  }
  if (results.length === 0) {
    io.out(reviewId ? `Nothing from review ${reviewId} waits in the Inbox.\n` : 'Nothing waits in the Inbox.\n')
    return 0
  }
  for (const result of results) {
    if (result.ok) io.out(`${decisionLine(result.proposal)}\n`)
    else io.err(`cairn: ${result.error}\n`)
  }
  const left = results.filter((result) => !result.ok).length
  if (left) io.err(`cairn: ${left} of ${results.length} ${left === 1 ? 'was' : 'were'} not applied and still wait${left === 1 ? 's' : ''} in the Inbox.\n`)
  return left ? 1 : 0
}

/** Prints a decision; a refused one is a failure (exit 1) with its reason. */
function decided(io: CliIO, result: DecisionResult, json: boolean): number {
  if (!result.ok) throw new CliFailure(result.error)
  if (json) printJson(io, result)
  else io.out(`${decisionLine(result.proposal, result.ledgerEntry?.id)}\n`)
  return 0
}

function decisionLine(proposal: Proposal, ledgerId = proposal.ledgerId ?? undefined): string {
  const what = describeTarget(proposal)
  if (proposal.state === 'rejected') return `Rejected #${proposal.id}: ${what}. Later reviews will not propose it again.`
  const how = proposal.state === 'edited' ? 'Approved with your text' : 'Approved'
  return ledgerId !== undefined ? `${how} #${proposal.id}: ${what} (timeline #${ledgerId}; undo with: cairn revert ${ledgerId})` : `${how} #${proposal.id}: ${what} (nothing needed changing)`
}

function parseId(text: string | undefined): number {
  if (text === undefined) throw new UsageError('Give the proposal id (see: cairn inbox).')
  const match = /^#?(\d+)$/.exec(text)
  if (!match) throw new UsageError(`"${text}" is not a proposal id (a number, as cairn inbox lists them).`)
  return Number(match[1])
}

function found(inbox: Inbox, id: number): Proposal {
  const proposal = inbox.get(id)
  if (!proposal) throw wordedFailure('proposal.missing', { id }, 'cairn inbox')
  return proposal
}

/** Sets a stale proposal aside and queues a fresh review of where it came from. */
async function rereview(ctx: CliContext, inbox: Inbox, id: number, wait: boolean, json: boolean): Promise<number> {
  const result = await inbox.supersede(id)
  if (!result.ok) return decided(ctx.io, result, json)
  const core = await ctx.core()
  const learning = cliLearning(core, ctx.env, ctx.io, { wait, json: false })
  const reviewId = queueRereview(result.proposal, { loop: learning.loop, host: learning.host, state: new LearningState(core.db), sessionExists: (sessionId) => core.sessions.get(sessionId) !== null })
  if (json) printJson(ctx.io, { proposal: result.proposal, reviewId })
  else ctx.io.out(reviewId ? `Set #${id} aside; reviewing it again (review ${reviewId}).\n` : `Set #${id} aside; its conversation is gone, so there is nothing to review again.\n`)
  if (reviewId && wait) await learning.host.wait(reviewId)
  await learning.finish()
  return 0
}
