import { useCourseActions } from './use-course-actions.tsx';
import { useCourseSearch } from './use-course-search.ts';
import { CoursesHeading } from './courses-heading.tsx';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';
import { useSession } from '../../../lib/session.tsx';
import { CourseCard } from './course-card.tsx';
import { Pager } from '../../../components/ui/pager.tsx';
import { LoadFailed, Loading } from '../../../components/status-views.tsx';
import { SearchField, SortOrder } from '../../../components/ui/list-toolbar.tsx';

/**
 * The course list (/courses, spec 001 section 2.1) for admins and partners: search over topic and
 * description as the user types, sort and order, pages of 9, all run by the query API.
 */
export function CourseListPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const { typed, setTyped, order, setOrder, setPage, filters, list } = useCourseSearch({
    sort: 'participants',
    order: 'desc',
  });
  const actions = useCourseActions();

  const data = list.data;
  return (
    <section className="courses">
      <CoursesHeading title={t('screen.courses')} />
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
                statusBusy={actions.statusBusy(course._id)}
                onToggleStatus={() => actions.toggle(course)}
                onDelete={() => actions.askDelete(course._id)}
              />
            ))}
          </div>
          {data.pages > 1 && <Pager page={data.page} pages={data.pages} onPage={setPage} />}
        </>
      )}
      {actions.dialogs}
    </section>
  );
}
