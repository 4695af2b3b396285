"use client";

import { useFormStatus } from "react-dom";

/** A submit button that is disabled and says `pendingLabel` while its form's action runs. */
export function SubmitButton({
  label,
  pendingLabel,
  className,
  accessibleLabel,
}: {
  label: string;
  pendingLabel: string;
  className: string;
  /** The button's name for screen readers where the label alone does not say whom it is about. */
  accessibleLabel?: string;
}) {
  const { pending } = useFormStatus();
  return (
    <button type="submit" disabled={pending} aria-label={pending ? undefined : accessibleLabel} className={className}>
      {pending ? pendingLabel : label}
    </button>
  );
}
