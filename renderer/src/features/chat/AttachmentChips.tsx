import { formatBytes } from '../../../../shared/attachments'
import type { AttachmentView } from '../../../../shared/ipc/domain'
import { useT } from '../../app/context'
import { Icon } from '../../components/Icon'

export interface ChipFile extends Pick<AttachmentView, 'name' | 'kind' | 'size'> {
  key?: string
  textChars?: number | null
  truncated?: boolean
  /** A data: URL for an image's thumbnail (the composer has the bytes; a sent message does not). */
  preview?: string
}

/** Attached files as chips: on the composer (each removable before sending) and on a sent message. */
export function AttachmentChips({ files, onRemove }: { files: ChipFile[]; onRemove?: (index: number) => void }): React.JSX.Element | null {
  const t = useT()
  if (!files.length) return null
  return (
    <ul className="attachment-chips" aria-label={t('attachments.listLabel')}>
      {files.map((file, index) => (
        <li key={file.key ?? `${index}:${file.name}`} className={`attachment-chip ${file.kind}`} title={file.truncated && file.textChars ? t('attachments.cut', { chars: file.textChars }) : file.name}>
          {file.preview ? <img className="attachment-thumb" src={file.preview} alt="" /> : <Icon name={file.kind === 'image' ? 'image' : 'file'} size={15} />}
          <span className="attachment-name">{file.name}</span>
          <span className="attachment-meta">
            {t(`attachments.kind.${file.kind}`)} · {formatBytes(file.size)}
          </span>
          {onRemove ? (
            <button type="button" className="attachment-remove" onClick={() => onRemove(index)} aria-label={t('attachments.remove', { name: file.name })}>
              <Icon name="close" size={12} />
            </button>
          ) : null}
        </li>
      ))}
    </ul>
  )
}
