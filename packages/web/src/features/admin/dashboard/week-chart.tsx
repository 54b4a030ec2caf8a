/**
 * New pastes and files per day over the last 7 days: paired bars in plain SVG (colours from the theme,
 * so it reads in light and dark), with the same figures as a table for screen readers.
 */
import { useTranslation } from 'react-i18next';

export interface WeekChartProps {
  days: string[];
  pastes: number[];
  files: number[];
}

const HEIGHT = 120;
const BAR = 10;
const GAP = 3;
const SLOT = 44;

export function WeekChart({ days, pastes, files }: WeekChartProps) {
  const { t, i18n } = useTranslation();
  const max = Math.max(1, ...pastes, ...files);
  const dayLabel = (day: string) =>
    new Intl.DateTimeFormat(i18n.language, { month: 'numeric', day: 'numeric', timeZone: 'UTC' }).format(
      new Date(`${day}T00:00:00Z`),
    );
  const bar = (value: number) => Math.max(value > 0 ? 2 : 0, Math.round((value / max) * HEIGHT));
  return (
    <figure data-testid="week-chart">
      <div className="mb-2 flex gap-4 text-xs text-fg-muted" aria-hidden="true">
        <span className="inline-flex items-center gap-1.5">
          <span className="inline-block size-2.5 rounded-sm bg-accent" />
          {t('admin.dashboard.week.pastes')}
        </span>
        <span className="inline-flex items-center gap-1.5">
          <span className="inline-block size-2.5 rounded-sm bg-success" />
          {t('admin.dashboard.week.files')}
        </span>
      </div>
      <svg
        viewBox={`0 0 ${SLOT * days.length} ${HEIGHT + 20}`}
        className="h-40 w-full max-w-md"
        aria-hidden="true"
        preserveAspectRatio="xMinYMax meet"
      >
        {days.map((day, i) => {
          const x = i * SLOT + (SLOT - 2 * BAR - GAP) / 2;
          return (
            <g key={day}>
              {[pastes, files].map((series, k) => (
                <rect
                  key={k}
                  x={x + k * (BAR + GAP)}
                  y={HEIGHT - bar(series[i] ?? 0)}
                  width={BAR}
                  height={bar(series[i] ?? 0)}
                  rx={2}
                  className={k === 0 ? 'fill-accent' : 'fill-success'}
                />
              ))}
              <text
                x={i * SLOT + SLOT / 2}
                y={HEIGHT + 15}
                textAnchor="middle"
                className="fill-fg-muted text-[10px]"
              >
                {dayLabel(day)}
              </text>
            </g>
          );
        })}
        <line x1={0} x2={SLOT * days.length} y1={HEIGHT} y2={HEIGHT} className="stroke-border" />
      </svg>
      {pastes.every((n) => n === 0) && files.every((n) => n === 0) && (
        <figcaption className="mt-2 text-sm text-fg-muted">{t('admin.dashboard.week.none')}</figcaption>
      )}
      <table className="sr-only">
        <caption>{t('admin.dashboard.week.title')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('admin.dashboard.week.day')}</th>
            <th scope="col">{t('admin.dashboard.week.pastes')}</th>
            <th scope="col">{t('admin.dashboard.week.files')}</th>
          </tr>
        </thead>
        <tbody>
          {days.map((day, i) => (
            <tr key={day}>
              <th scope="row">{dayLabel(day)}</th>
              <td>{pastes[i] ?? 0}</td>
              <td>{files[i] ?? 0}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
