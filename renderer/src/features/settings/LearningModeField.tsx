import { useId } from 'react'
import type { LearningMode } from '../../../../shared/config'
import type { MessageKey } from '../../../../shared/i18n'
import { useApp, useSettings, useT } from '../../app/context'

const modeWords: Record<LearningMode, { label: MessageKey; hint: MessageKey }> = {
  auto: { label: 'settings.learning.mode.auto', hint: 'settings.learning.mode.autoHint' },
  ask: { label: 'settings.learning.mode.ask', hint: 'settings.learning.mode.askHint' },
  off: { label: 'settings.learning.mode.off', hint: 'settings.learning.mode.offHint' }
}

/** In the order shown; the record above makes a new mode fail to compile until it is worded. */
const learningModes = Object.keys(modeWords) as LearningMode[]

/** Auto / Ask / Off, each with what it means, saved at once through `learning.setMode`. */
export function LearningModeField({ mode }: { mode: LearningMode }): React.JSX.Element {
  const t = useT()
  const id = useId()
  const { settings } = useApp()
  const saving = useSettings((s) => s.saving)
  return (
    <div className="field">
      <span className="field-label" id={id}>
        {t('settings.learning.mode')}
      </span>
      <div className="mode-choices" role="radiogroup" aria-labelledby={id}>
        {learningModes.map((choice) => (
          <button
            key={choice}
            type="button"
            role="radio"
            aria-checked={choice === mode}
            className={choice === mode ? 'mode-choice active' : 'mode-choice'}
            disabled={saving}
            onClick={() => choice !== mode && void settings.getState().setLearningMode(choice)}
          >
            <span className="mode-choice-dot" aria-hidden="true" />
            <span className="mode-choice-text">
              <span className="mode-choice-label">{t(modeWords[choice].label)}</span>
              <span className="mode-choice-hint">{t(modeWords[choice].hint)}</span>
            </span>
          </button>
        ))}
      </div>
    </div>
  )
}
