import { type Table, flexRender } from '@tanstack/react-table';
import { useTranslation } from 'react-i18next';
import type { AccountView } from '@portal/contracts/views/account';
import { TableWrap } from '../../../components/ui/table-wrap.tsx';

export const SORTABLE = ['id', 'name', 'registrationDate', 'status'] as const;
export type SortKey = (typeof SORTABLE)[number];

/**
 * The report's table: sortable headers (with aria-sort), one row per registration; on a phone
 * each row is a card of labelled lines, the headers a row of sort buttons.
 */
export function RegistrationsTable({
  table,
  sort,
  onSort,
  empty,
}: {
  table: Table<AccountView>;
  sort: { sort: string; order: 'asc' | 'desc' };
  onSort: (column: SortKey) => void;
  empty: boolean;
}) {
  const { t } = useTranslation();
  return (
    <TableWrap label={t('screen.registrations')}>
      <table className="stacked">
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => {
                const key = header.column.id as SortKey;
                const sortable = (SORTABLE as readonly string[]).includes(key);
                const current = sort.sort === key;
                return (
                  <th
                    key={header.id}
                    aria-sort={current ? (sort.order === 'asc' ? 'ascending' : 'descending') : undefined}
                  >
                    {sortable ? (
                      <button type="button" className="sort" onClick={() => onSort(key)}>
                        {flexRender(header.column.columnDef.header, header.getContext())}
                        <span aria-hidden="true">{current ? (sort.order === 'asc' ? ' ▲' : ' ▼') : ''}</span>
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
                <td
                  key={cell.id}
                  data-label={
                    typeof cell.column.columnDef.header === 'string' ? cell.column.columnDef.header : undefined
                  }
                >
                  {flexRender(cell.column.columnDef.cell, cell.getContext())}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {empty && <p className="empty">{t('registrations.empty')}</p>}
    </TableWrap>
  );
}
