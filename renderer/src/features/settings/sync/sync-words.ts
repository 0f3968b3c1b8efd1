import type { Translate } from '../../../../../shared/i18n'
import type { SyncProblemCode, SyncStatus } from '../../../../../shared/ipc/contract-sync'

/** A sync problem in the user's words, by its code (the engine's English is shown only for `failed`). */
export function describeSyncProblem(code: SyncProblemCode, message: string, t: Translate): string {
  return code === 'failed' ? t('sync.problem.failed', { message }) : t(`sync.problem.${code}`)
}

/** "Synced 5 minutes ago: 3 changes came in from laptop", or what else the last sync did. */
export function describeLastSync(last: NonNullable<SyncStatus['lastSync']>, when: string, t: Translate): string {
  if (last.received > 0) {
    return last.devices.length
      ? t('sync.last.received', { when, count: last.received, devices: last.devices.join(', ') })
      : t('sync.last.receivedUnnamed', { when, count: last.received })
  }
  if (last.sent > 0) return t('sync.last.sent', { when, count: last.sent })
  return t('sync.last.upToDate', { when })
}

/** The schedules offered, in minutes (0: only at start and after reviews); a value set by hand is offered too. */
export const SYNC_SCHEDULES = [0, 5, 15, 30, 60, 180]

export function describeSchedule(minutes: number, t: Translate): string {
  if (minutes === 0) return t('sync.onlyEvents')
  return minutes % 60 === 0 ? t('sync.everyHours', { count: minutes / 60 }) : t('sync.everyMinutes', { count: minutes })
}

/** The last problem, when it is newer than the last sync that worked (a later success clears it). */
export function currentProblem(status: SyncStatus): SyncStatus['lastError'] {
  const { lastError, lastSync } = status
  if (!lastError || lastError.code === 'busy') return null
  return !lastSync || lastError.at > lastSync.at ? lastError : null
}
