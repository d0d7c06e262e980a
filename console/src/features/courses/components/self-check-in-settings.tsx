import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SelfCheckInRules } from '@portal/contracts/courses/course.events';
import { ApiError } from '../../../lib/api-client.ts';
import { useProfile } from '../../../lib/profile.ts';
import { useSession } from '../../../lib/session.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { useConfigureSelfCheckIn } from '../api/configure-self-check-in.ts';

const DEFAULT_RADIUS = 150;

/**
 * How members check themselves in on the room code (issue 23), for whoever manages the course:
 * optionally only within a radius of a place (the partner's registered shop to start with), and
 * optionally one member per device per round. The server checks both on every check-in.
 */
export function SelfCheckInSettings({ courseId, rules }: { courseId: string; rules: SelfCheckInRules }) {
  const { t } = useTranslation();
  const toast = useToast();
  const id = useId();
  const { user } = useSession();
  const shop = useProfile(user?.id ?? '').data?.member?.company ?? null;
  const save = useConfigureSelfCheckIn(courseId);
  const [located, setLocated] = useState(rules.location !== null);
  const [latitude, setLatitude] = useState(String(rules.location?.latitude ?? shop?.shopLatitude ?? ''));
  const [longitude, setLongitude] = useState(String(rules.location?.longitude ?? shop?.shopLongitude ?? ''));
  const [radius, setRadius] = useState(String(rules.location?.radiusMetres ?? DEFAULT_RADIUS));
  const [onePerDevice, setOnePerDevice] = useState(rules.onePerDevice);
  const [errors, setErrors] = useState<Record<string, string>>({});

  const useShop = () => {
    if (!shop) return;
    setLatitude(String(shop.shopLatitude));
    setLongitude(String(shop.shopLongitude));
  };
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setErrors({});
    const number = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));
    const body: SelfCheckInRules = {
      location: located
        ? { latitude: number(latitude), longitude: number(longitude), radiusMetres: number(radius) }
        : null,
      onePerDevice,
    };
    try {
      toast('success', (await save.mutateAsync(body)).message);
    } catch (error) {
      if (error instanceof ApiError) {
        setErrors((error.body as { errors?: Record<string, string> }).errors ?? {});
        toast('error', error.message);
      } else {
        toast('error', t('selfCheckInSettings.failed'));
      }
    }
  };
  const field = (name: string, label: string, value: string, set: (value: string) => void) => (
    <div className={`field${errors[`location.${name}`] ? ' invalid' : ''}`}>
      <label htmlFor={`${id}-${name}`}>{label}</label>
      <input
        id={`${id}-${name}`}
        inputMode="decimal"
        value={value}
        onChange={(event) => set(event.target.value)}
        aria-invalid={Boolean(errors[`location.${name}`])}
        aria-describedby={errors[`location.${name}`] ? `${id}-${name}-error` : undefined}
      />
      {errors[`location.${name}`] && (
        <span id={`${id}-${name}-error`} className="field-error">
          {errors[`location.${name}`]}
        </span>
      )}
    </div>
  );
  return (
    <form className="card form-card self-check-in-settings" onSubmit={(event) => void submit(event)} noValidate>
      <h2>{t('selfCheckInSettings.title')}</h2>
      <p className="muted">{t('selfCheckInSettings.explain')}</p>
      <label className="checkbox">
        <input type="checkbox" checked={located} onChange={(event) => setLocated(event.target.checked)} />
        {t('selfCheckInSettings.located')}
      </label>
      {located && (
        <>
          <div className="field-row">
            {field('latitude', t('selfCheckInSettings.latitude'), latitude, setLatitude)}
            {field('longitude', t('selfCheckInSettings.longitude'), longitude, setLongitude)}
            {field('radiusMetres', t('selfCheckInSettings.radius'), radius, setRadius)}
          </div>
          {shop && (
            <button type="button" className="button" onClick={useShop}>
              {t('selfCheckInSettings.useShop')}
            </button>
          )}
        </>
      )}
      <label className="checkbox">
        <input type="checkbox" checked={onePerDevice} onChange={(event) => setOnePerDevice(event.target.checked)} />
        {t('selfCheckInSettings.onePerDevice')}
      </label>
      <button type="submit" className="button primary" disabled={save.isPending}>
        {t('selfCheckInSettings.save')}
      </button>
    </form>
  );
}
