import { RegistrationDetails } from './registration-details.tsx';
import { RegistrationsTable, type SortKey } from './registrations-table.tsx';
import { shortDate } from './short-date.ts';
import { Pager } from '../../../components/ui/pager.tsx';
import { SearchField } from '../../../components/ui/list-toolbar.tsx';
import { type ColumnDef, type SortingState, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { type FormEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AccountView } from '@portal/contracts/views/account';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { LoadFailed, Loading } from '../../../components/status-views.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { type Action, useRegistrationAction } from '../api/registration-action.ts';
import { type Filters, useRegistrations } from '../api/get-registrations.ts';
import { exportRegistrations } from '../api/export-registrations.ts';

/**
 * The registration report (/registrations, spec 001 sections 2.7 and 9): search (Enter), status
 * filter, sortable columns (a new column starts ascending), pages of 10, and view, approve,
 * reject, delete and erase with confirmation; CSV export of the filtered rows. Filtering, sorting
 * and paging run in the query API.
 */
export function RegistrationsPage() {
  const { t, i18n } = useTranslation();
  const toast = useToast();
  const [typed, setTyped] = useState('');
  const [filters, setFilters] = useState<Filters>({ sort: 'registrationDate', order: 'desc', page: 1 });
  const [viewing, setViewing] = useState<AccountView | null>(null);
  const [exporting, setExporting] = useState(false);
  const [asking, setAsking] = useState<{ action: Action; member: AccountView } | null>(null);
  const registrations = useRegistrations(filters);
  const act = useRegistrationAction();
  const change = (next: Partial<Filters>) => setFilters((current) => ({ ...current, page: 1, ...next }));
  const date = (iso: string) => shortDate(iso, i18n.language);

  const columns = useMemo<ColumnDef<AccountView>[]>(
    () => [
      {
        id: 'id',
        header: t('registrations.id'),
        // The last 8 of 24 hex digits tell rows apart; the whole id is in the title and the details.
        cell: ({ row }) => <code title={row.original._id}>…{row.original._id.slice(-8)}</code>,
      },
      {
        id: 'name',
        header: t('registrations.name'),
        cell: ({ row }) => row.original.fullName || row.original.username,
      },
      { id: 'email', header: t('form.email'), cell: ({ row }) => row.original.personalEmail },
      { id: 'phone', header: t('form.phone'), cell: ({ row }) => row.original.personalPhone },
      {
        id: 'role',
        header: t('registrations.role'),
        cell: ({ row }) =>
          row.original.role === 'partner'
            ? `${t('registrations.partner')} · ${row.original.companyName ?? ''}`
            : t('registrations.member'),
      },
      { id: 'registrationDate', header: t('registrations.date'), cell: ({ row }) => date(row.original.createdAt) },
      {
        id: 'status',
        header: t('registrations.status'),
        cell: ({ row }) => (
          <span className={`badge badge-${row.original.status}`}>{t(`status.${row.original.status}`)}</span>
        ),
      },
      {
        id: 'actions',
        header: t('registrations.actions'),
        cell: ({ row }) => {
          const member = row.original;
          const button = (action: Action | 'view', label: string) => (
            <button
              type="button"
              className={action === 'delete' || action === 'erase' ? 'button small danger' : 'button small'}
              onClick={() => (action === 'view' ? setViewing(member) : setAsking({ action, member }))}
              aria-label={`${label}: ${member.fullName || member.username}`}
            >
              {label}
            </button>
          );
          return (
            <div className="row-actions">
              {button('view', t('registrations.view'))}
              {member.status !== 'approved' && button('approve', t('registrations.approve'))}
              {member.status !== 'rejected' && button('reject', t('registrations.reject'))}
              {member.status === 'approved' && button('passwordLink', t('registrations.passwordLink'))}
              {button('delete', t('registrations.delete'))}
              {button('erase', t('registrations.erase'))}
            </div>
          );
        },
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the words change only with the language
    [i18n.language],
  );

  const sorting: SortingState = [{ id: filters.sort, desc: filters.order === 'desc' }];
  const table = useReactTable({
    data: registrations.data?.members ?? [],
    columns,
    state: { sorting },
    manualSorting: true,
    manualPagination: true,
    getCoreRowModel: getCoreRowModel(),
  });

  function sortBy(column: SortKey) {
    change(
      filters.sort === column ? { order: filters.order === 'asc' ? 'desc' : 'asc' } : { sort: column, order: 'asc' },
    );
  }

  async function download() {
    setExporting(true);
    try {
      const blob = await exportRegistrations(filters);
      const link = document.createElement('a');
      link.href = URL.createObjectURL(blob);
      link.download = 'registrations_report.csv';
      link.click();
      URL.revokeObjectURL(link.href);
      toast('success', t('registrations.exported'));
    } catch {
      toast('error', t('registrations.exportFailed'));
    } finally {
      setExporting(false);
    }
  }

  function confirm() {
    const { action, member } = asking!;
    setAsking(null);
    act.mutate(
      { action, id: member._id },
      {
        onSuccess: (answer) => toast('success', answer.message),
        onError: (error) => toast('error', error instanceof ApiError ? error.message : t('dialog.noServer')),
      },
    );
  }

  return (
    <section className="report">
      <h1>{t('screen.registrations')}</h1>
      <div className="toolbar">
        <form
          role="search"
          onSubmit={(event: FormEvent) => {
            event.preventDefault();
            change({ search: typed.trim() || undefined });
          }}
        >
          <SearchField label={t('registrations.search')} value={typed} onChange={setTyped} />
        </form>
        <select
          aria-label={t('registrations.status')}
          value={filters.status ?? ''}
          onChange={(event) => change({ status: (event.target.value || undefined) as Filters['status'] })}
        >
          <option value="">{t('registrations.allStatuses')}</option>
          {(['pending', 'approved', 'rejected'] as const).map((status) => (
            <option key={status} value={status}>
              {t(`status.${status}`)}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="button"
          disabled={exporting}
          aria-busy={exporting}
          onClick={() => void download()}
        >
          {t(exporting ? 'registrations.exporting' : 'registrations.export')}
        </button>
      </div>
      {registrations.isPending ? (
        <Loading />
      ) : registrations.isError || !registrations.data ? (
        <LoadFailed message={t('registrations.loadFailed')} onRetry={registrations.refetch} retry="settings.retry" />
      ) : (
        <>
          <RegistrationsTable
            table={table}
            sort={{ sort: filters.sort, order: filters.order }}
            onSort={sortBy}
            empty={registrations.data.members.length === 0}
          />
          <Pager
            page={registrations.data.page}
            pages={registrations.data.pages}
            onPage={(page) => setFilters({ ...filters, page })}
            spelled
          />
        </>
      )}
      {viewing && <RegistrationDetails member={viewing} onClose={() => setViewing(null)} />}
      {asking && (
        <ConfirmDialog
          title={t(`registrations.confirm.${asking.action}`)}
          destructive={asking.action === 'delete' || asking.action === 'erase'}
          onCancel={() => setAsking(null)}
          onConfirm={confirm}
        >
          {asking.member.fullName || asking.member.username}
        </ConfirmDialog>
      )}
    </section>
  );
}
