import {
  CSV_BOM,
  csvRow,
  DELIVERY_STATUS_LABELS,
  DELIVERY_STATUSES,
  EVENT_TYPES,
  type StatisticsResponse,
} from '@pledgewatch/contract';
import { texts } from '@/features/statistics/texts';
import { saveFile } from '@/lib/save-file';

const t = texts.statistics.csv;

const ruDate = (date: string) => `${date.slice(8, 10)}.${date.slice(5, 7)}.${date.slice(0, 4)}`;
export const periodName = (data: Pick<StatisticsResponse, 'from' | 'to'>) => ({
  from: ruDate(data.from),
  to: ruDate(data.to),
});

/** Every series of the answer, one row per interval: CSV with `;` and a BOM, as Excel expects. */
export function statisticsCsv(data: StatisticsResponse): string {
  const header = [
    t.bucket,
    t.bucketEnd,
    ...data.eventTypes.map((type) => EVENT_TYPES[type].label),
    t.events,
    t.monitored,
    t.added,
    t.archived,
    t.checkRuns,
    t.checkRunItems,
    t.oneTimeChecks,
    t.uploads,
    t.uploadRows,
    t.accepted,
    t.rejected,
    ...DELIVERY_STATUSES.map((status) => t.delivery(DELIVERY_STATUS_LABELS[status])),
  ];
  const rows = data.points.map((point) => [
    ruDate(point.bucket),
    ruDate(point.bucketEnd),
    ...data.eventTypes.map((type) => point.eventsByType[type] ?? 0),
    point.events,
    point.itemsMonitored,
    point.itemsAdded,
    point.itemsArchived,
    point.checkRuns,
    point.checkRunItems,
    point.oneTimeChecks,
    point.uploads,
    point.uploadRows,
    point.uploadRowsAccepted,
    point.uploadRowsRejected,
    ...DELIVERY_STATUSES.map((status) => point.deliveries[status]),
  ]);
  // The shared writer: event-type and status labels are quoted and neutralised as the server's files are.
  return `${CSV_BOM}${[header, ...rows].map(csvRow).join('')}`;
}

export function downloadStatisticsCsv(data: StatisticsResponse): void {
  const { from, to } = periodName(data);
  saveFile(new Blob([statisticsCsv(data)], { type: 'text/csv;charset=utf-8' }), t.fileName(from, to));
}

/**
 * A chart as PNG: its SVG serialised and drawn on a canvas (twice the size, white background, the
 * title above), then saved.
 */
export async function downloadChartPng(
  container: HTMLElement,
  title: string,
  fileName: string,
): Promise<void> {
  const svg = container.querySelector('.recharts-wrapper > svg.recharts-surface');
  if (!svg) {
    return;
  }
  const { width, height } = svg.getBoundingClientRect();
  const clone = svg.cloneNode(true) as SVGSVGElement;
  clone.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  clone.setAttribute('width', String(width));
  clone.setAttribute('height', String(height));
  // Colours that come from CSS variables or currentColor must be fixed before the SVG leaves the page.
  const text = getComputedStyle(container).color;
  clone.setAttribute('color', text);
  const source = new XMLSerializer().serializeToString(clone);
  const image = new Image();
  const loaded = new Promise<void>((resolve, reject) => {
    image.onload = () => resolve();
    image.onerror = () => reject(new Error('svg'));
  });
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(source)}`;
  await loaded;
  const scale = 2;
  const titleHeight = 32;
  const canvas = document.createElement('canvas');
  canvas.width = Math.ceil(width * scale);
  canvas.height = Math.ceil((height + titleHeight) * scale);
  const context = canvas.getContext('2d');
  if (!context) {
    return;
  }
  context.scale(scale, scale);
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, width, height + titleHeight);
  context.fillStyle = '#222222';
  context.font = '600 15px sans-serif';
  context.fillText(title, 8, 21);
  context.drawImage(image, 0, titleHeight, width, height);
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
  if (blob) {
    saveFile(blob, fileName);
  }
}
