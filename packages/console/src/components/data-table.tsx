import type { ComponentChildren } from 'preact';

/** One column of a `DataTable`: its header and how a row fills its cell. */
export interface DataColumn<Row> {
  header: string;
  cell: (row: Row) => ComponentChildren;
  /** Right-aligns the column (numbers). */
  numeric?: boolean;
}

/**
 * A table of records with a caption; on a phone (≤ 760 px) each row becomes a card whose cells carry their header
 * as a label, so nothing scrolls sideways.
 */
export function DataTable<Row>({
  caption,
  columns,
  rows,
  rowKey,
}: {
  caption: string;
  columns: readonly DataColumn<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
}) {
  return (
    <div class="data-table">
      <table>
        <caption class="data-table__caption">{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.header} scope="col" class={column.numeric ? 'data-table__numeric' : undefined}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((column) => (
                <td
                  key={column.header}
                  data-label={column.header}
                  class={column.numeric ? 'data-table__numeric' : undefined}
                >
                  <div class="data-table__value">{column.cell(row)}</div>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
