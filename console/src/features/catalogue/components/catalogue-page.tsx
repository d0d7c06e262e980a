import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { Pager } from '../../../components/ui/pager.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useDebounced } from '../../../lib/use-debounced.ts';
import { usePage } from '../../../lib/use-page.ts';
import { type CatalogueAnswer, type CatalogueFilters, useCatalogue } from '../api/get-catalogue.ts';
import { useEnrolment } from '../api/enrolment.ts';
import { CatalogueCard } from './catalogue-card.tsx';
import { LoadFailed, Loading } from '../../../components/status-views.tsx';
import { SearchField } from '../../../components/ui/list-toolbar.tsx';
import { useSession } from '../../../lib/session.tsx';

type Course = CatalogueAnswer['courses'][number];

/**
 * The members' home (/e-market): public courses to enrol in, and "my courses". Enrolling takes a
 * place at once or says why not (full, no longer open); leaving asks first. Partners and admins
 * see the catalogue as members do, told that only members enrol, with nothing to press that the
 * server would refuse.
 */
export function CataloguePage() {
  const { t } = useTranslation();
  const member = useSession().user?.role === 'member';
  const toast = useToast();
  const [typed, setTyped] = useState('');
  const search = useDebounced(typed.trim());
  const [mine, setMine] = useState(false);
  const [page, setPage] = usePage(JSON.stringify([search, mine]));
  const filters: CatalogueFilters = { mine, search: search || undefined, page };
  const catalogue = useCatalogue(filters);
  const enrolment = useEnrolment();
  const [leaving, setLeaving] = useState<Course | null>(null);

  function change(course: Course, enrol: boolean) {
    setLeaving(null);
    enrolment.mutate(
      { id: course._id, enrol },
      {
        onSuccess: (answer) => toast('success', answer.message),
        onError: (error) => toast('error', error instanceof ApiError ? error.message : t('dialog.noServer')),
      },
    );
  }

  const data = catalogue.data;
  const tab = (forMine: boolean, label: string) => (
    <button
      type="button"
      role="tab"
      aria-selected={mine === forMine}
      className={`tab${mine === forMine ? ' selected' : ''}`}
      onClick={() => setMine(forMine)}
    >
      {label}
    </button>
  );
  return (
    <section className="catalogue" id="catalogue">
      <h1>{t('screen.emarket')}</h1>
      <div className="toolbar">
        {member && (
          <div role="tablist" className="tabs">
            {tab(false, t('market.all'))}
            {tab(true, t('market.mine'))}
          </div>
        )}
        <SearchField label={t('courses.search')} value={typed} onChange={setTyped} />
      </div>
      {!member && <p className="banner">{t('market.staffNote')}</p>}
      {catalogue.isPending ? (
        <Loading />
      ) : catalogue.isError || !data ? (
        <LoadFailed
          message={catalogue.error instanceof ApiError ? catalogue.error.message : t('courses.loadFailed')}
          onRetry={catalogue.refetch}
          retry="settings.retry"
        />
      ) : data.courses.length === 0 ? (
        <p className="card empty">
          {filters.search ? t('courses.noMatch') : t(filters.mine ? 'market.mineEmpty' : 'market.empty')}
        </p>
      ) : (
        <>
          <div className="course-grid" aria-busy={catalogue.isFetching}>
            {data.courses.map((course) => (
              <CatalogueCard
                key={course._id}
                course={course}
                canEnrol={member}
                busy={enrolment.isPending && enrolment.variables?.id === course._id}
                onEnrol={() => change(course, true)}
                onLeave={() => setLeaving(course)}
              />
            ))}
          </div>
          {data.pages > 1 && <Pager page={data.page} pages={data.pages} onPage={setPage} />}
        </>
      )}
      {leaving && (
        <ConfirmDialog
          title={t('market.confirmLeave')}
          onCancel={() => setLeaving(null)}
          onConfirm={() => change(leaving, false)}
        >
          {leaving.courseTopic}
        </ConfirmDialog>
      )}
    </section>
  );
}
