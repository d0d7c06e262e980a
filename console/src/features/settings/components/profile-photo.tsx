import { type ChangeEvent, useEffect, useRef, useState } from 'react';
import { useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useToast } from '../../../components/ui/toast.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useUploadPhoto } from '../api/upload-photo.ts';

const LIMIT = 2 * 1024 * 1024;

/**
 * The profile photo: choose, preview, upload. The upload answers an address that the profile
 * keeps in profile_img when it is saved (spec 000 section 4).
 */
export function ProfilePhoto({ accountId }: { accountId: string }) {
  const { t } = useTranslation();
  const toast = useToast();
  const form = useFormContext<{ profile_img: string | null }>();
  const upload = useUploadPhoto(accountId);
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const saved = form.watch('profile_img');

  // The preview's object URL is released when replaced and when the form goes away.
  const previewUrl = useRef<string | null>(null);
  const showPreview = (url: string | null) => {
    if (previewUrl.current) URL.revokeObjectURL(previewUrl.current);
    previewUrl.current = url;
    setPreview(url);
  };
  useEffect(() => () => void (previewUrl.current && URL.revokeObjectURL(previewUrl.current)), []);

  function choose(event: ChangeEvent<HTMLInputElement>) {
    const chosen = event.target.files?.[0] ?? null;
    setProblem(null);
    setFile(null);
    showPreview(null);
    if (!chosen) return;
    if (chosen.size > LIMIT) return setProblem(t('rules::image.tooLarge'));
    setFile(chosen);
    showPreview(URL.createObjectURL(chosen));
  }

  function send() {
    if (!file) return setProblem(t('rules::image.required'));
    upload.mutate(file, {
      onSuccess: (answer) => {
        form.setValue('profile_img', answer.imageUrl, { shouldDirty: true });
        setFile(null);
        showPreview(null);
        toast('success', answer.message);
      },
      onError: (error) =>
        toast(
          'error',
          error instanceof ApiError ? error.message || t('settings.uploadFailed') : t('settings.uploadError'),
        ),
    });
  }

  const shown = preview ?? saved;
  return (
    <section className="photo">
      {shown ? (
        <img src={shown} alt={t('settings.photo')} width={150} height={150} />
      ) : (
        <div className="photo-empty" aria-hidden="true" />
      )}
      <div className="photo-actions">
        <label className="button">
          {t('settings.choosePhoto')}
          <input type="file" accept="image/*" hidden onChange={choose} aria-describedby="photo-hint" />
        </label>
        <button type="button" className="button primary" disabled={!file || upload.isPending} onClick={send}>
          {upload.isPending ? t('settings.uploading') : t('settings.uploadPhoto')}
        </button>
        <small id="photo-hint" className={problem ? 'field-error' : 'hint'} role={problem ? 'alert' : undefined}>
          {problem ?? t('settings.photoHint')}
        </small>
      </div>
    </section>
  );
}
