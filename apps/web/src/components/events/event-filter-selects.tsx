import {
  EVENT_TYPE_CODES,
  EVENT_TYPES,
  type EventType,
  SEVERITIES,
  SEVERITY_CODES,
  type Severity,
  SOURCE_TYPE_CODES,
  SOURCE_TYPES,
  type SourceType,
} from '@pledgewatch/contract';
import { MultiSelect } from '@/components/ui/multi-select';
import { texts } from '@/config/texts';

/**
 * The event filters shared by the events list, statistics and the report: event types,
 * severities and sources, each a multi-select where nothing chosen means all. Each screen keeps
 * its own labels.
 */
type SelectProps<T extends string> = {
  label: string;
  allLabel: string;
  value: T[];
  onChange: (value: T[]) => void;
  minWidth?: number;
};

export function EventTypeSelect(props: SelectProps<EventType>) {
  return (
    <MultiSelect
      {...props}
      codes={EVENT_TYPE_CODES}
      labelOf={(code) => EVENT_TYPES[code].label}
      selectedLabel={texts.common.selected}
    />
  );
}

export function SeveritySelect(props: SelectProps<Severity>) {
  return (
    <MultiSelect
      {...props}
      codes={SEVERITY_CODES}
      labelOf={(code) => SEVERITIES[code].label}
      selectedLabel={texts.common.selected}
    />
  );
}

export function SourceSelect(props: SelectProps<SourceType>) {
  return (
    <MultiSelect
      {...props}
      codes={SOURCE_TYPE_CODES}
      labelOf={(code) => SOURCE_TYPES[code].name}
      selectedLabel={texts.common.selected}
    />
  );
}
