import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { AccountView } from '@portal/contracts/views/account';
import { Modal } from '../../../components/ui/modal.tsx';
import { shortDate } from './short-date.ts';

/** One registration in full (View): everything the person gave, and for a member their attendance history. */
export function RegistrationDetails({ member, onClose }: { member: AccountView; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const date = (iso: string) => shortDate(iso, i18n.language);
  return (
    <Modal label={member.fullName || member.username} onClose={onClose}>
      <h2>{member.fullName || member.username}</h2>
      <dl className="details">
        {(
          [
            [t('registrations.id'), member._id],
            [t('login.username'), member.username],
            [t('form.title'), member.title],
            [t('form.personalId'), member.personalId],
            [t('form.phone'), member.personalPhone],
            [t('form.email'), member.personalEmail],
            [
              t('form.address'),
              [
                member.personalAddress,
                member.personalSubdistrict,
                member.personalDistrict,
                member.personalProvince,
                member.personalPostalCode,
              ]
                .filter(Boolean)
                .join(' '),
            ],
            [t('registrations.role'), t(member.role === 'partner' ? 'registrations.partner' : 'registrations.member')],
            [t('partner.companyName'), member.company?.companyName],
            [t('partner.companyTaxId'), member.company?.companyTaxId],
            [t('partner.companyEmail'), member.company?.companyEmail],
            [t('registrations.date'), date(member.createdAt)],
            [t('registrations.status'), t(`status.${member.status}`)],
          ] as const
        )
          .filter(([, value]) => value)
          .map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
      </dl>
      {member.role === 'member' && (
        <Link className="button" to={`/members/${member._id}`}>
          {t('history.link')}
        </Link>
      )}
    </Modal>
  );
}
