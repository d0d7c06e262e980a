import { useCourseActions } from './use-course-actions.tsx';
import { useCourseSearch } from './use-course-search.ts';
import { CoursesHeading } from './courses-heading.tsx';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Pager } from '../../../components/ui/pager.tsx';
import { ApiError, MalformedAnswer } from '../../../lib/api-client.ts';
import { useSession } from '../../../lib/session.tsx';
import type { CourseFilters } from '../api/get-courses.ts';
import { ParticipantsModal } from './participants-modal.tsx';
import { ReportCard } from './report-card.tsx';
import { LoadFailed, Loading } from '../../../components/status-views.tsx';
import { SearchField, SortOrder } from '../../../components/ui/list-toolbar.tsx';

/** Spec 001 section 9: the report pages by 10, newest first. */
const PAGE_SIZE = 10;
const SORTS = ['createdAt', 'topic', 'participants', 'totalAttend', 'totalAbsent'] as const;
const defaults: Pick<CourseFilters, 'sort' | 'order'> = { sort: 'createdAt', order: 'desc' };

/**
 * The attendance overview (/report, spec 001 section 2.5) for admins and partners: search, five
 * sort fields, direction, Reset Filters, pages of 10 (back to 1 on any change), and per course
 * View, Edit, Delete, Make Private/Public and View All Participants. Every count is from scans.
 */
export function ReportPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const { typed, setTyped, order, setOrder, setPage, list } = useCourseSearch(defaults, PAGE_SIZE);
  const actions = useCourseActions();
  const [participantsOf, setParticipantsOf] = useState<{ id: string; topic: string } | null>(null);

  if (!user) return null; // the route lets only admins and partners this far
  const data = list.data;
  return (
    <section className="courses">
      <CoursesHeading title={t('report.title')} />
      <div className="toolbar">
        <SearchField label={t('courses.search')} value={typed} onChange={setTyped} />
        <SortOrder
          sorts={SORTS.map((sort) => [sort, t(`report.sort.${sort}`)] as const)}
          value={order}
          onChange={setOrder}
        />
        <button
          type="button"
          className="button"
          onClick={() => {
            setTyped('');
            setOrder(defaults);
          }}
        >
          {t('report.reset')}
        </button>
      </div>
      {list.isPending ? (
        <Loading />
      ) : list.isError || !data ? (
        <LoadFailed
          message={
            list.error instanceof MalformedAnswer
              ? t('report.invalidAnswer')
              : (list.error instanceof ApiError && list.error.body.message) || t('report.loadFailed')
          }
          onRetry={list.refetch}
          title={t('report.error')}
        />
      ) : data.courses.length === 0 ? (
        <p className="card empty">{t('report.empty')}</p>
      ) : (
        <>
          <div className="course-grid" aria-busy={list.isFetching}>
            {data.courses.map((course) => (
              <ReportCard
                key={course._id}
                course={course}
                canManage={user.role === 'admin' || course.creator === user.id}
                onToggleStatus={() => actions.toggle(course)}
                onDelete={() => actions.askDelete(course._id)}
                onParticipants={() => setParticipantsOf({ id: course._id, topic: course.courseTopic })}
              />
            ))}
          </div>
          {data.pages > 1 && <Pager page={data.page} pages={data.pages} onPage={setPage} spelled />}
        </>
      )}
      {actions.dialogs}
      {participantsOf && (
        <ParticipantsModal
          courseId={participantsOf.id}
          topic={participantsOf.topic}
          onClose={() => setParticipantsOf(null)}
        />
      )}
    </section>
  );
}
