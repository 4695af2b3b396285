"use client";

import { type ReactNode, useEffect, useRef, useState } from "react";

/**
 * A wide table's frame: it scrolls sideways rather than squeeze or clip its columns, and while columns are hidden
 * past its right edge it says so above it ("More columns: scroll sideways"), at any width, with a shadow on the
 * edge. Focusable, so that a keyboard scrolls it too.
 */
export function ScrollRegion({ label, children }: { label: string; children: ReactNode }) {
  const region = useRef<HTMLDivElement>(null);
  const [hidden, setHidden] = useState(false);
  useEffect(() => {
    const element = region.current;
    if (!element) return;
    const measure = () => setHidden(element.scrollLeft + element.clientWidth < element.scrollWidth - 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    element.addEventListener("scroll", measure, { passive: true });
    return () => {
      observer.disconnect();
      element.removeEventListener("scroll", measure);
    };
  }, []);
  return (
    <>
      <p className="mt-1 text-xs text-slate-600" aria-hidden="true" data-scroll-cue={hidden ? "shown" : "hidden"}>
        {hidden ? "More columns to the right: scroll the table sideways →" : "\u00a0"}
      </p>
      <div
        ref={region}
        className={`mt-1 overflow-x-auto ${hidden ? "shadow-[inset_-12px_0_8px_-8px_rgb(15_23_42_/_0.25)]" : ""}`}
        role="region"
        aria-label={label}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard
        tabIndex={0}
      >
        {children}
      </div>
    </>
  );
}
