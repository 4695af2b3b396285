import { AUDIT_ACTIONS, type AuditFilters, TARGET_TYPES } from "@/lib/audit/schemas";
import { wallMinute } from "@/lib/audit/settings";
import { AUDIT_PATH } from "@/lib/paths";
import { primaryButton, secondaryButton, textInput } from "../styles";

/**
 * The log's filters: a plain GET form, so that a filtered view is a link that can be kept and shared. Its times are
 * in `timezone`, the zone the entries are shown in (the person's own), and say so.
 */
export function AuditFiltersForm({
  filters,
  people,
  errors,
  typed,
  timezone,
}: {
  timezone: string;
  filters: AuditFilters;
  people: { id: number; firstname: string; lastname: string }[];
  errors?: Record<string, string[]>;
  /** The boxes as typed, when the filters were refused: shown again, so that a typo costs only its correction. */
  typed?: Record<string, string>;
}) {
  const label = "block text-sm font-medium text-slate-700";
  /** A datetime-local box's value of a filter date: its minute in the zone the page shows. */
  const boxValue = (date: Date | undefined) => (date ? wallMinute(date, timezone) : "");
  const error = (field: string) =>
    errors?.[field] && (
      <p id={`${field}-error`} className="mt-1 text-sm text-red-700">
        {errors[field].join(" ")}
      </p>
    );
  const invalid = (field: string) =>
    errors?.[field] ? { "aria-invalid": true, "aria-describedby": `${field}-error` } : {};
  return (
    <form method="get" action={AUDIT_PATH} aria-label="Filter the audit log" className="grid gap-4 sm:grid-cols-2">
      <div>
        <label htmlFor="action" className={label}>
          Action
        </label>
        <select id="action" name="action" defaultValue={typed?.action ?? filters.action ?? ""} className={textInput}>
          <option value="">Any action</option>
          {AUDIT_ACTIONS.map((action) => (
            <option key={action}>{action}</option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor="actor_id" className={label}>
          Who
        </label>
        <select
          id="actor_id"
          name="actor_id"
          defaultValue={typed?.actor_id ?? filters.actor_id ?? ""}
          className={textInput}
        >
          <option value="">Anyone</option>
          {people.map((person) => (
            <option key={person.id} value={person.id}>
              {`${person.firstname} ${person.lastname}`.trim()}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor="target_type" className={label}>
          Kind of record
        </label>
        <select
          id="target_type"
          name="target_type"
          defaultValue={typed?.target_type ?? filters.target_type ?? ""}
          className={textInput}
        >
          <option value="">Any</option>
          {TARGET_TYPES.map((type) => (
            <option key={type}>{type}</option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor="target_uuid" className={label}>
          Record uuid
        </label>
        <input
          id="target_uuid"
          name="target_uuid"
          defaultValue={typed?.target_uuid ?? filters.target_uuid ?? ""}
          className={textInput}
          {...invalid("target_uuid")}
        />
        {error("target_uuid")}
      </div>
      <div>
        <label htmlFor="since" className={label}>
          From ({timezone})
        </label>
        <input
          id="since"
          name="since"
          type="datetime-local"
          defaultValue={typed?.since ?? boxValue(filters.since)}
          className={textInput}
          {...invalid("since")}
        />
        {error("since")}
      </div>
      <div>
        <label htmlFor="until" className={label}>
          Before ({timezone})
        </label>
        <input
          id="until"
          name="until"
          type="datetime-local"
          defaultValue={typed?.until ?? boxValue(filters.until)}
          className={textInput}
          {...invalid("until")}
        />
        {error("until")}
      </div>
      <div className="flex gap-2 sm:col-span-2">
        <button type="submit" className={primaryButton}>
          Filter
        </button>
        <a href={AUDIT_PATH} className={secondaryButton}>
          Clear
        </a>
      </div>
    </form>
  );
}
