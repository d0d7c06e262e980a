import { useTranslation } from 'react-i18next';
import { Avatar } from '../../../components/ui/avatar.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { useParticipants } from '../api/get-participants.ts';
import { Loading } from '../../../components/status-views.tsx';

/**
 * "Participants for" a course (spec 001 section 2.5): everyone scanned in any of its rounds, with
 * their photo, name and e-mail. On error it says so; it never makes people up.
 */
export function ParticipantsModal(props: { courseId: string; topic: string; onClose: () => void }) {
  const { t } = useTranslation();
  const participants = useParticipants(props.courseId);
  const list = participants.data?.participants;
  return (
    <Modal label={t('report.participantsFor', { topic: props.topic })} onClose={props.onClose}>
      <h2>{t('report.participantsFor', { topic: props.topic })}</h2>
      {participants.isPending ? (
        <Loading />
      ) : participants.isError || !list ? (
        <p role="alert">{t('report.participantsFailed')}</p>
      ) : list.length === 0 ? (
        <p className="muted">{t('report.noParticipants')}</p>
      ) : (
        <ul className="participants">
          {list.map((person) => (
            <li key={person._id}>
              <Avatar src={person.avatarUrl} name={person.fullName || person.username || '?'} />
              <span>
                <strong>{person.fullName || person.username || 'N/A'}</strong>
                <br />
                <span className="muted">{person.email || t('report.noEmail')}</span>
              </span>
            </li>
          ))}
        </ul>
      )}
    </Modal>
  );
}
