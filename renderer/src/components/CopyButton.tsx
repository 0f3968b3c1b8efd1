import { useEffect, useRef, useState } from 'react'
import { useT } from '../app/context'
import { Icon } from './Icon'

/** Copies text to the clipboard and says so for a moment. */
export function CopyButton({ text, compact = false, label }: { text: string; compact?: boolean; label?: string }): React.JSX.Element {
  const t = useT()
  const [copied, setCopied] = useState(false)
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)
  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current)
  }, [])
  const copy = async (): Promise<void> => {
    try {
      await navigator.clipboard.writeText(text)
      setCopied(true)
      if (timer.current) clearTimeout(timer.current)
      timer.current = setTimeout(() => setCopied(false), 1500)
    } catch {
      setCopied(false)
    }
  }
  const name = copied ? t('common.copied') : (label ?? t('common.copy'))
  return (
    <button type="button" className={compact ? 'icon-button small' : 'ghost-button small'} onClick={() => void copy()} aria-label={name} title={name}>
      <Icon name={copied ? 'check' : 'copy'} size={compact ? 15 : 16} />
      {compact ? null : <span>{name}</span>}
    </button>
  )
}
