// Shared Tailwind class lists, so every control looks and focuses the same way.
export const focusRing =
  "focus:outline-none focus-visible:ring-2 focus-visible:ring-offset-2 focus-visible:ring-slate-900";
const button = `inline-flex items-center justify-center rounded-md px-4 py-2 text-sm font-medium disabled:opacity-60 ${focusRing}`;

export const primaryButton = `${button} bg-slate-900 text-white hover:bg-slate-700`;
export const secondaryButton = `${button} border border-slate-300 bg-white text-slate-900 hover:bg-slate-100`;
export const dangerButton = `${button} bg-red-700 text-white hover:bg-red-800 focus-visible:ring-red-700`;
export const textInput =
  "block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-base text-slate-900 shadow-sm " +
  "focus:border-slate-900 focus:outline-none focus:ring-2 focus:ring-slate-900 aria-invalid:border-red-700";
