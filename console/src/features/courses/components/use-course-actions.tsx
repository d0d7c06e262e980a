import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useCourseStatus } from '../api/change-course-status.ts';
import { useDeleteCourse } from '../api/delete-course.ts';

/** Spec 001 section 9: the status toast stays 2 seconds. */
const STATUS_TOAST_MS = 2000;

/**
 * What the course list and the report both do to a course: make it public or private (a toast),
 * delete it after asking, and say why when the server refuses. `dialogs` renders the question
 * and the refusal.
 */
export function useCourseActions() {
  const { t } = useTranslation();
  const toast = useToast();
  const status = useCourseStatus();
  const remove = useDeleteCourse();
  const [deleting, setDeleting] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const fail = (error: unknown, refused: string, failed: string) =>
    setFailure(error instanceof ApiError ? error.body.message || refused : failed);

  function toggle(course: { _id: string; status: 'public' | 'private' }) {
    const next = course.status === 'public' ? 'private' : 'public';
    status.mutate(
      { id: course._id, status: next },
      {
        onSuccess: () => toast('success', t('courses.statusToast', { status: next.toUpperCase() }), STATUS_TOAST_MS),
        onError: (error) => fail(error, t('courses.statusFailed'), t('courses.statusError')),
      },
    );
  }

  function confirmDelete() {
    const id = deleting!;
    setDeleting(null);
    remove.mutate(id, {
      onSuccess: () => toast('success', t('courses.deleted')),
      onError: (error) => fail(error, t('courses.deleteFailed'), t('courses.deleteError')),
    });
  }

  const dialogs = (
    <>
      {deleting && (
        <ConfirmDialog
          title={t('courses.confirmDelete.title')}
          confirmLabel={t('courses.confirmDelete.yes')}
          destructive
          onCancel={() => setDeleting(null)}
          onConfirm={confirmDelete}
        >
          {t('courses.confirmDelete.body')}
        </ConfirmDialog>
      )}
      {failure && (
        <Dialog tone="error" title={t('courses.errorTitle')} onClose={() => setFailure(null)}>
          {failure}
        </Dialog>
      )}
    </>
  );

  return {
    toggle,
    askDelete: setDeleting,
    statusBusy: (id: string) => status.isPending && status.variables?.id === id,
    dialogs,
  };
}
