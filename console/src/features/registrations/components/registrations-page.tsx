import { Pager } from '../../../components/ui/pager.tsx';
import { SearchField } from '../../../components/ui/list-toolbar.tsx';
import { type ColumnDef, type SortingState, flexRender, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { type FormEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { AccountView } from '@portal/query-api/contracts/account';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { LoadFailed, Loading } from '../../../components/status-views.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import {
  type Action,
  type Filters,
  exportRegistrations,
  useRegistrationAction,
  useRegistrations,
} from '../api/registrations.ts';

const SORTABLE = ['id', 'name', 'registrationDate', 'status'] as const;
type SortKey = (typeof SORTABLE)[number];

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
  const [asking, setAsking] = useState<{ action: Action; member: AccountView } | null>(null);
  const registrations = useRegistrations(filters);
  const act = useRegistrationAction();
  const change = (next: Partial<Filters>) => setFilters((current) => ({ ...current, page: 1, ...next }));
  const date = (iso: string) => new Date(iso).toLocaleDateString(i18n.language === 'th' ? 'th-TH' : 'en-GB');

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
              className="button small"
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
        <button type="button" className="button" onClick={() => void download()}>
          {t('registrations.export')}
        </button>
      </div>
      {registrations.isPending ? (
        <Loading />
      ) : registrations.isError || !registrations.data ? (
        <LoadFailed message={t('registrations.loadFailed')} onRetry={registrations.refetch} retry="settings.retry" />
      ) : (
        <>
          <div className="table-wrap">
            <table>
              <thead>
                {table.getHeaderGroups().map((group) => (
                  <tr key={group.id}>
                    {group.headers.map((header) => {
                      const key = header.column.id as SortKey;
                      const sortable = (SORTABLE as readonly string[]).includes(key);
                      const current = filters.sort === key;
                      return (
                        <th
                          key={header.id}
                          aria-sort={current ? (filters.order === 'asc' ? 'ascending' : 'descending') : undefined}
                        >
                          {sortable ? (
                            <button type="button" className="sort" onClick={() => sortBy(key)}>
                              {flexRender(header.column.columnDef.header, header.getContext())}
                              <span aria-hidden="true">{current ? (filters.order === 'asc' ? ' ▲' : ' ▼') : ''}</span>
                            </button>
                          ) : (
                            flexRender(header.column.columnDef.header, header.getContext())
                          )}
                        </th>
                      );
                    })}
                  </tr>
                ))}
              </thead>
              <tbody>
                {table.getRowModel().rows.map((row) => (
                  <tr key={row.id}>
                    {row.getVisibleCells().map((cell) => (
                      <td key={cell.id}>{flexRender(cell.column.columnDef.cell, cell.getContext())}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
            {registrations.data.members.length === 0 && <p className="empty">{t('registrations.empty')}</p>}
          </div>
          <Pager
            page={registrations.data.page}
            pages={registrations.data.pages}
            onPage={(page) => setFilters({ ...filters, page })}
            label={t('registrations.pageOf', { page: registrations.data.page, pages: registrations.data.pages })}
          />
        </>
      )}
      {viewing && (
        <Modal label={viewing.fullName || viewing.username} onClose={() => setViewing(null)}>
          <h2>{viewing.fullName || viewing.username}</h2>
          <dl className="details">
            {(
              [
                [t('registrations.id'), viewing._id],
                [t('login.username'), viewing.username],
                [t('form.title'), viewing.title],
                [t('form.personalId'), viewing.personalId],
                [t('form.phone'), viewing.personalPhone],
                [t('form.email'), viewing.personalEmail],
                [
                  t('form.address'),
                  [
                    viewing.personalAddress,
                    viewing.personalSubdistrict,
                    viewing.personalDistrict,
                    viewing.personalProvince,
                    viewing.personalPostalCode,
                  ]
                    .filter(Boolean)
                    .join(' '),
                ],
                [
                  t('registrations.role'),
                  t(viewing.role === 'partner' ? 'registrations.partner' : 'registrations.member'),
                ],
                [t('partner.companyName'), viewing.company?.companyName],
                [t('partner.companyTaxId'), viewing.company?.companyTaxId],
                [t('partner.companyEmail'), viewing.company?.companyEmail],
                [t('registrations.date'), date(viewing.createdAt)],
                [t('registrations.status'), t(`status.${viewing.status}`)],
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
          {viewing.role === 'member' && (
            <Link className="button" to={`/members/${viewing._id}`}>
              {t('history.link')}
            </Link>
          )}
        </Modal>
      )}
      {asking && (
        <ConfirmDialog
          title={t(`registrations.confirm.${asking.action}`)}
          onCancel={() => setAsking(null)}
          onConfirm={confirm}
        >
          {asking.member.fullName || asking.member.username}
        </ConfirmDialog>
      )}
    </section>
  );
}
