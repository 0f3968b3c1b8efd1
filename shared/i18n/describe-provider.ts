import type { ProviderProblem } from '../ipc/domain'
import type { Translate } from './index'

/** A provider problem (no URL, no model, no key) as the faces word it. */
export function describeProviderProblem(problem: Pick<ProviderProblem, 'code' | 'baseURL'>, t: Translate): string {
  return t(`setup.problem.${problem.code}`, { baseURL: problem.baseURL })
}

/** The problem and every other place it can be fixed (config.json, the environment): for the CLI and logs. */
export function describeProviderProblemEverywhere(problem: Pick<ProviderProblem, 'code' | 'baseURL'>, t: Translate): string {
  return t('error.withHint', { failure: describeProviderProblem(problem, t), hint: t(`setup.fixElsewhere.${problem.code}`) })
}
