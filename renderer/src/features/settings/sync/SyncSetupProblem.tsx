import { describeFailure } from '../../../../../shared/i18n/describe-errors'
import { useT } from '../../../app/context'
import { Notice } from '../../../components/Feedback'
import { describeSyncProblem } from './sync-words'
import type { SyncSetupFailure } from './use-sync-setup'

/** The field whose change fixes each kind of failure. */
const FIELD_TO_FIX = { unauthorized: 'token', network: 'remote', remote_rejected: 'remote', unsupported_remote: 'remote', not_set_up: 'remote', failed: 'remote', busy: null } as const

/** Why the first sync failed, in the user's words, with the cause's specifics (the URL, ECONNREFUSED, HTTP 401) and the one thing to do. */
export function SyncSetupProblem({ failure, onFix }: { failure: SyncSetupFailure; onFix(field: 'remote' | 'token'): void }): React.JSX.Element {
  const t = useT()
  if (typeof failure === 'string') return <Notice tone="error">{failure}</Notice>
  const field = FIELD_TO_FIX[failure.code]
  const cause = failure.key ? describeFailure({ code: failure.code, message: failure.message, key: failure.key, params: failure.params }, t) : null
  return (
    <Notice
      tone="error"
      actions={
        field ? (
          <button type="button" className="ghost-button small" onClick={() => onFix(field)}>
            {field === 'token' ? t('sync.fix.editToken') : t('sync.fix.editRemote')}
          </button>
        ) : null
      }
    >
      {/* The cause names the address and what went wrong there (ECONNREFUSED, HTTP 404); a refused token is said in the form's words. */}
      <p>{cause && failure.code !== 'unauthorized' ? cause : describeSyncProblem(failure.code, failure.message, t)}</p>
      <p>{t(`sync.fix.${failure.code}`)}</p>
    </Notice>
  )
}
