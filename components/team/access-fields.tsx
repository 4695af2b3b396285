import { CLIENT_ACCESS, CLIENT_ACCESS_LABELS } from "@/lib/team/schemas";
import { textInput } from "../styles";

export interface Choice {
  id: number;
  name: string;
}

const ACCESS_HINTS = {
  all: "Every client of the firm.",
  client_groups: "Clients in the groups chosen below.",
  assigned_clients: "Clients they manage or have a job on (a contractor).",
} as const;

function FieldError({ id, error }: { id: string; error?: string }) {
  if (!error) return null;
  return (
    <p id={id} className="text-sm font-medium text-red-700">
      {error}
    </p>
  );
}

/**
 * Role, client access and client groups: the invite form's and each person's editor. `prefix` keeps the ids of
 * several copies on one page apart.
 */
export function AccessFields({
  prefix,
  roles,
  groups,
  values,
  errors = {},
}: {
  prefix: string;
  roles: Choice[];
  groups: Choice[];
  values: { roleId?: string; clientAccess?: string; groupIds?: string[] };
  errors?: Partial<Record<string, string>>;
}) {
  const roleId = `${prefix}-role`;
  const chosenGroups = new Set(values.groupIds ?? []);
  return (
    <>
      <div className="space-y-1.5">
        <label htmlFor={roleId} className="block text-sm font-medium">
          Role
        </label>
        <select
          id={roleId}
          name="roleId"
          required
          defaultValue={values.roleId ?? String(roles.find((r) => r.name === "Standard")?.id ?? roles[0]?.id ?? "")}
          aria-invalid={errors.roleId ? true : undefined}
          aria-describedby={errors.roleId ? `${roleId}-error` : undefined}
          className={`${textInput} sm:max-w-xs`}
        >
          {roles.map((role) => (
            <option key={role.id} value={role.id}>
              {role.name}
            </option>
          ))}
        </select>
        <FieldError id={`${roleId}-error`} error={errors.roleId} />
      </div>
      <fieldset
        className="space-y-1.5"
        aria-describedby={errors.clientAccess ? `${prefix}-access-error` : `${prefix}-access-hint`}
      >
        <legend className="text-sm font-medium">Client access</legend>
        <p id={`${prefix}-access-hint`} className="text-sm text-slate-600">
          Owners and Admins see every client whatever is chosen here.
        </p>
        {CLIENT_ACCESS.map((access) => (
          <label key={access} className="flex items-start gap-2 text-sm">
            <input
              type="radio"
              name="clientAccess"
              value={access}
              defaultChecked={(values.clientAccess ?? "all") === access}
              className="mt-1 h-4 w-4 shrink-0 accent-slate-900"
            />
            <span>
              <span className="font-medium">{CLIENT_ACCESS_LABELS[access]}</span>{" "}
              <span className="text-slate-600">{ACCESS_HINTS[access]}</span>
            </span>
          </label>
        ))}
        <FieldError id={`${prefix}-access-error`} error={errors.clientAccess} />
      </fieldset>
      <fieldset className="space-y-1.5" aria-describedby={errors.groupIds ? `${prefix}-groups-error` : undefined}>
        <legend className="text-sm font-medium">Client groups</legend>
        {groups.length === 0 ? (
          <p className="text-sm text-slate-600">The firm has no client groups yet.</p>
        ) : (
          <div className="flex flex-wrap gap-x-4 gap-y-1.5">
            {groups.map((group) => (
              <label key={group.id} className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  name="groupIds"
                  value={group.id}
                  defaultChecked={chosenGroups.has(String(group.id))}
                  className="h-4 w-4 shrink-0 accent-slate-900"
                />
                <span className="break-words">{group.name}</span>
              </label>
            ))}
          </div>
        )}
        <FieldError id={`${prefix}-groups-error`} error={errors.groupIds} />
      </fieldset>
    </>
  );
}
