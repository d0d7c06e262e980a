import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useSession } from '../../../lib/session.tsx';
import { useDebounced } from '../../../lib/use-debounced.ts';
import { usePage } from '../../../lib/use-page.ts';
import { type CourseFilters, useCourseList, useCourseStatus, useDeleteCourse } from '../api/courses.ts';
import { CourseCard } from './course-card.tsx';
import { Pager } from '../../../components/ui/pager.tsx';
import { LoadFailed, Loading } from '../../../components/status-views.tsx';
import { SearchField, SortOrder } from '../../../components/ui/list-toolbar.tsx';

/** Spec 001 section 9: the status toast stays 2 seconds. */
const STATUS_TOAST_MS = 2000;

/**
 * The course list (/courses, spec 001 section 2.1) for admins and partners: search over topic and
 * description as the user types, sort and order, pages of 9, all run by the query API.
 */
export function CourseListPage() {
  const { t } = useTranslation();
  const toast = useToast();
  const { user } = useSession();
  const [typed, setTyped] = useState('');
  const search = useDebounced(typed.trim());
  const [order, setOrder] = useState<Pick<CourseFilters, 'sort' | 'order'>>({ sort: 'participants', order: 'desc' });
  const [page, setPage] = usePage(JSON.stringify([search, order]));
  const filters: CourseFilters = { ...order, search: search || undefined, page };
  const list = useCourseList(filters);
  const status = useCourseStatus();
  const remove = useDeleteCourse();
  const [deleting, setDeleting] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const errorText = (error: unknown, refused: string, failed: string) =>
    error instanceof ApiError ? error.body.message || refused : failed;

  function toggle(id: string, current: 'public' | 'private') {
    const next = current === 'public' ? 'private' : 'public';
    status.mutate(
      { id, status: next },
      {
        onSuccess: () => toast('success', t('courses.statusToast', { status: next.toUpperCase() }), STATUS_TOAST_MS),
        onError: (error) => setFailure(errorText(error, t('courses.statusFailed'), t('courses.statusError'))),
      },
    );
  }

  function confirmDelete() {
    const id = deleting!;
    setDeleting(null);
    remove.mutate(id, {
      onSuccess: () => toast('success', t('courses.deleted')),
      onError: (error) => setFailure(errorText(error, t('courses.deleteFailed'), t('courses.deleteError'))),
    });
  }

  const data = list.data;
  return (
    <section className="courses">
      <div className="page-heading">
        <h1>{t('screen.courses')}</h1>
        <Link className="button primary" to="/createcourse">
          {t('courses.add')}
        </Link>
      </div>
      <div className="toolbar">
        <SearchField label={t('courses.search')} value={typed} onChange={setTyped} />
        <SortOrder
          sorts={(['createdAt', 'topic', 'participants'] as const).map(
            (sort) => [sort, t(`courses.sort.${sort}`)] as const,
          )}
          value={order}
          onChange={setOrder}
        />
      </div>
      {list.isPending ? (
        <Loading />
      ) : list.isError || !data ? (
        <LoadFailed
          message={(list.error instanceof ApiError && list.error.body.message) || t('courses.loadFailed')}
          onRetry={list.refetch}
          retry="settings.retry"
        />
      ) : data.courses.length === 0 ? (
        <p className="card empty">{filters.search ? t('courses.noMatch') : t('courses.empty')}</p>
      ) : (
        <>
          <div className="course-grid" aria-busy={list.isFetching}>
            {data.courses.map((course) => (
              <CourseCard
                key={course._id}
                course={course}
                canManage={user?.role === 'admin' || course.creator === user?.id}
                statusBusy={status.isPending && status.variables?.id === course._id}
                onToggleStatus={() => toggle(course._id, course.status)}
                onDelete={() => setDeleting(course._id)}
              />
            ))}
          </div>
          {data.pages > 1 && <Pager page={data.page} pages={data.pages} onPage={setPage} />}
        </>
      )}
      {deleting && (
        <ConfirmDialog
          title={t('courses.confirmDelete.title')}
          confirmLabel={t('courses.confirmDelete.yes')}
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
    </section>
  );
}
