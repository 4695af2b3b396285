// One resource's access level as a labelled select, up to `most`: the consent page, lowering a grant and a firm's cap
// of an app all offer levels this way, in the token page's words.
import { textInput } from "@/components/styles";
import { type AccessLevel, levelsOf, resourceLabel, type TokenResource } from "@/lib/tokens/access";

const LEVEL_WORDS: Record<AccessLevel, string> = { none: "No access", read: "Read", write: "Read and write" };
const RANK: Record<AccessLevel, number> = { none: 0, read: 1, write: 2 };

export function AccessLevelSelect({
  resource,
  name,
  most = "write",
  defaultValue,
}: {
  resource: TokenResource;
  name: string;
  /** The highest level offered. */
  most?: AccessLevel;
  defaultValue: AccessLevel;
}) {
  const label = resourceLabel(resource).replace(/^./, (c) => c.toUpperCase());
  return (
    <label className="flex items-center justify-between gap-3 text-sm">
      <span>{label}</span>
      <select aria-label={label} name={name} defaultValue={defaultValue} className={`${textInput} max-w-44`}>
        {levelsOf(resource)
          .filter((level) => RANK[level] <= RANK[most])
          .map((level) => (
            <option key={level} value={level}>
              {LEVEL_WORDS[level]}
            </option>
          ))}
      </select>
    </label>
  );
}
