import type { Translate } from '../../../../shared/i18n'
import { describeConnectionTest } from '../../../../shared/i18n/describe'
import type { ConnectionTest } from '../../stores/settings'

/** What a connection test found, in the UI language; a failed request shows the transport's own message. */
export function connectionTestText(test: ConnectionTest, t: Translate): string {
  return test.code === 'request_failed' ? test.message : describeConnectionTest(test, t)
}
